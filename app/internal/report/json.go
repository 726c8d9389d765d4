package report

import (
	"encoding/json"
	"io"
	"time"

	"backoffcalc/calc"
	"backoffcalc/calc/policy"
)

// The report as JSON, for programs (table -format json); the field names are in docs/terminal.md.

type jsonAttempt struct {
	Attempt      int          `json:"attempt"`
	Retry        int          `json:"retry"`
	Nominal      json.Number  `json:"nominal_ms"`
	Min          json.Number  `json:"min_ms"`
	Mean         json.Number  `json:"mean_ms"`
	Max          json.Number  `json:"max_ms"`
	Earliest     json.Number  `json:"earliest_start_ms"`
	Latest       json.Number  `json:"latest_start_ms"`
	P50          *json.Number `json:"p50_start_ms"`
	P90          *json.Number `json:"p90_start_ms"`
	P99          *json.Number `json:"p99_start_ms"`
	ReachedShare float64      `json:"reached_share"`
	AtCapShare   float64      `json:"at_cap_share"`
	Budget       string       `json:"budget"`
}

// jsonTotal is a total wait. total_wait is the policy's: with a budget it ignores the budget
// and has no percentiles (the sampled paths follow the budget); total_wait_within_budget has
// them, with min_max_exact.
type jsonTotal struct {
	Min  json.Number  `json:"min_ms"`
	Mean json.Number  `json:"mean_ms"`
	Max  json.Number  `json:"max_ms"`
	P50  *json.Number `json:"p50_ms,omitempty"`
	P90  *json.Number `json:"p90_ms,omitempty"`
	P99  *json.Number `json:"p99_ms,omitempty"`
	// Exact is whether min_ms and max_ms are exact, within the budget only (the policy's are).
	Exact *bool `json:"min_max_exact,omitempty"`
}

type jsonBudget struct {
	Budget json.Number `json:"budget_ms"`
	Always int         `json:"always_start"`
	AtMost int         `json:"at_most_start"`
}

type jsonMode struct {
	Jitter    string     `json:"jitter"`
	TotalWait jsonTotal  `json:"total_wait"`
	Within    *jsonTotal `json:"total_wait_within_budget,omitempty"`
}

type jsonReport struct {
	Query      string        `json:"query"`
	Policy     string        `json:"policy"`
	Attempts   []jsonAttempt `json:"attempts"`
	TotalWait  jsonTotal     `json:"total_wait"`
	Within     *jsonTotal    `json:"total_wait_within_budget,omitempty"`
	ExceedsCap bool          `json:"wait_can_exceed_cap"`
	Budget     *jsonBudget   `json:"budget"`
	Samples    int           `json:"samples"`
	Seed       uint64        `json:"seed"`
	Modes      []jsonMode    `json:"modes"`
	Layers     struct {
		Layers int         `json:"layers"`
		Worst  json.Number `json:"worst_case_attempts"`
	} `json:"layers"`
	Herd []jsonHerd `json:"herd,omitempty"` // simulated, client by client
	// HerdExpected is the herd's expected counts (the fluid model) in place of herd, where the
	// simulation cannot run it; each mode names its model.
	HerdExpected []jsonFluid   `json:"herd_expected,omitempty"`
	Overload     *jsonOverload `json:"overload,omitempty"`
	// The contention experiment: the table at contenders clients, and the sweep over 10..200.
	Contention      []jsonContention `json:"contention,omitempty"`
	ContentionSweep []jsonSweepPoint `json:"contention_sweep,omitempty"`
	// FitBudget is what fits in the budget for each mode (solve.go); absent without one.
	FitBudget []jsonSolution `json:"fit_budget,omitempty"`
	// Compare is policy B beside this one, with a vs key (compare.go); absent without.
	Compare *jsonCompare `json:"compare,omitempty"`
}

type jsonHerd struct {
	Jitter        string       `json:"jitter"` // the mode: immediate or a jitter mode
	Attempts      int          `json:"attempts"`
	Accepted      int          `json:"accepted"`
	GaveUp        int          `json:"gave_up"`
	Peak          int          `json:"peak"`
	PeakAt        json.Number  `json:"peak_at_ms"`
	MeanPerClient float64      `json:"mean_attempts_per_client"`
	MaxPerClient  int          `json:"max_attempts_per_client"`
	LastAccepted  *json.Number `json:"last_accepted_ms"`
	Arrivals      []int        `json:"arrivals"`
	// The peaks once back and while down (sim.HerdRun.PeakBack, PeakDown); a time is null when
	// no attempt came on its side.
	PeakBack   int          `json:"peak_back"`
	PeakBackAt *json.Number `json:"peak_back_at_ms"`
	PeakDown   int          `json:"peak_down"`
	PeakDownAt *json.Number `json:"peak_down_at_ms"`
}

func ms(d time.Duration) json.Number { return json.Number(policy.Millis(d)) }

func msp(d time.Duration) *json.Number {
	n := ms(d)
	return &n
}

// total is the policy's total wait; without a budget, with the percentiles of the sampled paths.
func total(p calc.Params, t policy.Totals, q policy.Quantiles) jsonTotal {
	out := jsonTotal{Min: ms(t.Min), Mean: json.Number(policy.MillisFloat(t.Mean)), Max: ms(t.Max)}
	if p.Budget <= 0 {
		out.P50, out.P90, out.P99 = msp(q.P50), msp(q.P90), msp(q.P99)
	}
	return out
}

// within is the total wait within the budget, or nil without one.
func within(p calc.Params, w policy.WithinBudget, q policy.Quantiles) *jsonTotal {
	if p.Budget <= 0 {
		return nil
	}
	return &jsonTotal{Min: ms(w.Min), Mean: json.Number(policy.MillisFloat(w.Mean)), Max: ms(w.Max),
		P50: msp(q.P50), P90: msp(q.P90), P99: msp(q.P99), Exact: &w.Exact}
}

// WriteJSON writes res as one JSON document; B beside A is its "compare" field.
func WriteJSON(w io.Writer, res Results) error {
	out := reportJSON(res)
	if res.Cmp != nil {
		out.Compare = compareJSON(*res.Cmp)
	}
	return encodeJSON(w, out)
}

func reportJSON(res Results) jsonReport {
	r, herd, c, over := res.Report, res.Herd, res.Cont, res.Over
	p, s := r.Params, r.Schedule
	out := jsonReport{Query: res.Solve.Query(p), Policy: Describe(r), TotalWait: total(p, s.Total, r.Sample.Total),
		Within: within(p, r.Within, r.Sample.Total), ExceedsCap: s.ExceedsCap, Samples: r.Sample.Paths, Seed: p.Seed}
	for i, row := range s.Rows {
		a := jsonAttempt{Attempt: row.Attempt, Retry: row.Retry, Nominal: ms(row.Nominal), Min: ms(row.Min),
			Mean: json.Number(policy.MillisFloat(row.Mean)), Max: ms(row.Max), Earliest: ms(row.Earliest),
			Latest: ms(row.Latest), ReachedShare: reachedShare(r, i), AtCapShare: row.AtCap, Budget: row.Budget.String()}
		if st := r.Sample.Starts[i]; st.Reached > 0 {
			a.P50, a.P90, a.P99 = msp(st.Start.P50), msp(st.Start.P90), msp(st.Start.P99)
		}
		out.Attempts = append(out.Attempts, a)
	}
	if p.Budget > 0 {
		out.Budget = &jsonBudget{ms(p.Budget), s.Always, s.AtMost}
	}
	for _, m := range r.Modes {
		out.Modes = append(out.Modes, jsonMode{m.Jitter.String(), total(p, m.Total, m.Sample), within(p, m.Within, m.Sample)})
	}
	out.Layers.Layers, out.Layers.Worst = p.Layers, json.Number(r.WorstCaseAttempts.String())
	out.FitBudget = solutionsJSON(r)
	for _, h := range herd {
		j := jsonHerd{Jitter: h.Mode.String(), Attempts: h.Attempts, Accepted: h.Accepted, GaveUp: h.GaveUp,
			Peak: h.Peak, PeakAt: ms(h.PeakAt), MeanPerClient: h.MeanPerClient, MaxPerClient: h.MaxPerClient, Arrivals: h.Arrivals,
			PeakBack: h.PeakBack, PeakDown: h.PeakDown}
		if h.Accepted > 0 {
			j.LastAccepted = msp(h.LastAccepted)
		}
		if h.PeakBackAt >= 0 {
			j.PeakBackAt = msp(h.PeakBackAt)
		}
		if h.PeakDownAt >= 0 {
			j.PeakDownAt = msp(h.PeakDownAt)
		}
		out.Herd = append(out.Herd, j)
	}
	out.HerdExpected = fluidJSON(p, res.Fluid)
	out.Overload = overloadJSON(p, over)
	out.Contention, out.ContentionSweep = contentionJSON(c.Table), sweepJSON(c.Sweep)
	return out
}

func encodeJSON(w io.Writer, out jsonReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
