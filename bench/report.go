//go:build !js

package main

// The results: one row per figure, printed as an aligned table and written as CSV.

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// row is one figure: the median of runs (or a single value), its unit and, where the issue sets
// one, the target.
type row struct {
	section string
	metric  string
	value   float64
	unit    string
	runs    []float64 // every run, for the spread; nil for a single value
	target  string    // e.g. "<= 60", "none"; empty when the issue sets none
	met     string    // "yes", "no" or ""
	note    string
}

type results struct {
	rows []row
}

func (r *results) add(x row) { r.rows = append(r.rows, x) }

// median of xs: the middle value, or the mean of the two middle ones.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// percentile by nearest rank: the smallest value with at least p% of the values at or below it.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	k := int(math.Ceil(p / 100 * float64(len(s))))
	return s[max(k, 1)-1]
}

// atMost says whether v meets a "<= limit" target.
func atMost(v, limit float64) string {
	if math.IsNaN(v) {
		return ""
	}
	if v <= limit {
		return "yes"
	}
	return "no"
}

func format(v float64, unit string) string {
	switch {
	case math.IsNaN(v):
		return "–"
	case unit == "bytes" || unit == "B/op" || unit == "allocs/op" || unit == "runs" || unit == "count":
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

func spread(r row) string {
	if len(r.runs) < 2 {
		return ""
	}
	return format(slices.Min(r.runs), r.unit) + "–" + format(slices.Max(r.runs), r.unit)
}

func runsText(r row) string {
	parts := make([]string, len(r.runs))
	for i, v := range r.runs {
		parts[i] = strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strings.Join(parts, " ")
}

// print writes the table, a section at a time.
func (r *results) print(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	section := ""
	for _, x := range r.rows {
		if x.section == "machine" {
			continue // printed at the top
		}
		if x.section != section {
			section = x.section
			fmt.Fprintf(tw, "\n== %s\t\t\t\t\t\t\t\n", section)
			fmt.Fprintf(tw, "metric\tvalue\tunit\tn\tmin–max\ttarget\tmet\tnote\n")
		}
		n := ""
		if len(x.runs) > 0 {
			n = strconv.Itoa(len(x.runs))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", x.metric, format(x.value, x.unit), x.unit, n, spread(x), x.target, x.met, x.note)
	}
	tw.Flush()
}

// writeCSV writes every row, with every run's value.
func (r *results) writeCSV(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.Write([]string{"section", "metric", "value", "unit", "n", "min", "max", "target", "met", "note", "runs"})
	for _, x := range r.rows {
		n, lo, hi := "", "", ""
		if len(x.runs) > 0 {
			n = strconv.Itoa(len(x.runs))
			lo = strconv.FormatFloat(slices.Min(x.runs), 'f', -1, 64)
			hi = strconv.FormatFloat(slices.Max(x.runs), 'f', -1, 64)
		}
		v := ""
		if !math.IsNaN(x.value) {
			v = strconv.FormatFloat(x.value, 'f', -1, 64)
		}
		w.Write([]string{x.section, x.metric, v, x.unit, n, lo, hi, x.target, x.met, x.note, runsText(x)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func below(v, limit float64) string {
	if math.IsNaN(v) {
		return ""
	}
	if v < limit {
		return "yes"
	}
	return "no"
}
