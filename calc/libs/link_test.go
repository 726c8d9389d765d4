package libs

import (
	"net/url"
	"strings"
	"testing"

	"backoffcalc/calc"
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
	} {
		l, err := DecodeLink(tt.query)
		var keys []string
		for _, fe := range calc.FieldErrors(err) {
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

// Every library's name round-trips through the canonical link, which carries every key.
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
