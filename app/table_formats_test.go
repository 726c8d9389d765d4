//go:build !js

package main

import (
	"encoding/csv"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"backoffcalc/app/internal/report"
)

// tableQueries cover every table the text format can have: the fit to a budget, the herd, an
// open system's overload runs (with a breaker's facts), the contention experiment, a library's preset, layers, policy B.
var tableQueries = [][]string{
	{"budget=2s&jitter=full&base=500ms"},
	{"base=100ms"},
	{"rate=80&run=10s&queue=100&timeout=500ms&outage=2s&limiter=grpc"},
	{"rate=80&run=10s&queue=100&timeout=500ms&outage=2s&limiter=grpc&breaker=gobreaker"},
	{"-contention", "base=5ms&cap=2s&contenders=20&runs=3&budget=1s&layers=3"},
	{"preset=polly-exponential-jitter&budget=5s"},
	{"budget=2s&jitter=full&base=500ms&vs=preset%3Daws-go-v2"},
	{"-contention", "contenders=20&runs=3&rate=50&run=2s&vs=contenders%3D20%26runs%3D3%26jitter%3Dequal"},
	// Herds over the simulation's limits: their expected counts (the fluid model).
	{"clients=1000000&outage=2s&capacity=5000"},
	{"clients=1000000000&capacity=0"},
}

// textTables counts the text format's tables: runs of lines that start with a space (tabwriter
// pads the first column on the left); prose and list items start with a letter or "- ".
func textTables(text string) int {
	n, in := 0, false
	for _, line := range strings.Split(text, "\n") {
		row := strings.HasPrefix(line, " ")
		if row && !in {
			n++
		}
		in = row
	}
	return n
}

// csvTables are the CSV's tables, split at their empty lines: each its records, keys first.
func csvTables(t *testing.T, text string) [][][]string {
	var out [][][]string
	for _, block := range strings.Split(strings.TrimSuffix(text, "\n"), "\n\n") {
		r := csv.NewReader(strings.NewReader(block))
		r.FieldsPerRecord = -1
		records, err := r.ReadAll()
		if err != nil || len(records) == 0 {
			t.Fatalf("%v in %q", err, block)
		}
		out = append(out, records)
	}
	return out
}

// proseTable reports whether a CSV table is one that the text format says in sentences, not as
// a table: the summary (layers, budget), the limiters' bounds, and B's headlines.
func proseTable(keys []string) bool {
	return keys[0] == "layers" || keys[0] == "limiter" || keys[0] == "policy"
}

// Every table the text format has is in the CSV and in the Markdown, with the same columns; the
// Markdown heads them in words, the CSV with keys.
func TestEveryFormatHasEveryTable(t *testing.T) {
	for _, args := range tableQueries {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			out := map[string]string{}
			for _, f := range []string{"text", "csv", "md"} {
				s, errOut, code := runTableOut(t, append([]string{"-format", f}, args...)...)
				if code != 0 || errOut != "" {
					t.Fatalf("%s: exit %d, %s", f, code, errOut)
				}
				out[f] = s
			}
			tables := csvTables(t, out["csv"])
			inText := 0
			for _, tb := range tables {
				switch {
				case slices.Contains(tb[0], "a_earliest_start_ms"):
					inText += 2 // the comparison: the text writes its waits and its starts apart
				case !proseTable(tb[0]):
					inText++
				}
			}
			if n := textTables(out["text"]); n != inText {
				t.Errorf("the text has %d tables, the CSV %d of them (%d in all):\n%s\n---\n%s", n, inText, len(tables), out["text"], out["csv"])
			}
			lines := strings.Split(out["md"], "\n")
			var heads []string
			for i, l := range lines {
				if strings.HasPrefix(l, "| ---: |") && i > 0 {
					heads = append(heads, lines[i-1])
				}
			}
			if len(heads) != len(tables) {
				t.Fatalf("markdown has %d tables, the CSV %d:\n%s", len(heads), len(tables), out["md"])
			}
			for i, h := range heads {
				keys := tables[i][0]
				words := strings.Split(strings.Trim(h, "| "), " | ")
				if len(words) != len(keys) {
					t.Errorf("table %d: markdown heads %q, csv keys %q", i, words, keys)
				}
				for _, w := range words {
					if strings.Contains(w, "_") {
						t.Errorf("table %d: markdown head %q is a key, not words", i, w)
					}
				}
				for _, k := range keys {
					if strings.ContainsAny(k, " ()") {
						t.Errorf("table %d: csv key %q is words", i, k)
					}
				}
			}
		})
	}
}

// decimalsOf is a number cell's count of decimals, or -1 for a cell that is not a number.
var cellNumber = regexp.MustCompile(`^~?-?[0-9]+(\.[0-9]+)?$`)

func decimalsOf(cell string) int {
	if !cellNumber.MatchString(cell) {
		return -1
	}
	if _, frac, ok := strings.Cut(cell, "."); ok {
		return len(frac)
	}
	return 0
}

// One precision per column: every number in a CSV column has as many decimals as the others,
// and none has more than six (milliseconds to the nanosecond, shares and means to the
// millionth) but the fit's factors, exact float64 answers.
func TestCSVOnePrecisionPerColumn(t *testing.T) {
	for _, args := range tableQueries {
		csv, _, _ := runTableOut(t, append([]string{"-format", "csv"}, args...)...)
		for _, tb := range csvTables(t, csv) {
			keys := tb[0]
			seen := make([]int, len(keys))
			for j := range seen {
				seen[j] = -1
			}
			for _, line := range tb[1:] {
				for j, c := range line {
					d := decimalsOf(c)
					switch {
					case j >= len(keys) || d < 0:
					case seen[j] >= 0 && d != seen[j]:
						t.Errorf("%v: column %s has %d decimals in %q, %d above it", args, keys[j], d, line, seen[j])
						seen[j] = d
					case d > 6 && !strings.HasPrefix(keys[j], "factor_"):
						t.Errorf("%v: column %s has %d decimals in %q: more than the nanosecond, or the millionth", args, keys[j], d, line)
						seen[j] = d
					default:
						seen[j] = d
					}
				}
			}
		}
	}
}

// Markdown's note on the fit answers says what its cells hold, as the text's does: the answers
// rounded down to what still fits, not the exact values that only JSON has.
func TestMarkdownFitNoteSaysRounded(t *testing.T) {
	md, errOut, code := runTableOut(t, "-format", "md", "base=100ms&factor=2&cap=1s&jitter=none&budget=3.1s")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	if !strings.Contains(md, report.TypedWords) || strings.Contains(md, "Every path: exact;") {
		t.Errorf("the fit's note does not say the answers are rounded:\n%s", md)
	}
	if !strings.Contains(md, "| 157 |") && !strings.Contains(md, "| 157.0") {
		t.Errorf("no rounded base answer (157 ms) in:\n%s", md)
	}
}

// Every format names the model that made the herd's figures: the simulation's, or the fluid
// model's expected counts over the simulation's limits (text and Markdown in words above the
// table, CSV and Markdown in each row's model), and JSON each mode's. The simulated herd's JSON
// keeps its shape (herd is the simulation's, docs/herd.md), so that old links give the same
// document.
func TestTableSaysHerdModel(t *testing.T) {
	for _, c := range []struct {
		query, model, not string
	}{
		{"clients=1000", report.ModelSimulated, report.ModelFluid},
		{"clients=1000000&outage=2s&capacity=5000", report.ModelFluid, report.ModelSimulated},
	} {
		for _, f := range []string{"text", "csv", "md"} {
			out, errOut, code := runTableOut(t, "-format", f, c.query)
			if code != 0 || errOut != "" {
				t.Fatalf("%s %s: exit %d, %s", c.query, f, code, errOut)
			}
			if !strings.Contains(out, c.model) || strings.Contains(out, c.not) {
				t.Errorf("%s %s: want %q and not %q in:\n%s", c.query, f, c.model, c.not, out)
			}
		}
	}
	out, _, code := runTableOut(t, "-format", "json", "clients=1000000000&capacity=0")
	var doc struct {
		Herd     []json.RawMessage `json:"herd"`
		Expected []struct {
			Jitter, Model string
			Arrivals      []float64
			ArrivalsSD    []float64 `json:"arrivals_sd"`
			Attempts      float64
		} `json:"herd_expected"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 {
		t.Fatalf("exit %d, %v", code, err)
	}
	if len(doc.Herd) != 0 || len(doc.Expected) != 6 {
		t.Fatalf("%d simulated and %d expected modes, want 0 and 6", len(doc.Herd), len(doc.Expected))
	}
	for _, m := range doc.Expected {
		if m.Model != report.ModelFluid || len(m.Arrivals) == 0 || len(m.ArrivalsSD) != len(m.Arrivals) {
			t.Errorf("%s: model %q, %d windows, %d deviations", m.Jitter, m.Model, len(m.Arrivals), len(m.ArrivalsSD))
		}
	}
	// Without capacity or jitter every client fails at 0, 100, 300 and 700ms and is accepted at
	// 1.5s, past the 1s outage: 5 attempts each, all 10^9 in window 15.
	if none := doc.Expected[1]; none.Jitter != "none" || none.Attempts != 5e9 || none.Arrivals[15] != 1e9 {
		t.Errorf("no jitter: %s, %v attempts, %v in window 15; want 5e9 and 1e9", none.Jitter, none.Attempts, none.Arrivals[15])
	}
}
