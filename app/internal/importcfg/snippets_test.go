package importcfg

import (
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"backoffcalc/calc"
	"backoffcalc/calc/libs"
)

// snippetDir holds the Export panel's golden files (calc/libs TestSnippetGolden).
const snippetDir = "../../../calc/libs/testdata/snippets"

// codeRoundTrips are the libraries whose snippet is code that an import reads back, each with
// the language of that block, its export's first (TestEveryExportIsReadBack holds them, with
// roundTrips and notReadBack, to every library and language of the Export panel).
var codeRoundTrips = map[string]string{
	"cenkalti": "go", "client-go": "go", "tenacity": "python", "polly": "csharp", "resilience4j": "java",
}

// TestImportEveryCodeExport: every golden export whose snippet is Go code of cenkalti/backoff or
// client-go, Polly's C# or resilience4j's Java imports back to the export's Model: the same
// attempts, the same bounds and mean of every wait, and for cenkalti and Polly the same budget;
// tenacity's Python imports, and where the export says no difference, back to the policy itself.
func TestImportEveryCodeExport(t *testing.T) {
	n, read := 0, 0
	for _, lib := range slices.Sorted(maps.Keys(codeRoundTrips)) {
		files, _ := filepath.Glob(filepath.Join(snippetDir, "*."+lib+".golden"))
		if len(files) == 0 {
			t.Fatalf("no golden files of %s in %s", lib, snippetDir)
		}
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			header, body, _ := strings.Cut(string(b), "\n")
			lang, rest, _ := strings.Cut(body, "\n")
			if lang == "== differences" {
				continue // the library cannot express this policy
			}
			if lang != "== "+codeRoundTrips[lib] {
				t.Errorf("%s: its first block is %s, not %s (codeRoundTrips)", file, strings.TrimPrefix(lang, "== "), codeRoundTrips[lib])
				continue
			}
			code, diffs, _ := strings.Cut(rest, "== differences\n")
			code, _, _ = strings.Cut(code, "== properties\n")   // resilience4j's Java, whose properties are another format
			query := header[strings.LastIndex(header, ": ")+2:] // "# Title, for name: query"
			p, err := libs.Decode(query)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			e, _ := libs.ExportOf(p, lib)
			read++
			r, err := Read(code)
			if err != nil {
				t.Errorf("%s: %v", file, err)
				continue
			}
			got, err := libs.DecodeValues(r.Values)
			if err != nil {
				t.Errorf("%s: %v", file, err)
				continue
			}
			model, budget := e.Model, lib == "cenkalti" || lib == "polly"
			if lib == "tenacity" {
				// The export keeps no Model of tenacity: where it says no difference, the policy
				// is the model.
				if diffs != "" {
					continue
				}
				model, budget = p, true
			}
			if lib == "resilience4j" {
				// Its Model's interval is the millisecond one scaled for the jitter, rounded to the
				// nanosecond: within a millionth, as TestImportEveryExport compares the properties.
				if got.Attempts != model.Attempts || !closeWaits(got.Schedule(), model.Schedule()) {
					t.Errorf("%s: imported %+v, the export's Model %+v", file, got.Policy, model.Policy)
				}
			} else {
				sameModel(t, file, got, model, budget)
			}
			n++
		}
	}
	t.Logf("%d exports imported, %d of them compared with their model", read, n)
}

// sameModel fails unless got's schedule is model's: attempts, and each wait's bounds and mean
// to within a nanosecond per retry (the export rounds a scaled interval to whole nanoseconds).
func sameModel(t *testing.T, name string, got, model calc.Params, budget bool) {
	t.Helper()
	gs, ms := got.Schedule(), model.Schedule()
	if len(gs.Rows) != len(ms.Rows) {
		t.Errorf("%s: %d attempts, the export's Model %d", name, len(gs.Rows), len(ms.Rows))
		return
	}
	for i := range gs.Rows {
		g, m := gs.Rows[i], ms.Rows[i]
		tol := float64(i + 1)
		if math.Abs(float64(g.Min-m.Min)) > tol || math.Abs(float64(g.Max-m.Max)) > tol || math.Abs(g.Mean-m.Mean) > tol {
			t.Errorf("%s: attempt %d waits %v–%v (mean %v), the export's Model %v–%v (mean %v)", name, g.Attempt, g.Min, g.Max, g.Mean, m.Min, m.Max, m.Mean)
			return
		}
	}
	if budget && got.Budget != model.Budget {
		t.Errorf("%s: budget %v, the export's Model %v", name, got.Budget, model.Budget)
	}
}
