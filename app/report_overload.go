package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"backoffcalc/calc"
)

// The overload runs in the report's formats: with an open system (calc.Params.Open)
// the report carries them in place of the closed herd's. The JSON field names are in docs/overload.md.

// overloadTextColumns head the text table of runs, in the order of overloadCells.
const overloadTextColumns = "mode\tlimiter\trequests\tsucceeded\tout of attempts\trefused\tout of budget\tattempts per request\twasted share\trecovered\t"

// writeOverloadText writes the runs for a terminal: the load in words, each limiter's bound and
// source, the runs side by side, then the policy's own run window by window.
func writeOverloadText(w io.Writer, p calc.Params, runs []calc.OverloadRun) error {
	fmt.Fprintf(w, "\nOverload: %s\n%s\nUnder total failure, each limiter's rule bounds that to:\n", overloadIntro, p.FailingLoadWords())
	for _, k := range calc.Limiters() {
		fmt.Fprintln(w, "-", strings.TrimSpace(p.LimiterBoundWords(k)+" "+sourceWords(k)))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, overloadTextColumns)
	for _, r := range runs {
		cells := []string{r.Mode.String(), r.Limiter.String()}
		for _, c := range overloadCells(r, p.Run) {
			cells = append(cells, c[1])
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	tw.Flush()
	own := calc.OverloadCase{Mode: calc.Backoff(p.Jitter), Limiter: p.Limiter}
	for _, r := range runs {
		if r.Mode != own.Mode || r.Limiter != own.Limiter {
			continue
		}
		fmt.Fprintf(w, "\n%s with limiter %s, per %s window:\n", r.Mode, r.Limiter, calc.Human(float64(p.Window)))
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		head := []string{"window from"}
		for _, s := range windowSeries {
			head = append(head, s[1])
		}
		fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
		for k, win := range r.Windows {
			line := calc.Human(float64(p.WindowStart(k)))
			for _, n := range win.Counts() {
				line += "\t" + strconv.Itoa(n)
			}
			fmt.Fprintln(tw, line+"\t")
		}
		return tw.Flush()
	}
	return nil
}

type jsonOverload struct {
	Window   json.Number       `json:"window_ms"`
	Load     string            `json:"load_if_every_attempt_failed"`
	Offered  float64           `json:"offered_attempts_per_second"`
	Capacity float64           `json:"capacity_per_second"`
	Limiters []jsonLimiter     `json:"limiters"`
	Runs     []jsonOverloadRun `json:"runs"`
}

type jsonLimiter struct {
	Limiter string `json:"limiter"`
	Bound   string `json:"under_total_failure"`
	Source  string `json:"source"`
}

type jsonOverloadRun struct {
	Jitter            string       `json:"jitter"` // the mode: immediate or a jitter mode
	Limiter           string       `json:"limiter"`
	Requests          int          `json:"requests"`
	Stream            int          `json:"stream_requests"`
	Succeeded         int          `json:"succeeded"`
	OutOfAttempts     int          `json:"out_of_attempts"`
	Refused           int          `json:"refused"`
	OutOfBudget       int          `json:"out_of_budget"`
	Attempts          int          `json:"attempts"`
	PerRequest        float64      `json:"mean_attempts_per_request"`
	MaxPerRequest     int          `json:"max_attempts_per_request"`
	Served            int          `json:"served"`
	Wasted            int          `json:"wasted"`
	WastedShare       float64      `json:"wasted_share"`
	Failed            int          `json:"failed"`
	TimedOut          int          `json:"timed_out"`
	Peak              int          `json:"peak"`
	PeakAt            json.Number  `json:"peak_at_ms"`
	Recovered         *json.Number `json:"recovered_ms"`
	RecoveredInStream bool         `json:"recovered_in_stream"`
	Windows           []jsonWindow `json:"windows"`
}

// jsonWindow is one window of a run, from start_ms for the report's window_ms.
type jsonWindow struct {
	Start    json.Number `json:"start_ms"`
	New      int         `json:"new"`
	Retries  int         `json:"retries"`
	Served   int         `json:"served"`
	Wasted   int         `json:"wasted"`
	Failed   int         `json:"failed"`
	TimedOut int         `json:"timed_out"`
	Refused  int         `json:"refused"`
	Queue    int         `json:"queue"`
}

// overloadJSON is the runs for table -format json; nil without any.
func overloadJSON(p calc.Params, runs []calc.OverloadRun) *jsonOverload {
	if len(runs) == 0 {
		return nil
	}
	out := &jsonOverload{Window: ms(p.Window), Load: p.FailingLoadWords()}
	out.Offered, out.Capacity = p.FailingLoad()
	for _, k := range calc.Limiters() {
		out.Limiters = append(out.Limiters, jsonLimiter{k.String(), p.LimiterBoundWords(k), k.Source()})
	}
	for _, r := range runs {
		j := jsonOverloadRun{Jitter: r.Mode.String(), Limiter: r.Limiter.String(), Requests: r.Requests, Stream: r.Stream,
			Succeeded: r.Accepted, OutOfAttempts: r.OutOfAttempts, Refused: r.Refused, OutOfBudget: r.OutOfBudget,
			Attempts: r.Attempts, PerRequest: r.MeanPerClient, MaxPerRequest: r.MaxPerClient, Served: r.Served,
			Wasted: r.Wasted, WastedShare: r.WastedShare(), Failed: r.Failed, TimedOut: r.TimedOut, Peak: r.Peak,
			PeakAt: ms(r.PeakAt), RecoveredInStream: r.RecoveredInStream, Windows: make([]jsonWindow, len(r.Windows))}
		if r.Recovers() {
			j.Recovered = msp(r.Recovered)
		}
		for k, w := range r.Windows {
			j.Windows[k] = jsonWindow{ms(p.WindowStart(k)), w.New, w.Retries, w.Served, w.Wasted, w.Failed, w.TimedOut, w.Refused, w.Queue}
		}
		out.Runs = append(out.Runs, j)
	}
	return out
}
