package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"backoffcalc/calc"
	"backoffcalc/calc/contention"
	"backoffcalc/calc/policy"
)

// The contention experiment in the table command: the table at contenders clients in
// every format, and the sweep over 10..200 clients in JSON. The field names are in docs/terminal.md.

// Contention is what the table command simulated of the experiment; Table is nil when it was
// not simulated.
type Contention struct {
	Params calc.Params
	Table  []contention.Result
	Sweep  []contention.Point
}

// contentionLine says what the table simulated.
func contentionLine(p calc.Params) string {
	return fmt.Sprintf("Contention (the AWS post's experiment): %s one row once under optimistic concurrency, hops of |Normal(10 ms, 2 ms)|; "+
		"the simulator's modes on base %s and cap %s; mean over %s. Calls are the writes; time is until the last client is through.",
		Count(p.Contenders, "client writes", "clients each write"), policy.Human(float64(p.Base)), policy.Human(float64(p.Cap)), Count(p.Runs, "run", "runs"))
}

// ContentionCols are the CSV's and Markdown's: calls per run and completion time.
var ContentionCols = [][2]string{{"mode", "mode"}, {"clients", "clients"}, {"runs", "runs"},
	{"calls_mean", "calls per run, mean"}, {"calls_sd", "calls sd"}, {"calls_min", "calls min"}, {"calls_p50", "calls p50"},
	{"calls_p90", "calls p90"}, {"calls_max", "calls max"},
	{"time_mean_ms", msHead("time until all are through, mean")}, {"time_sd_ms", msHead("time sd")}, {"time_min_ms", msHead("time min")},
	{"time_p50_ms", msHead("time p50")}, {"time_p90_ms", msHead("time p90")}, {"time_max_ms", msHead("time max")}}

func contentionCells(r contention.Result) []string {
	c, t := r.Calls, r.Time
	return []string{r.Mode.String(), strconv.Itoa(r.Clients), strconv.Itoa(r.Runs),
		millionths(c.Mean), millionths(c.SD), millionths(c.Min), millionths(c.P50), millionths(c.P90), millionths(c.Max),
		msMean(t.Mean), msMean(t.SD), msMean(t.Min), msMean(t.P50), msMean(t.P90), msMean(t.Max)}
}

// contentionTables is the table, when it was simulated.
func contentionTables(c Contention) []reportTable {
	if c.Table == nil {
		return nil
	}
	t := reportTable{words: []string{contentionLine(c.Params)}, cols: ContentionCols}
	for _, r := range c.Table {
		t.rows = append(t.rows, contentionCells(r))
	}
	return []reportTable{t}
}

func writeContentionText(w io.Writer, c Contention) error {
	if c.Table == nil {
		return nil
	}
	fmt.Fprintf(w, "\n%s\n", contentionLine(c.Params))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "mode\tcalls mean\tcalls p50\tcalls p90\tcalls max\ttime mean\ttime p50\ttime p90\ttime max\t")
	for _, r := range c.Table {
		k, t := r.Calls, r.Time
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Mode.Title(), policy.Decimal(k.Mean, 1),
			Float(k.P50), Float(k.P90), Float(k.Max), policy.Human(t.Mean), policy.Human(t.P50), policy.Human(t.P90), policy.Human(t.Max))
	}
	return tw.Flush()
}

// jsonSpread is a measure over the runs; in jsonContention, calls in writes, time in ms.
type jsonSpread struct {
	Mean json.Number `json:"mean"`
	SD   json.Number `json:"sd"`
	Min  json.Number `json:"min"`
	P50  json.Number `json:"p50"`
	P90  json.Number `json:"p90"`
	Max  json.Number `json:"max"`
}

type jsonContention struct {
	Mode    string     `json:"mode"`
	Title   string     `json:"title"`
	Clients int        `json:"clients"`
	Runs    int        `json:"runs"`
	Calls   jsonSpread `json:"calls"`
	Time    jsonSpread `json:"time_ms"`
}

type jsonSweepPoint struct {
	Clients int              `json:"clients"`
	Modes   []jsonContention `json:"modes"`
}

func spreadJSON(s contention.RunSpread, f func(float64) string) jsonSpread {
	n := func(x float64) json.Number { return json.Number(f(x)) }
	return jsonSpread{n(s.Mean), n(s.SD), n(s.Min), n(s.P50), n(s.P90), n(s.Max)}
}

func contentionJSON(rs []contention.Result) []jsonContention {
	var out []jsonContention
	for _, r := range rs {
		out = append(out, jsonContention{Mode: r.Mode.String(), Title: r.Mode.Title(), Clients: r.Clients, Runs: r.Runs,
			Calls: spreadJSON(r.Calls, Float), Time: spreadJSON(r.Time, policy.MillisFloat)})
	}
	return out
}

func sweepJSON(points []contention.Point) []jsonSweepPoint {
	var out []jsonSweepPoint
	for _, pt := range points {
		out = append(out, jsonSweepPoint{pt.Clients, contentionJSON(pt.Results)})
	}
	return out
}
