//go:build !js

package main

import (
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strings"

	"backoffcalc/app/internal/importcfg"
	"backoffcalc/app/internal/report"
	"backoffcalc/calc"
	"backoffcalc/calc/contention"
	"backoffcalc/calc/libs"
	"backoffcalc/calc/policy"
)

// runTable prints the report for a query: `table [-format text|csv|md|json] [-contention] [-sweep] [-import FILE|-] QUERY`,
// where QUERY is a query string with or without '?', or a whole URL. Bad fields go to stderr, one
// a line, with exit code 2. With a vs key, policy B follows, beside A (report.Compared). With
// -import, the policy is a configuration's (importcfg.Read), the query's other keys kept: what
// it read and ignored, and the link, go to stderr.
func runTable(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("table", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text, csv, md or json")
	// Off by default: the contention table is a hundred times the work of all the rest, and its
	// sweep seconds of it.
	withContention := fs.Bool("contention", false, "the contention experiment's table too (a tenth of a second of work at the defaults)")
	sweep := fs.Bool("sweep", false, "with -format json, the contention table and its sweep over 10..200 clients (seconds of work)")
	importFile := fs.String("import", "", "read the policy from a configuration `file` (- reads stdin): a gRPC service config, an Envoy route, ~/.aws/config, resilience4j's properties or YAML, Polly's options (docs/import.md)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: backoffcalc table [-format text|csv|md|json] [-contention] [-sweep] [-import FILE|-] QUERY\n\nQUERY is a link's query, e.g. 'base=100ms&cap=1s&attempts=6&jitter=full', or a whole link.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	write := map[string]func(io.Writer, report.Results) error{
		"text": report.WriteText, "csv": report.WriteCSV, "md": report.WriteMarkdown, "json": report.WriteJSON,
	}[*format]
	// Name what was wrong before the usage: a bare usage leaves the reader to guess.
	switch {
	case write == nil:
		fmt.Fprintf(stderr, "table: -format %q: must be text, csv, md or json\n", *format)
		return 2
	case fs.NArg() > 1 && strings.HasPrefix(fs.Arg(1), "-"):
		fmt.Fprintf(stderr, "table: %q after the query: flags go before it\n", fs.Arg(1))
		return 2
	case fs.NArg() > 1:
		fmt.Fprintf(stderr, "table: %d queries given (%s); give one, quoted: 'base=1s&jitter=full'\n", fs.NArg(), quotedArgs(fs.Args()))
		return 2
	}
	query, err := queryOf(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, "table:", err)
		return 2
	}
	if *importFile != "" {
		q, ok := importQuery(*importFile, query, stderr)
		if !ok {
			return 2
		}
		query = q
	}
	// The link's export key too: the table shows no library, but a bad key is bad everywhere.
	link, err := libs.DecodeLink(query)
	p := link.Params
	if err != nil {
		for _, fe := range policy.FieldErrors(err) {
			fmt.Fprintln(stderr, fe)
		}
		return 2
	}
	// As on the page, a herd past its limits leaves the schedule standing: it is said, not fatal.
	var h herdView
	h.runHerdNow(p)
	herd, over := h.runs, h.over
	notSimulated(stderr, "the", p, h.err)
	c, err := runContention(p, *withContention || *sweep, *sweep && *format == "json")
	if err != nil {
		fmt.Fprintln(stderr, "the contention experiment is not simulated:", err)
	}
	r := p.Report()
	r.AddSolveSamples(nil)              // the sampled fit to the budget: the page runs it after the paint
	solve, _ := calc.DecodeSolve(query) // its error was DecodeLink's
	res := report.Results{Report: r, Herd: herd, Fluid: h.fluid, Over: over, Cont: c, Solve: solve}
	if link.HasB() {
		// B beside A: its schedule's bounds and its herd's headline (B's errors were A's above).
		var hB herdView
		hB.runHerdNow(link.B)
		herdB, overB := hB.runs, hB.over
		notSimulated(stderr, "B's", link.B, hB.err)
		cmp := report.Compared{Comparison: calc.Compare(r, link.B.ReportBounds()), Vs: link.Vs,
			HerdA: report.OwnHerd(p, herd, over...), HerdB: report.OwnHerd(link.B, herdB, overB...)}
		// A herd over what the simulation runs: its fluid model's expected counts, as the page's.
		if own := report.OwnFluid(p, h.fluid); own != nil {
			cmp.HerdA, cmp.ExpectedA = own, true
		}
		if own := report.OwnFluid(link.B, hB.fluid); own != nil {
			cmp.HerdB, cmp.ExpectedB = own, true
		}
		if own := ownContention(p, c.Table); own != nil {
			// B's own mode only: its table of every mode is not compared.
			b := link.B
			if rs, err := contention.Run(b.Params, b.Contenders, b.Runs, contention.Policy(b.Jitter)); err == nil {
				cmp.ContA, cmp.ContB = own, &rs[0]
			} else {
				fmt.Fprintln(stderr, "B's contention experiment is not simulated:", err)
			}
		}
		res.Cmp = &cmp
	}
	if err := write(stdout, res); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// notSimulated says on stderr why whose ("the", "B's") herd, or overload view for an open system, is not
// simulated, if err says it is not.
func notSimulated(stderr io.Writer, whose string, p calc.Params, err error) {
	what := whose + " herd"
	if p.Open() {
		what = whose + " overload view"
	}
	for _, fe := range policy.FieldErrors(err) {
		fmt.Fprintln(stderr, what+" is not simulated:", fe)
	}
}

// tableStdin is what -import - reads.
var tableStdin io.Reader = os.Stdin

// importQuery is query with the policy of the configuration in file (- for stdin), as the page's
// Import control makes it (importcfg.Result.Query); it writes what it read and ignored, the
// defaults it applied that change the query's inputs, and the link, to stderr. ok is false,
// with the error written, when the file cannot be read.
func importQuery(file, query string, stderr io.Writer) (string, bool) {
	var in io.Reader = tableStdin
	name := "stdin"
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			fmt.Fprintf(stderr, "table: -import: %v\n", err)
			return "", false
		}
		defer f.Close()
		in, name = f, file
	}
	// One byte past the limit is enough for Read to refuse it, whatever the file's size.
	text, err := io.ReadAll(io.LimitReader(in, importcfg.MaxSize+1))
	if err != nil {
		fmt.Fprintf(stderr, "table: -import %s: %v\n", name, err)
		return "", false
	}
	res, err := importcfg.Read(string(text))
	if err != nil {
		fmt.Fprintf(stderr, "table: -import %s: %v\n", name, err)
		return "", false
	}
	current, err := url.ParseQuery(query)
	if err != nil {
		fmt.Fprintf(stderr, "table: the query: %v\n", err)
		return "", false
	}
	fmt.Fprintf(stderr, "import: %s read as %s\n", name, res.Format)
	for _, line := range res.Read {
		fmt.Fprintln(stderr, "read:", line)
	}
	for _, line := range res.Ignored {
		fmt.Fprintln(stderr, "ignored:", line)
	}
	for _, line := range res.Applied(current) {
		fmt.Fprintln(stderr, "default:", line)
	}
	q := res.Query(current)
	fmt.Fprintf(stderr, "link: ?%s\n", q)
	return q, true
}

// ownContention is the result of p's own mode in a contention table, or nil.
func ownContention(p calc.Params, table []contention.Result) *contention.Result {
	for i, r := range table {
		if r.Mode == contention.Policy(p.Jitter) {
			return &table[i]
		}
	}
	return nil
}

// runContention runs the contention table when asked, and its sweep too when asked.
func runContention(p calc.Params, table, sweep bool) (c report.Contention, err error) {
	c.Params = p
	if table {
		c.Table, err = contention.Run(p.Params, p.Contenders, p.Runs, contention.ModesOf(p.Params)...)
	}
	if err == nil && sweep {
		c.Sweep, _, err = contention.Sweep(p.Params, p.Runs, contention.ModesOf(p.Params), nil)
	}
	return c, err
}

// quotedArgs writes args quoted, each cut to a short length, joined by spaces.
func quotedArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if r := []rune(a); len(r) > 40 {
			a = string(r[:40]) + "…"
		}
		q[i] = fmt.Sprintf("%q", a)
	}
	return strings.Join(q, ", ")
}

// queryOf takes the query out of a whole link, or a query with or without its '?'. What comes
// before a '?' is a link's address only if it holds no key: in "base=1s&jitter=full?" the '?' is
// part of the query, which reports jitter "full?" as the page does, where cutting at it printed
// the defaults. A fragment names a section and is dropped, unless it holds inputs ("#base=1s",
// a key of the link's), which the link does not read either: that is said, rather than the
// defaults printed.
func queryOf(s string) (string, error) {
	if before, q, ok := strings.Cut(s, "?"); ok && !strings.ContainsAny(before, "=&") {
		s = q
	}
	q, fragment, _ := strings.Cut(s, "#")
	if inputs, err := url.ParseQuery(fragment); err == nil {
		for key := range inputs {
			if key == "preset" || key == libs.ExportKey || key == libs.VsKey || slices.Contains(calc.Keys(), key) {
				return "", fmt.Errorf("%q: the inputs after '#' are not read (a link's fragment names a section of the page); put them in the query, before the '#'", "#"+fragment)
			}
		}
	}
	return q, nil
}
