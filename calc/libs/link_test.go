package libs

import (
	"net/url"
	"strings"
	"testing"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// The export key: a library's name picks it; without the key the preset's home library, else
// the first; anything else is a field error naming the key, and the default stays.
func TestDecodeLink(t *testing.T) {
	for _, tt := range []struct {
		query, export string
		errs          string // the keys of the field errors, joined with ","
		msg           string
	}{
		{"", "grpc", "", ""},
		{"export=polly", "polly", "", ""},
		{"export=aws-go-v2-2026&base=1s", "aws-go-v2-2026", "", ""},
		{"preset=cenkalti-v5", "cenkalti", "", ""},
		{"preset=k8s-default-backoff", "client-go", "", ""},
		{"preset=aws-botocore", "aws-botocore", "", ""},
		{"preset=google-api-core", "grpc", "", ""}, // no library exports it as its own
		{"preset=envoy&export=tenacity", "tenacity", "", ""},
		{"export=nope", "grpc", "export", `export "nope": must be one of grpc, cenkalti, client-go,`},
		{"export=", "grpc", "export", `export "": empty`},
		{"export=polly&export=grpc", "grpc", "export", `export "polly,grpc": given 2 times`},
		{"export=Polly", "grpc", "export", "must be one of"},
		{"export=%zz&preset=envoy", "envoy", "export", "broken percent-encoding"},
		{"export=" + strings.Repeat("x", 100000), "grpc", "export", `(100000 bytes): must be one of`},
		{"export=nope&base=abc", "grpc", "base,export", `base "abc"`},
		// A key no decoder reads is named, after the others; the link's own keys are not.
		{"attempt=8&bse=1s", "grpc", "attempt,bse", `bse "1s": unknown key; did you mean base?`},
		{"exprt=polly&vs=base%3D1s", "grpc", "exprt", `exprt "polly": unknown key; did you mean export?`},
		{"bse=1s&base=abc", "grpc", "base,bse", `base "abc"`},
	} {
		l, err := DecodeLink(tt.query)
		var keys []string
		for _, fe := range policy.FieldErrors(err) {
			keys = append(keys, fe.Key)
		}
		if l.Export != tt.export || strings.Join(keys, ",") != tt.errs || err != nil && !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("DecodeLink(%.40q): export %q, errors %v (%v); want %q, [%s] with %q", tt.query, l.Export, keys, err, tt.export, tt.errs, tt.msg)
		}
		if err != nil && len(err.Error()) > 600 {
			t.Errorf("DecodeLink(%.40q): a %d-byte error", tt.query, len(err.Error()))
		}
		if strings.Contains(tt.query, "%zz") {
			continue // a form's value has no percent-encoding to break
		}
		v, _ := url.ParseQuery(tt.query)
		lv, err := DecodeLinkValues(v)
		if lv.Export != tt.export || (err == nil) != (tt.errs == "") {
			t.Errorf("DecodeLinkValues(%.40q): export %q, %v", tt.query, lv.Export, err)
		}
	}
}

// Every library's name round-trips through the canonical link, which carries calc's keys, sorted.
func TestLinkEncode(t *testing.T) {
	for _, lib := range Libraries() {
		p := calc.Default()
		p.Base = 250 * 1e6
		l := Link{Params: p, Export: lib.Lib}
		q := l.Encode()
		back, err := DecodeLink(q)
		if err != nil || back != l {
			t.Errorf("%s: %q decodes to %+v, %v", lib.Lib, q, back, err)
		}
		if !strings.Contains(q, "export="+lib.Lib+"&") || !strings.HasPrefix(q, p.Encode()[:strings.Index(p.Encode(), "factor=")]) {
			t.Errorf("%s: not every key, sorted: %q", lib.Lib, q)
		}
	}
}

// Libraries, ExportOf and Exports agree: the panel's list of names is the one it renders, and one
// library alone renders as it does among all.
func TestExportOf(t *testing.T) {
	p, _ := Decode("base=200ms&attempts=7&jitter=equal&budget=3s")
	all := Exports(p)
	libs := Libraries()
	if len(all) != len(libs) {
		t.Fatalf("%d exports, %d libraries", len(all), len(libs))
	}
	for i, lib := range libs {
		e, ok := ExportOf(p, lib.Lib)
		if !ok || all[i].Lib != lib.Lib || e.Title != all[i].Title || e.Title == "" ||
			strings.Join(e.Diffs, "\n") != strings.Join(all[i].Diffs, "\n") || len(e.Snippets) != len(all[i].Snippets) {
			t.Errorf("%s: ExportOf %+v, Exports %+v", lib.Lib, e.Library, all[i].Library)
		}
	}
	if _, ok := ExportOf(p, "nope"); ok {
		t.Error("ExportOf knows a library called nope")
	}
}

// B, the policy to compare with, is its own query in vs: decoded from the defaults like A, a
// preset included; a bad key of B's, or one that is none of a policy's, is named vs.KEY and
// leaves A as it is; the vs key itself follows calc's rules for a key.
func TestDecodeLinkVs(t *testing.T) {
	aws, _ := Decode("preset=aws-go-v2")
	capped, _ := Decode("base=1s&cap=30s")
	envoy, _ := Decode("preset=envoy")
	// 200 attempts within a 10 s budget: 10000 samples of them are over A's sampling limit
	// (samples is refused), but B is never sampled, so B keeps them.
	heavy, _ := Decode("base=10ms&factor=1&budget=10s")
	heavy.Attempts = 200
	for _, tt := range []struct {
		name, query string
		vs          string      // Link.Vs
		b           calc.Params // Link.B
		base        string      // A's base
		errs        string      // the keys of the field errors, joined with ","
		msg         string
	}{
		{"none", "base=200ms", "", calc.Params{}, "200ms", "", ""},
		{"preset", "vs=preset%3Daws-go-v2", "preset=aws-go-v2", aws, "100ms", "", ""},
		{"keys", "base=200ms&vs=base%3D1s%26cap%3D30s", "base=1s&cap=30s", capped, "200ms", "", ""},
		{"B over A's sampling limit", "vs=base%3D10ms%26factor%3D1%26attempts%3D200%26budget%3D10s", "base=10ms&factor=1&attempts=200&budget=10s", heavy, "100ms", "", ""},
		{"bad key of B", "base=200ms&vs=base%3Dabc", "base=abc", calc.Default(), "200ms", "vs.base", `vs.base "abc": not a duration`},
		// B's cap is not compared with the default base that stands in for B's refused one.
		{"bad keys of both", "base=x&vs=base%3Dabc%26cap%3D1ms", "base=abc&cap=1ms", calc.Default(), "100ms", "base,vs.base", `vs.base "abc": not a duration`},
		{"bad keys of both, cap over its most", "base=x&vs=base%3Dabc%26cap%3D200h", "base=abc&cap=200h", calc.Default(), "100ms", "base,vs.base,vs.cap", `vs.cap "200h": must be at least base`},
		{"bad preset of B", "vs=preset%3Dnope", "preset=nope", calc.Default(), "100ms", "vs.preset", `vs.preset "nope": not one of the `},
		{"B's own broken encoding", "vs=base%3D%25zz", "base=%zz", calc.Default(), "100ms", "vs.base", "broken percent-encoding"},
		{"empty", "vs=", "", calc.Params{}, "100ms", "vs", `vs "": empty`},
		{"twice", "vs=base%3D1s&vs=base%3D2s", "", calc.Params{}, "100ms", "vs", "given 2 times"},
		{"broken", "vs=%zz&base=200ms", "", calc.Params{}, "200ms", "vs", "broken percent-encoding"},
		// B's query is a policy's: a vs (or an export key) inside it, or a typo, is none of its keys,
		// and each is named as B's, as calc.UnknownKeys names A's.
		{"nested", "vs=vs%3Dbase%253Dabc", "vs=base%3Dabc", calc.Default(), "100ms", "vs.vs", `calc: vs.vs "base=abc": unknown key`},
		{"typo", "vs=bse%3D1s%26preset%3Denvoy", "bse=1s&preset=envoy", envoy, "100ms", "vs.bse", `calc: vs.bse "1s": unknown key; did you mean base?`},
		{"two typos", "base=200ms&vs=bse%3D1s%26preset%3Denvoy%26atempts%3D3", "bse=1s&preset=envoy&atempts=3", envoy, "200ms", "vs.bse,vs.atempts",
			"calc: vs.bse \"1s\": unknown key; did you mean base?\ncalc: vs.atempts \"3\": unknown key; did you mean attempts?"},
		{"a typo and a bad value", "vs=base%3Dabc%26Cap%3D1s", "base=abc&Cap=1s", calc.Default(), "100ms", "vs.base,vs.Cap", `calc: vs.Cap "1s": unknown key; did you mean cap?`},
		{"a typo twice", "vs=export%3Dgrpc%26bse%3D1%26bse%3D2", "export=grpc&bse=1&bse=2", calc.Default(), "100ms", "vs.export,vs.bse",
			"calc: vs.export \"grpc\": unknown key\ncalc: vs.bse \"1,2\": unknown key; did you mean base?"},
		{"typos of A and B", "bse=2s&vs=bse%3D1s", "bse=1s", calc.Default(), "100ms", "vs.bse,bse",
			"calc: vs.bse \"1s\": unknown key; did you mean base?\ncalc: bse \"2s\": unknown key; did you mean base?"},
		{"script", "vs=<script>window.__pwned=1</script>", "<script>window.__pwned=1</script>", calc.Default(), "100ms", "vs.<script>window.__pwned",
			`calc: "vs.<script>window.__pwned" "1</script>": unknown key`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l, err := DecodeLink(tt.query)
			var keys []string
			for _, fe := range policy.FieldErrors(err) {
				keys = append(keys, fe.Key)
			}
			if l.Vs != tt.vs || l.B != tt.b || policy.FormatDuration(l.Params.Base) != tt.base {
				t.Errorf("DecodeLink(%q): vs %q, B %+v, A's base %v; want %q, %+v, %s", tt.query, l.Vs, l.B, l.Params.Base, tt.vs, tt.b, tt.base)
			}
			if strings.Join(keys, ",") != tt.errs || err != nil && !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("DecodeLink(%q): errors %v (%v); want [%s] with %q", tt.query, keys, err, tt.errs, tt.msg)
			}
			if strings.Contains(tt.query, "%zz") {
				return // a form's value has no percent-encoding to break
			}
			v, _ := url.ParseQuery(tt.query)
			lv, err := DecodeLinkValues(v)
			if lv != l || (err == nil) != (tt.errs == "") {
				t.Errorf("DecodeLinkValues(%q): %+v, %v; want %+v", tt.query, lv, err, l)
			}
		})
	}
}

// A link with B round-trips: B's query is written as given, percent-encoded.
func TestLinkEncodeVs(t *testing.T) {
	l, err := DecodeLink("base=200ms&vs=preset%3Daws-go-v2%26cap%3D30s")
	if err != nil {
		t.Fatal(err)
	}
	q := l.Encode()
	back, err := DecodeLink(q)
	if err != nil || back != l || !l.HasB() {
		t.Errorf("%q decodes to %+v, %v; want %+v", q, back, err, l)
	}
	if !strings.Contains(q, "&vs=preset%3Daws-go-v2%26cap%3D30s&") {
		t.Errorf("B is not written as given: %q", q)
	}
}
