package importcfg

import "testing"

const tenacityFormat = "tenacity @retry (Python)"

var tenacityCases = []importCase{
	{name: "random exponential with a budget", format: tenacityFormat,
		text: "@retry(\n    retry=retry_if_exception_type(IOError),\n    stop=stop_after_attempt(5) | stop_before_delay(20.0),\n    wait=wait_random_exponential(multiplier=0.5, max=8.0),\n)\ndef call():\n    ...",
		want: "base=500ms&cap=8s&factor=2&jitter=full&attempts=5&budget=20s", ignored: []string{"line 2: retry_if_exception_type"}},
	{name: "exponential jitter", format: tenacityFormat,
		text: "@retry(stop=stop_after_attempt(4), wait=wait_exponential_jitter(max=10.0, exp_base=3, jitter=0.5))",
		want: "base=1s&cap=10s&factor=3&jitter=additive&add=500ms&capat=after&attempts=4"},
	{name: "a fixed and a random wait", format: tenacityFormat,
		text: "@retry(stop=stop_after_attempt(3), wait=wait_fixed(2.0) + wait_random(min=0, max=1.0))",
		want: "base=2s&factor=1&cap=2s&jitter=additive&add=1s"},
	{name: "incrementing, first exact", format: tenacityFormat,
		text: "@retry(stop=stop_after_attempt(3), wait=wait_chain(wait_fixed(0.5), wait_incrementing(start=0.5, increment=0.5, max=2.0)))",
		want: "base=500ms&cap=2s&growth=linear&first=exact&jitter=none"},
}

func TestTenacity(t *testing.T) { checkImports(t, tenacityCases) }

func TestTenacityRefuses(t *testing.T) {
	checkRefuses(t, []badCase{
		{"no stop", "@retry(wait=wait_fixed(1.0))", []string{"line 1", "stop_after_attempt"}},
		{"attempts 0", "@retry(\nstop=stop_after_attempt(0), wait=wait_fixed(1.0))", []string{"line 2", "stop_after_attempt", `"0"`}},
		{"negative seconds", "@retry(stop=stop_after_attempt(3), wait=wait_fixed(-1))", []string{"wait_fixed", `"-1"`}},
		{"an exponent", "@retry(stop=stop_after_attempt(3), wait=wait_fixed(1e3))", []string{"wait_fixed", `"1e3"`}},
		{"an unknown argument", "@retry(stop=stop_after_attempt(3), wait=wait_exponential(multiplier=1, min=2))", []string{"wait_exponential min", `"2"`}},
		{"a positional argument", "@retry(stop=stop_after_attempt(3), wait=wait_random(0, 1))", []string{"give its arguments by name"}},
		{"another stop", "@retry(stop=stop_after_attempt(3) | stop_after_delay(10), wait=wait_fixed(1.0))", []string{"stop_after_delay", "not read"}},
		{"incrementing unlike linear", "@retry(stop=stop_after_attempt(3), wait=wait_incrementing(start=1, increment=2))", []string{"start must equal increment"}},
		{"three waits", "@retry(stop=stop_after_attempt(3), wait=wait_fixed(1) + wait_fixed(2) + wait_fixed(3))", []string{"not a wait the calculator reads"}},
		{"chain unlike the base", "@retry(stop=stop_after_attempt(3), wait=wait_chain(wait_fixed(2.0), wait_fixed(1.0)))", []string{"wait_chain", "1s"}},
		{"max under the first wait", "@retry(stop=stop_after_attempt(3), wait=wait_exponential(multiplier=2, max=1))", []string{"max 1s", "at least the first wait, 2s"}},
	})
}
