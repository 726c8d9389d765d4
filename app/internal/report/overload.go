package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/breaker"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
	"backoffcalc/calc/sim"
)

// The overload runs in the report's formats: with an open system (calc.Params.Open)
// the report carries them in place of the closed herd's. The JSON field names are in docs/overload.md.

// OverloadModelWords says what the overload view models for p: the herd's crowd, with the
// stream of new requests beside it or without one, and the server's rules.
func OverloadModelWords(p calc.Params) string {
	crowd := fmt.Sprintf("The herd's crowd of %d %s (the clients input) retries through the outage", p.Clients, policy.Plural(p.Clients, "client", "clients"))
	if p.HasStream() {
		crowd += "; beside it, new requests keep arriving (the stream)"
	} else {
		crowd += "; no new requests arrive (no stream: rate or run is 0)"
	}
	return crowd + ". The server fails everything until the outage ends, then serves at most the capacity per window, first come first served, and queues up to the queue. Each client process asks its limiter before a retry."
}

// overloadIntro is the model in words, then which runs follow.
func overloadIntro(p calc.Params) string {
	if p.Breaker == breaker.None {
		return OverloadModelWords(p) + " Every mode with the chosen limiter, then the policy's mode with every other limiter:"
	}
	return OverloadModelWords(p) + " Every mode with the chosen limiter and breaker, then the policy's mode with every other limiter, then with every other breaker:"
}

// SimulationWords says which question the runs answer: who arrives (the herd's crowd, and the
// stream beside it), through which outage, at which server; beside the closed forms, which
// answer other questions, it labels the simulation's numbers. "Simulated: the herd's 100 clients
// and a stream of 80 new requests per second for 1 min, through a 1 s outage, then a server of
// 20 attempts per 100 ms window."
func SimulationWords(p calc.Params) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Simulated: the herd's %d %s", p.Clients, policy.Plural(p.Clients, "client", "clients"))
	if p.HasStream() {
		fmt.Fprintf(&b, " and a stream of %s new requests per second for %s", Short(p.Rate), policy.Human(float64(p.Run)))
	}
	if p.HasStream() {
		b.WriteString(",")
	}
	if p.Outage > 0 {
		fmt.Fprintf(&b, " through a %s outage, then", policy.Human(float64(p.Outage)))
	} else {
		b.WriteString(" with no outage, at")
	}
	if p.Capacity > 0 {
		fmt.Fprintf(&b, " a server of %d %s per %s window", p.Capacity, policy.Plural(p.Capacity, "attempt", "attempts"), policy.Human(float64(p.Window)))
	} else {
		b.WriteString(" a server with no capacity limit")
	}
	if p.FailRate > 0 {
		fmt.Fprintf(&b, " that fails each attempt with probability %s", Float(p.FailRate))
	}
	b.WriteString(".")
	return b.String()
}

// OverloadColumns are the side by side table's numbers: data-col, heading. The three from
// out_of_attempts are under the page's heading "gave up" (the page's overloadTable).
var OverloadColumns = [][2]string{
	{"requests", "requests"},
	{"succeeded", "succeeded"},
	{"out_of_attempts", "out of attempts"},
	{"refused", "refused by the limiter"},
	{"out_of_budget", "out of budget"},
	{"per_request", "attempts per request"},
	{"wasted_share", "wasted, of served"},
	{"recovered", "recovered at"},
}

// RecoveredWords are run r's recovery: its time for scripts ("" when it did not recover), the
// time or that it did not, for people ("idle" beside the time when nothing arrived after the
// outage), and whether the stream was running or had ended then ("" when it did not recover or
// there is no stream). The page's table shows the last two in columns of their own, to stay
// narrow. run is the stream's end (calc's StreamEnd: 0 without a stream); the time never reads
// across it, which the words state beside it.
func RecoveredWords(r sim.OverloadRun, run time.Duration) (value, at, when string) {
	if !r.Recovers() {
		return "", "not recovered", ""
	}
	at = policy.HumanBeside(float64(r.Recovered), run)
	if r.Idle {
		at += ", idle"
	}
	switch {
	case run == 0:
	case r.RecoveredInStream:
		when = "running"
	default:
		when = "ended"
	}
	return policy.Millis(r.Recovered), at, when
}

// OverloadCells are run's cells: its value for scripts (data-value) and its text for people.
// run is the stream's end, as RecoveredWords takes it.
func OverloadCells(r sim.OverloadRun, run time.Duration) [][2]string {
	value, at, when := RecoveredWords(r, run)
	recovered := [2]string{value, at}
	switch {
	case !r.Recovers():
		recovered[1] = at + " when the run ended"
	case when == "running":
		recovered[1] = at + " (while the stream ran)"
	case when == "ended":
		recovered[1] = at + " (after the stream ended)"
	}
	wasted := [2]string{Float(r.WastedShare()), policy.Percent(r.WastedShare())}
	if r.Served+r.Wasted == 0 {
		wasted[1] = "none served" // not "0%" of nothing
	}
	return [][2]string{
		countCell(r.Requests), countCell(r.Accepted), countCell(r.OutOfAttempts), countCell(r.Refused), countCell(r.OutOfBudget),
		{Float(r.MeanPerClient), policy.Decimal(r.MeanPerClient, 2)},
		wasted,
		recovered,
	}
}

// WindowSeries are the per-window numbers in calc's order (OverloadWindow.Counts): data-series,
// what the chart and the table call them.
var WindowSeries = [8][2]string{
	{"new", "new requests"},
	{"retries", "retries"},
	{"served", "served for a waiting client"},
	{"wasted", "served for nobody (wasted)"},
	{"failed", "failed at once"},
	{"timed_out", "timed out"},
	{"refused", "retries refused by the limiter"},
	{"queue", "queue at the window's end"},
}

// ErrorRateWords says what the policy alone makes of p's error rate (calc's ErrorRate), before
// the table of what each limiter bounds it to; "" without an error rate. Every number is calc's.
func ErrorRateWords(p calc.Params) string {
	if p.FailRate == 0 {
		return ""
	}
	e := sim.ErrorRateOf(p)
	stream := ""
	if p.HasStream() {
		stream = fmt.Sprintf(", %s per second at %s requests per second", Short(e.RetriesPerSecond), Short(p.Rate))
	}
	success := Short(e.Success)
	if e.Success < 1 && success == "1" {
		success = "over 0.9999" // 1 − 0.1⁶ is not certain
	}
	return fmt.Sprintf("Error rate, in closed form (from the inputs alone, not the simulation): outside the outage the server fails each attempt with probability %s. From the policy alone, a request of %d %s makes %s of them on average and succeeds with probability %s; the retries add %s attempts per request%s. In the long run, with no outage, no capacity limit and no timeout, each limiter's rule bounds the retries to:",
		Float(p.FailRate), p.Attempts, policy.Plural(p.Attempts, "attempt", "attempts"), Short(e.Attempts), success, Short(e.Retries), stream)
}

// ErrorRateColumns are the columns of the error rate's table: data-col, heading.
var ErrorRateColumns = [][2]string{
	{"limiter", "limiter"},
	{"bound", "most retries per request its rule allows"},
	{"retries_per_request", "retries per request"},
	{"attempts_per_request", "attempts per request"},
	{"attempts_per_second", "attempts per second"},
}

// ErrorRateCells are limiter b's cells of that table: its value for scripts and its text for
// people. A limiter whose rule puts no bound on the retries at this error rate has no bound
// value, and the policy's retries. Without a stream (stream false) nothing is per second: that
// cell says so.
func ErrorRateCells(b sim.ErrorBound, stream bool) [][2]string {
	bound := [2]string{"", "no bound"}
	if b.Bounded {
		bound = [2]string{Float(b.Bound), Short(b.Bound)}
	}
	num := func(x float64) [2]string { return [2]string{Float(x), Short(x)} }
	perSecond := num(b.AttemptsPerSecond)
	if !stream {
		perSecond[1] = "no stream"
	}
	return [][2]string{{b.Limiter.String(), b.Limiter.String()}, bound, num(b.Retries), num(b.Attempts), perSecond}
}

// ErrorRateCaption labels the error rate's table: its closed form answers another question than
// the simulation's runs beside it.
const ErrorRateCaption = "Closed form: the error rate alone, with no outage, no capacity limit and no timeout (from the inputs, not the simulation)"

// Short writes x with at most 4 significant digits, for people: 1.875, 0.07143, 87.5.
func Short(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }

// SourceWords says where limiter k's rule is read from; "" for none.
func SourceWords(k limiter.Kind) string {
	if k == limiter.None {
		return ""
	}
	return "Source: " + k.Source() + "."
}

// overloadTextColumns head the text table of runs, in the order of OverloadCells.
const overloadTextColumns = "mode\tlimiter\trequests\tsucceeded\tout of attempts\trefused\tout of budget\tattempts per request\twasted, of served\trecovered\t"

// writeOverloadText writes the runs for a terminal: the load in words, each limiter's bound and
// source, the runs side by side, then the policy's own run window by window.
func writeOverloadText(w io.Writer, p calc.Params, runs []sim.OverloadRun) error {
	fmt.Fprintf(w, "\nOverload: %s\n%s\nUnder total failure, each limiter's rule bounds that to:\n", overloadIntro(p), sim.FailingLoadWords(p))
	for _, k := range p.Shown() {
		fmt.Fprintln(w, "-", strings.TrimSpace(sim.LimiterBoundWords(p, k)+" "+SourceWords(k)))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	if words := ErrorRateWords(p); words != "" {
		fmt.Fprintln(w, words)
		fmt.Fprintln(tw, strings.Join(Heads(ErrorRateColumns), "\t")+"\t")
		for _, b := range sim.ErrorRateOf(p).Limiters {
			var cells []string
			for _, c := range ErrorRateCells(b, p.HasStream()) {
				cells = append(cells, c[1])
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
		}
		tw.Flush()
		fmt.Fprintln(w)
	}
	slow := p.Slow()
	if words := CollapseWords(p); words != "" {
		fmt.Fprintln(w, words)
		fmt.Fprintln(w)
	}
	brk := p.Breaker != breaker.None
	if brk {
		f := sim.BreakerFactsOf(p)
		fmt.Fprintln(w, BreakerIntro(f)+" "+BreakerSourceWords(f))
		fmt.Fprintln(w, f.Words)
		fmt.Fprintln(tw, strings.Join(Heads(BreakerFactsColumns), "\t")+"\t")
		var cells []string
		for _, c := range BreakerFactsCells(p, f) {
			cells = append(cells, c[1])
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
		tw.Flush()
		fmt.Fprintln(w)
	}
	head := overloadTextColumns
	if brk {
		head = strings.Replace(head, "limiter\t", "limiter\tbreaker\t", 1)
	}
	if slow {
		head += strings.Join(Heads(LatencyColumns), "\t") + "\t"
	}
	if brk {
		head += strings.Join(Heads(BreakerColumns), "\t") + "\t"
	}
	fmt.Fprintln(w, SimulationWords(p))
	fmt.Fprintln(tw, head)
	for _, r := range runs {
		cells := []string{r.Mode.String(), r.Limiter.String()}
		if brk {
			cells = append(cells, r.Breaker.String())
		}
		for _, c := range OverloadCells(r, p.StreamEnd()) {
			cells = append(cells, c[1])
		}
		if slow {
			for _, c := range LatencyCells(r) {
				cells = append(cells, c[1])
			}
		}
		if brk {
			for _, c := range BreakerCells(r) {
				cells = append(cells, c[1])
			}
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	tw.Flush()
	own := p.OwnCase()
	for _, r := range runs {
		if caseOf(r) != own {
			continue
		}
		fmt.Fprintf(w, "\n%s, per %s window:\n", CaseName(p, own), policy.Human(float64(p.Window)))
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		head := []string{"window from"}
		for _, s := range WindowSeries {
			head = append(head, s[1])
		}
		if slow {
			head = append(head, Heads(LatencySeries)...)
		}
		if brk {
			head = append(head, Heads(BreakerSeries)...)
		}
		fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
		labels := WindowLabels(p, len(r.Windows))
		for k, win := range r.Windows {
			line := labels[k]
			for _, n := range win.Counts() {
				line += "\t" + strconv.Itoa(n)
			}
			if slow {
				for _, c := range LatencyWindowCells(win) {
					line += "\t" + c[1]
				}
			}
			if brk {
				for _, n := range BreakerWindowCounts(win) {
					line += "\t" + strconv.Itoa(n)
				}
			}
			fmt.Fprintln(tw, line+"\t")
		}
		return tw.Flush()
	}
	return nil
}

// WindowLabels are the starts of the first n windows of p's overload run, in a column: each
// with the digits that tell it from its neighbours (policy.HumanList), "1.002 min" after "1 min".
func WindowLabels(p calc.Params, n int) []string {
	starts := make([]float64, n)
	for k := range starts {
		starts[k] = float64(p.WindowStart(k))
	}
	return policy.HumanList(starts)
}

type jsonOverload struct {
	Window    json.Number       `json:"window_ms"`
	Load      string            `json:"load_if_every_attempt_failed"`
	Offered   float64           `json:"offered_attempts_per_second"`
	Capacity  float64           `json:"capacity_per_second"`
	Limiters  []jsonLimiter     `json:"limiters"`
	ErrorRate *jsonErrorRate    `json:"error_rate,omitempty"` // with failrate only
	Collapse  *jsonCollapse     `json:"collapse,omitempty"`   // with latency or slope only
	Breaker   *jsonBreaker      `json:"breaker,omitempty"`    // with a breaker only
	Runs      []jsonOverloadRun `json:"runs"`
}

// jsonBreaker is calc's BreakerFacts: the answers about the link's breaker from its inputs alone.
type jsonBreaker struct {
	Breaker    string       `json:"breaker"`
	At         string       `json:"at"`
	Scope      string       `json:"scope"`
	Source     string       `json:"source"`
	Rule       string       `json:"rule"`
	FedPerCall int          `json:"fed_per_call"`
	OpenPeriod json.Number  `json:"open_period_ms"` // 0: no open state (sre)
	Schedule   json.Number  `json:"schedule_ms"`
	OpenLonger bool         `json:"open_longer"`
	MinCalls   int          `json:"min_calls"`
	MinWithin  json.Number  `json:"min_within_ms"` // 0: no limit
	PerBreaker float64      `json:"per_breaker"`
	Reach      *json.Number `json:"reach_ms"` // null: the stream never gives it min_calls
	Words      string       `json:"words"`
}

// jsonCollapse is calc's Collapse: the steady time in service without retries at the stream's
// rate, and the rates where it passes the timeout and where no steady state exists.
type jsonCollapse struct {
	Base      json.Number  `json:"base_ms"` // call + latency
	Slope     json.Number  `json:"slope_ms"`
	Timeout   json.Number  `json:"timeout_ms"`
	Rate      float64      `json:"rate"`
	Steady    *json.Number `json:"steady_ms"`                       // null: no steady state at this rate
	TimesOut  bool         `json:"times_out"`                       // the steady time is over the timeout, or there is none
	Threshold *float64     `json:"threshold_per_second"`            // null without a timeout or a slope
	Limit     *float64     `json:"no_steady_state_from_per_second"` // null without a slope
	Words     string       `json:"words"`
}

// jsonErrorRate is calc's ErrorRate.
type jsonErrorRate struct {
	FailRate         float64          `json:"failrate"`
	Attempts         float64          `json:"attempts_per_request"`
	Success          float64          `json:"success"`
	Retries          float64          `json:"retries_per_request"`
	RetriesPerSecond float64          `json:"retries_per_second"`
	Limiters         []jsonErrorBound `json:"limiters"`
}

type jsonErrorBound struct {
	Limiter           string   `json:"limiter"`
	Bound             *float64 `json:"bound"` // null: the rule puts no bound on the retries
	Retries           float64  `json:"retries_per_request"`
	Attempts          float64  `json:"attempts_per_request"`
	AttemptsPerSecond float64  `json:"attempts_per_second"`
}

type jsonLimiter struct {
	Limiter string `json:"limiter"`
	Bound   string `json:"under_total_failure"`
	Source  string `json:"source"`
}

type jsonOverloadRun struct {
	Jitter            string       `json:"jitter"` // the mode: immediate or a jitter mode
	Limiter           string       `json:"limiter"`
	Breaker           string       `json:"breaker,omitempty"` // with a breaker only, as each below
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
	Errors            *int         `json:"errors,omitempty"`         // with failrate only
	MaxInService      *int         `json:"max_in_service,omitempty"` // with latency or slope only
	MaxLatency        *json.Number `json:"max_latency_ms,omitempty"` // with latency or slope only
	Breakers          *int         `json:"breakers,omitempty"`
	Rejected          *int         `json:"rejected,omitempty"`
	Blocked           *int         `json:"blocked,omitempty"`
	Trips             *int         `json:"trips,omitempty"`
	Probes            *int         `json:"probes,omitempty"`
	MaxProbes         *int         `json:"max_probes,omitempty"`
	OpenTime          *json.Number `json:"open_time_ms,omitempty"`
	Peak              int          `json:"peak"`
	PeakAt            json.Number  `json:"peak_at_ms"`
	Recovered         *json.Number `json:"recovered_ms"`
	RecoveredInStream bool         `json:"recovered_in_stream"`
	Idle              bool         `json:"idle_after_outage,omitempty"` // nothing arrived after the outage: recovered at its end
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
	Errors   *int        `json:"errors,omitempty"` // with failrate only
	// With latency or slope only: the most attempts in service an attempt served in it found,
	// itself counted, and the mean time in service of those attempts.
	InService *int         `json:"in_service,omitempty"`
	Latency   *json.Number `json:"latency_ms,omitempty"`
	// With a breaker only: the attempts it rejected, the probes, and the breakers in each state
	// at the window's end.
	Rejected *int `json:"rejected,omitempty"`
	Probes   *int `json:"probes,omitempty"`
	Closed   *int `json:"closed,omitempty"`
	Open     *int `json:"open,omitempty"`
	HalfOpen *int `json:"half_open,omitempty"`
}

// overloadJSON is the runs for table -format json; nil without any.
func overloadJSON(p calc.Params, runs []sim.OverloadRun) *jsonOverload {
	if len(runs) == 0 {
		return nil
	}
	out := &jsonOverload{Window: ms(p.Window), Load: sim.FailingLoadWords(p)}
	out.Offered, out.Capacity = sim.FailingLoad(p)
	for _, k := range p.Shown() {
		out.Limiters = append(out.Limiters, jsonLimiter{k.String(), sim.LimiterBoundWords(p, k), k.Source()})
	}
	errs := p.FailRate > 0
	if errs {
		e := sim.ErrorRateOf(p)
		out.ErrorRate = &jsonErrorRate{FailRate: e.FailRate, Attempts: e.Attempts, Success: e.Success, Retries: e.Retries, RetriesPerSecond: e.RetriesPerSecond}
		for _, b := range e.Limiters {
			j := jsonErrorBound{Limiter: b.Limiter.String(), Retries: b.Retries, Attempts: b.Attempts, AttemptsPerSecond: b.AttemptsPerSecond}
			if b.Bounded {
				j.Bound = &b.Bound
			}
			out.ErrorRate.Limiters = append(out.ErrorRate.Limiters, j)
		}
	}
	count := func(n int) *int {
		if !errs {
			return nil
		}
		return &n
	}
	slow := p.Slow()
	if slow {
		c := p.Collapse()
		out.Collapse = &jsonCollapse{Base: ms(c.Base), Slope: ms(c.Slope), Timeout: ms(c.Timeout), Rate: c.Rate, TimesOut: c.TimesOut, Words: CollapseWords(p)}
		if c.Bounded {
			out.Collapse.Steady = msp(time.Duration(c.Steady * 1e9))
		}
		if c.HasThreshold {
			out.Collapse.Threshold = &c.Threshold
		}
		if c.Limit > 0 {
			out.Collapse.Limit = &c.Limit
		}
	}
	busy := func(n int) *int {
		if !slow {
			return nil
		}
		return &n
	}
	lat := func(d time.Duration) *json.Number {
		if !slow {
			return nil
		}
		return msp(d)
	}
	brk := p.Breaker != breaker.None
	if brk {
		f := sim.BreakerFactsOf(p)
		out.Breaker = &jsonBreaker{Breaker: f.Kind.String(), At: p.BreakerAt.String(), Scope: p.Breakers.String(), Source: f.Source, Rule: f.Rule,
			FedPerCall: f.FedPerCall, OpenPeriod: ms(f.OpenPeriod), Schedule: ms(f.Schedule), OpenLonger: f.OpenLonger, MinCalls: f.MinCalls,
			MinWithin: ms(f.MinWithin), PerBreaker: f.PerBreaker, Words: f.Words}
		if f.Reach >= 0 {
			out.Breaker.Reach = msp(f.Reach)
		}
	}
	breakers := func(n int) *int {
		if !brk {
			return nil
		}
		return &n
	}
	for _, r := range runs {
		j := jsonOverloadRun{Jitter: r.Mode.String(), Limiter: r.Limiter.String(), Requests: r.Requests, Stream: r.Stream,
			Succeeded: r.Accepted, OutOfAttempts: r.OutOfAttempts, Refused: r.Refused, OutOfBudget: r.OutOfBudget,
			Attempts: r.Attempts, PerRequest: r.MeanPerClient, MaxPerRequest: r.MaxPerClient, Served: r.Served,
			Wasted: r.Wasted, WastedShare: r.WastedShare(), Failed: r.Failed, TimedOut: r.TimedOut, Peak: r.Peak,
			PeakAt: ms(r.PeakAt), RecoveredInStream: r.RecoveredInStream, Idle: r.Idle, Windows: make([]jsonWindow, len(r.Windows))}
		if r.Recovers() {
			j.Recovered = msp(r.Recovered)
		}
		j.Errors = count(r.Errors)
		j.MaxInService, j.MaxLatency = busy(r.MaxInService), lat(r.MaxLatency)
		if brk {
			j.Breaker, j.OpenTime = r.Breaker.String(), msp(r.OpenTime)
		}
		j.Breakers, j.Rejected, j.Blocked, j.Trips = breakers(r.Breakers), breakers(r.Rejected), breakers(r.Blocked), breakers(r.Trips)
		j.Probes, j.MaxProbes = breakers(r.Probes), breakers(r.MaxProbes)
		for k, w := range r.Windows {
			j.Windows[k] = jsonWindow{ms(p.WindowStart(k)), w.New, w.Retries, w.Served, w.Wasted, w.Failed, w.TimedOut, w.Refused, w.Queue, count(w.Errors),
				busy(w.InService), lat(w.Latency), breakers(w.Rejected), breakers(w.Probes), breakers(w.Closed), breakers(w.Open), breakers(w.HalfOpen)}
		}
		out.Runs = append(out.Runs, j)
	}
	return out
}
