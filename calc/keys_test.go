package calc

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"backoffcalc/calc/policy"
)

// unknownKeyTests are links and the messages UnknownKeys gives for them, in order.
var unknownKeyTests = []struct {
	name, query string
	others      []string
	want        []string
}{
	{"none", "base=1s&preset=envoy&solve=base", nil, nil},
	{"others are known", "export=grpc&vs=base%3D1s", []string{"export", "vs"}, nil},
	{"typo", "attempt=8&bse=1s", nil, []string{
		`calc: attempt "8": unknown key; did you mean attempts?`,
		`calc: bse "1s": unknown key; did you mean base?`}},
	{"case", "BASE=1s&Jitter=none", nil, []string{
		`calc: BASE "1s": unknown key; did you mean base?`,
		`calc: Jitter "none": unknown key; did you mean jitter?`}},
	{"swapped letters", "bsae=1&atempst=3", nil, []string{
		`calc: bsae "1": unknown key; did you mean base?`,
		`calc: atempst "3": unknown key; did you mean attempts?`}},
	{"a prefix", "jit=full", nil, []string{`calc: jit "full": unknown key; did you mean jitter?`}},
	{"a key added to", "capat2=x", nil, []string{`calc: capat2 "x": unknown key; did you mean capat?`}},
	{"a key of others", "exprt=grpc", []string{"export"}, []string{`calc: exprt "grpc": unknown key; did you mean export?`}},
	// Nothing close: a short key is not turned into another one.
	{"far", "x=1&wasm=false&utm_source=mail&toString=1", nil, []string{
		`calc: x "1": unknown key`, `calc: wasm "false": unknown key`,
		`calc: utm_source "mail": unknown key`, `calc: toString "1": unknown key`}},
	{"repeated", "q=1&q=2", nil, []string{`calc: q "1,2": unknown key`}},
	{"empty key", "=1&&", nil, []string{`calc: "" "1": unknown key`}},
	{"broken key", "ba%zzse=1", nil, []string{`calc: "ba%zzse" "1": unknown key`}},
	{"encoded key", "%62se=1&%3Cimg%20src%3Dx%3E=1", nil, []string{
		`calc: bse "1": unknown key; did you mean base?`, `calc: "<img src=x>" "1": unknown key`}},
	{"long key", strings.Repeat("x", 100000) + "=1", nil, []string{
		`calc: "` + strings.Repeat("x", 40) + `…" (100000 bytes) "1": unknown key`}},
}

func TestUnknownKeys(t *testing.T) {
	for _, tt := range unknownKeyTests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, fe := range policy.FieldErrors(UnknownKeys(tt.query, tt.others...)) {
				if !IsUnknownKey(fe) {
					t.Errorf("%v: not an unknown key", fe)
				}
				got = append(got, fe.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("UnknownKeys(%.60q):\n%s\nwant\n%s", tt.query, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestUnknownKeyValues: a form's values give the same messages, sorted by key.
func TestUnknownKeyValues(t *testing.T) {
	v := url.Values{"bse": {"1s"}, "base": {"2s"}, "attempt": {"8"}}
	var got []string
	for _, fe := range policy.FieldErrors(UnknownKeyValues(v)) {
		got = append(got, fe.Error())
	}
	want := `calc: attempt "8": unknown key; did you mean attempts?` + "\n" + `calc: bse "1s": unknown key; did you mean base?`
	if strings.Join(got, "\n") != want {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}

// TestDecodeLeavesUnknownKeys: Decode reads its own keys only; the unknown ones are the link
// decoder's to name (libs.DecodeLink), so that a key of another package's is not an error here.
func TestDecodeLeavesUnknownKeys(t *testing.T) {
	if _, err := Decode("export=grpc&base=1s"); err != nil {
		t.Error(err)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"base", "base", 0}, {"bse", "base", 1}, {"bsae", "base", 1}, {"base", "bas", 1},
		{"wasm", "base", 2}, {"abc", "", 3}, {"ca", "abc", 3},
		{strings.Repeat("x", 100000), "base", 3}, // the limit, not a hundred thousand
	} {
		if got := editDistance(tt.a, tt.b, 3); got != tt.want {
			t.Errorf("editDistance(%.20q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestBareMillis: the duration rows of keyTable are exactly the keys that read 1000 as 1s, so
// that a new duration key cannot be left out of them.
func TestBareMillis(t *testing.T) {
	for _, key := range Keys() {
		with := func(v string) string {
			q := url.Values{"base": {"1ms"}, "cap": {"2s"}, "window": {"2s"}}
			q.Set(key, v)
			return q.Encode()
		}
		bare, _ := Decode(with("1000"))
		unit, err := Decode(with("1s"))
		isDuration := err == nil && bare == unit
		if BareMillis(key, "1000") != isDuration {
			t.Errorf("BareMillis(%q, \"1000\") = %v; Decode reads 1000 as 1s: %v", key, !isDuration, isDuration)
		}
	}
	for _, v := range []string{"20s", "abc", "", "-1", "1e3"} {
		if BareMillis("budget", v) {
			t.Errorf("BareMillis(budget, %q) is true", v)
		}
	}
	if !BareMillis("budget", "20") || !BareMillis("base", "2.5") {
		t.Error("a bare number in budget or base is not milliseconds")
	}
}

// A link of many made-up keys names the first 20, the last of which counts the rest, whatever
// their number: serve's pre-render and the page list each named key.
func TestUnknownKeysNamedAtMost20(t *testing.T) {
	for _, n := range []int{19, 20, 21, 45000} {
		keys := make([]string, n)
		for i := range keys {
			keys[i] = "k" + strconv.Itoa(i) + "=1"
		}
		fes := policy.FieldErrors(UnknownKeys("base=1s&" + strings.Join(keys, "&") + "&k0=2"))
		if want := min(n, 20); len(fes) != want {
			t.Fatalf("%d unknown keys: %d named, want %d", n, len(fes), want)
		}
		last := fes[len(fes)-1]
		wantMsg := `calc: k` + strconv.Itoa(len(fes)-1) + ` "1": unknown key`
		if n > 20 {
			wantMsg += " (and " + strconv.Itoa(n-20) + " more unknown keys, not named)"
		}
		if got := last.Error(); got != wantMsg || !IsUnknownKey(last) {
			t.Errorf("%d unknown keys: the last named says %q, want %q", n, got, wantMsg)
		}
		if got := fes[0].Value; got != "1,2" {
			t.Errorf("k0's values %q", got)
		}
	}
}
