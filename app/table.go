//go:build !js

package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"backoffcalc/calc"
	"backoffcalc/calc/libs"
)

// runTable prints the report for a query: `table [-format text|csv|md|json] QUERY`, where QUERY
// is a query string with or without '?', or a whole URL. Bad fields go to stderr, one a line,
// with exit code 2.
func runTable(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("table", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text, csv, md or json")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: backoffcalc table [-format text|csv|md|json] QUERY\n\nQUERY is a link's query, e.g. 'base=100ms&cap=1s&attempts=6&jitter=full', or a whole link.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	write := map[string]func(io.Writer, calc.Report, []calc.HerdRun) error{
		"text": writeText, "csv": writeCSV, "md": writeMarkdown, "json": writeJSON,
	}[*format]
	if write == nil || fs.NArg() > 1 {
		fs.Usage()
		return 2
	}
	// The link's export key too: the table shows no library, but a bad key is bad everywhere.
	link, err := libs.DecodeLink(queryOf(fs.Arg(0)))
	p := link.Params
	if err != nil {
		for _, fe := range calc.FieldErrors(err) {
			fmt.Fprintln(stderr, fe)
		}
		return 2
	}
	// As on the page, a herd past its limits leaves the schedule standing: it is said, not fatal.
	herd, err := p.Herd()
	if err != nil {
		for _, fe := range calc.FieldErrors(err) {
			fmt.Fprintln(stderr, "the herd is not simulated:", fe)
		}
	}
	r := p.Report()
	r.AddSolveSamples(nil) // the sampled fit to the budget: the page runs it after the paint
	if err := write(stdout, r, herd); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// queryOf takes the query out of a whole link, or a query with or without its '?'.
func queryOf(s string) string {
	if _, q, ok := strings.Cut(s, "?"); ok {
		s = q
	}
	q, _, _ := strings.Cut(s, "#")
	return q
}
