package importcfg

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"backoffcalc/calc/libs"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// golden is one export golden file of calc/libs: its policy's query, and each block.
type golden struct {
	file, lib, query string
	blocks           map[string]string // by language: json, yaml, ini, properties, …
}

func readGoldens(t testing.TB) []golden {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "calc", "libs", "testdata", "snippets", "*.golden"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	var out []golden
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		head, rest, _ := strings.Cut(text, "\n")
		_, query, _ := strings.Cut(head, ": ")
		if i := strings.LastIndex(head, ": "); i >= 0 {
			query = head[i+2:]
		}
		base := filepath.Base(f)
		name := strings.TrimSuffix(base, ".golden")
		g := golden{file: base, lib: name[strings.Index(name, ".")+1:], query: query, blocks: map[string]string{}}
		for _, block := range strings.Split("\n"+rest, "\n== ")[1:] {
			lang, code, _ := strings.Cut(block, "\n")
			if lang != "differences" {
				g.blocks[lang] = code + "\n"
			}
		}
		out = append(out, g)
	}
	return out
}

// roundTrips are the configuration blocks an import reads back, by library: the export's
// languages (TestEveryExportIsReadBack holds them, with codeRoundTrips and notReadBack, to every
// library and language of the Export panel).
var roundTrips = map[string][]string{
	"grpc":         {"json"},
	"envoy":        {"yaml"},
	"resilience4j": {"properties"},
	"aws-botocore": {"ini"}, "aws-botocore-2026": {"ini"}, "aws-go-v2": {"ini"}, "aws-go-v2-2026": {"ini"},
	"temporal":      {"go", "json"},
	"stepfunctions": {"json"},
}

// block is one language of one library's export: resilience4j's properties.
type block struct{ lib, lang string }

// notReadBack are the blocks of an export that no import reads, each with the reason: none now.
// An export's block in neither roundTrips, codeRoundTrips (the code the import reads) nor here
// fails TestEveryExportIsReadBack by its library and language.
var notReadBack = map[block]string{}

// Every block that a library of the Export panel writes (its golden files' languages) is read
// back by an import test (roundTrips, codeRoundTrips) or says in notReadBack why it is not, so
// that a new exporter, or a new language of one, cannot go unread unnoticed.
func TestEveryExportIsReadBack(t *testing.T) {
	files := map[block][]string{} // the blocks' code, each golden file's
	for _, g := range readGoldens(t) {
		for lang, code := range g.blocks {
			files[block{g.lib, lang}] = append(files[block{g.lib, lang}], code)
		}
	}
	read := map[block]string{}
	for lib, langs := range roundTrips {
		for _, lang := range langs {
			read[block{lib, lang}] = "roundTrips"
		}
	}
	for lib, lang := range codeRoundTrips {
		read[block{lib, lang}] = "codeRoundTrips"
	}
	langs := map[string][]string{}
	for b := range files {
		langs[b.lib] = append(langs[b.lib], b.lang)
	}
	for _, l := range libs.Libraries() {
		if len(langs[l.Lib]) == 0 {
			t.Errorf("%s: no golden file of its export has a block (go test ./calc/libs -run Snippet -update-snippets)", l.Lib)
		}
		slices.Sort(langs[l.Lib])
		for _, lang := range langs[l.Lib] {
			b := block{l.Lib, lang}
			by, isRead := read[b]
			why, isListed := notReadBack[b]
			switch {
			case isRead && isListed:
				t.Errorf("%s's %s: read back (%s) and in notReadBack", b.lib, b.lang, by)
			case isListed && why == "":
				t.Errorf("%s's %s: in notReadBack without a reason", b.lib, b.lang)
			case isListed && readsAll(files[b]):
				t.Errorf("%s's %s: in notReadBack, but the import reads all %d of its golden files: compare them in roundTrips or codeRoundTrips", b.lib, b.lang, len(files[b]))
			case !isRead && !isListed:
				t.Errorf("%s's %s (%d golden files): read back by no import test: add it to roundTrips (configuration) or codeRoundTrips (code), or to notReadBack with the reason", b.lib, b.lang, len(files[b]))
			}
		}
	}
	for b, by := range read {
		if len(files[b]) == 0 {
			t.Errorf("%s lists %s's %s, which no golden file has", by, b.lib, b.lang)
		}
	}
	for b := range notReadBack {
		if len(files[b]) == 0 {
			t.Errorf("notReadBack lists %s's %s, which no golden file has", b.lib, b.lang)
		}
	}
}

// readsAll says whether the import reads every one of codes.
func readsAll(codes []string) bool {
	for _, code := range codes {
		if _, err := Read(code); err != nil {
			return false
		}
	}
	return true
}

// Every export whose snippet is a configuration imports back to the export's Model: the same
// attempts, the same bounds and mean of every wait (within a millionth: where an exporter writes
// the jitter in its library's terms it rounds the base to the nanosecond), and the same deadline
// where the library has one.
func TestImportEveryExport(t *testing.T) {
	n := map[string]int{}
	for _, g := range readGoldens(t) {
		for _, lang := range roundTrips[g.lib] {
			code := g.blocks[lang]
			if code == "" {
				continue
			}
			n[g.lib]++
			p, err := libs.Decode(g.query)
			if err != nil {
				t.Fatalf("%s: %v", g.file, err)
			}
			e, _ := libs.ExportOf(p, g.lib)
			res, err := Read(code)
			if err != nil {
				t.Errorf("%s: %v\n%s", g.file, err, code)
				continue
			}
			got, err := libs.DecodeValues(res.Link(p.AllValues()))
			if err != nil {
				t.Errorf("%s: the import's link: %v", g.file, err)
				continue
			}
			want := e.Model
			if !strings.HasPrefix(g.lib, "grpc") && !strings.HasPrefix(g.lib, "envoy") {
				got.Budget, want.Budget = 0, 0 // the library has no deadline: the import sets none
			}
			if got.Attempts != want.Attempts || got.Budget != want.Budget || !closeWaits(got.Schedule(), want.Schedule()) {
				t.Errorf("%s (%s): imported %+v, the export's Model %+v\n%s", g.file, lang, got.Policy, want.Policy, code)
			}
			// gRPC's service config says its own limiter too (retryThrottling, or none), and
			// Envoy's route its attempt timeout and the cluster's retry budget: another library's
			// limiter, which the panel says they cannot write, is none.
			if own, ok := ownLimiters[g.lib]; ok && want.Limiter != own {
				want.Limiter = limiter.None
			}
			if _, ok := ownLimiters[g.lib]; ok && (got.Limiter != want.Limiter || want.Limiter != limiter.None && got.Limits != want.Limits) {
				t.Errorf("%s: imported limiter %v %+v, the export's Model %v %+v\n%s", g.file, got.Limiter, got.Limits, want.Limiter, want.Limits, code)
			}
			if g.lib == "envoy" && got.Timeout != want.Timeout {
				t.Errorf("%s: imported timeout %v, the export's Model %v\n%s", g.file, got.Timeout, want.Timeout, code)
			}
		}
	}
	for lib := range roundTrips {
		if n[lib] == 0 {
			t.Errorf("%s: no golden file was imported", lib)
		}
	}
	t.Logf("imported %v", n)
}

// ownLimiters are the limiters an export writes, by library.
var ownLimiters = map[string]limiter.Kind{"grpc": limiter.GRPC, "envoy": limiter.Envoy}

// closeWaits says whether every wait of a and b has the same bounds and mean within a millionth.
func closeWaits(a, b policy.Schedule) bool {
	if len(a.Rows) != len(b.Rows) {
		return false
	}
	near := func(x, y float64) bool { return math.Abs(x-y) <= math.Max(1, 1e-6*math.Abs(y)) }
	for i := 1; i < len(a.Rows); i++ {
		x, y := a.Rows[i], b.Rows[i]
		if !near(float64(x.Min), float64(y.Min)) || !near(float64(x.Max), float64(y.Max)) || !near(x.Mean, y.Mean) {
			return false
		}
	}
	return true
}

// Polly's export is C#, not configuration: its Config, written as appsettings.json's
// RetryStrategyOptions, imports back to the export's Model.
func TestImportEveryPollyExport(t *testing.T) {
	span := func(d time.Duration) string {
		ticks := int64(d / 100)
		return fmt.Sprintf("%d.%02d:%02d:%02d.%07d", ticks/864e9, ticks/36e9%24, ticks/6e8%60, ticks/1e7%60, ticks%1e7)
	}
	n := 0
	for _, g := range readGoldens(t) {
		if g.lib != "polly" {
			continue
		}
		p, err := libs.Decode(g.query)
		if err != nil {
			t.Fatal(err)
		}
		e, _ := libs.ExportOf(p, "polly")
		c, ok := e.Config.(libs.PollyRetry)
		if !ok || c.MaxRetryAttempts == 0 {
			// A single attempt is exported as a pipeline without AddRetry: Polly refuses
			// MaxRetryAttempts 0 ([Range(1, MaxRetryCount)]), and so does the import (dotnet_test.go).
			continue
		}
		n++
		text := fmt.Sprintf(`{"Retry": {"MaxRetryAttempts": %d, "Delay": %q, "BackoffType": %q, "UseJitter": %v`, c.MaxRetryAttempts, span(c.Delay), c.BackoffType, c.UseJitter)
		if c.MaxDelay > 0 {
			text += fmt.Sprintf(`, "MaxDelay": %q`, span(c.MaxDelay))
		}
		text += "}}"
		// The Retry section alone would be the standard handler's: read as RetryStrategyOptions.
		text = strings.Replace(text, `{"Retry": `, `{"Polly": `, 1)
		res, err := Read(text)
		if err != nil {
			t.Errorf("%s: %v\n%s", g.file, err, text)
			continue
		}
		got, err := libs.DecodeValues(res.Link(p.AllValues()))
		if err != nil {
			t.Fatal(err)
		}
		want := e.Model
		got.Budget, want.Budget = 0, 0 // AddTimeout is code, not these options
		if got.Attempts != want.Attempts || !closeWaits(got.Schedule(), want.Schedule()) {
			t.Errorf("%s: imported %+v, the export's Model %+v\n%s", g.file, got.Policy, want.Policy, text)
		}
	}
	if n == 0 {
		t.Fatal("no Polly export")
	}
}
