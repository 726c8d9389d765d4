package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	"backoffcalc/calc"
	"backoffcalc/calc/fluid"
	"backoffcalc/calc/policy"
)

// The herd's two models, as each figure names the one that made it.
const (
	ModelSimulated = "simulated"
	ModelFluid     = "expected, fluid model"
)

// SimulatedWords says that the herd's figures are the simulation's: one herd, client by client.
func SimulatedWords(p calc.Params) string {
	return fmt.Sprintf("Model: %s, client by client, each with its own seeded stream (seed %d): one herd's counts.", ModelSimulated, p.Seed)
}

// FluidWords says that the herd's figures are the fluid model's, why, what ± means and how far
// the model was measured to be from the simulation.
func FluidWords(p calc.Params) string {
	how := "without a capacity it is exact up to the model's grid (held within the simulation's standard error, every mode)"
	if p.Capacity > 0 {
		how = fmt.Sprintf("the capacity accepts the first %d of what reaches a window as a fluid, where the simulation accepts whole clients: "+
			"measured against the simulation's mean at 10^4 and 10^5 clients, every mode, within 0.3%% of the clients in a window and 0.16%% in accepted and gave up (docs/herd.md)", p.Capacity)
	}
	return fmt.Sprintf("Model: %s. %d clients × %d attempts is over what the simulation runs (%d clients, %d client-attempts): "+
		"each figure is the mean count over many herds, computed from the distributions of the waits; %s. "+
		"± is the standard deviation of one herd's count in that window.",
		ModelFluid, p.Clients, p.Attempts, calc.MaxClients, calc.MaxHerdWork, how)
}

// Expected writes an expected count to one decimal, rounded half away from zero as calc rounds.
func Expected(x float64) string {
	return strconv.FormatFloat(math.Round(x*10)/10, 'f', 1, 64)
}

// FluidPeakSD is the standard deviation of the window that holds a run's peak once back (0
// without one).
func FluidPeakSD(p calc.Params, r fluid.Run) float64 {
	if r.PeakBackAt < 0 {
		return 0
	}
	w := int(r.PeakBackAt / p.Window)
	if w < len(r.SD) {
		return r.SD[w]
	}
	return 0
}

// FluidCols are the fluid herd's columns, in the order of fluidCells.
var FluidCols = [][2]string{{"mode", "mode"}, {"attempts", "attempts received, expected"},
	{"accepted", "clients accepted, expected"}, {"gave_up", "clients that gave up, expected"},
	{"mean_per_client", "attempts per client, mean"}, {"max_per_client", "attempts per client, max (half a client or more)"},
	{"last_accepted_ms", msHead("last client through at, expected")},
	{"peak_back", "peak once back, attempts per window"}, {"peak_back_sd", "± one herd's deviation in that window"}, {"peak_back_at_ms", msHead("once back, at")},
	{"peak_down", "peak while down, attempts per window"}, {"peak_down_at_ms", msHead("while down, at")}, {"model", "model"}}

func fluidCells(p calc.Params, r fluid.Run) []string {
	last := ""
	if r.LastAccepted >= 0 {
		last = policy.Millis(r.LastAccepted)
	}
	return []string{r.Mode.String(), Expected(r.Attempts), Expected(r.Accepted), Expected(r.GaveUp),
		millionths(r.MeanPerClient), strconv.Itoa(r.MaxPerClient), last,
		Expected(r.PeakBack), Expected(FluidPeakSD(p, r)), peakAtMillis(r.PeakBackAt), Expected(r.PeakDown), peakAtMillis(r.PeakDownAt), ModelFluid}
}

// fluidTable is the fluid herd as a table for CSV and Markdown.
func fluidTable(p calc.Params, runs []fluid.Run) reportTable {
	t := reportTable{words: []string{herdLine(p), FluidWords(p), HerdPeakWords(p)}, cols: FluidCols}
	for _, r := range runs {
		t.rows = append(t.rows, fluidCells(p, r))
	}
	return t
}

// writeFluidText prints the fluid herd for a terminal.
func writeFluidText(w io.Writer, p calc.Params, runs []fluid.Run) error {
	fmt.Fprintf(w, "\n%s\n%s\n%s\n", herdLine(p), FluidWords(p), HerdPeakWords(p))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "mode\tpeak once back\t±\tonce back at\tpeak while down\twhile down at\tattempts\taccepted\tgave up\tper client mean\tlast through\t")
	for _, r := range runs {
		last := "none"
		if r.LastAccepted >= 0 {
			last = HerdTime(p, r.LastAccepted)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Mode, Expected(r.PeakBack), Expected(FluidPeakSD(p, r)),
			HerdPeakTime(p, r.PeakBackAt), Expected(r.PeakDown), HerdPeakTime(p, r.PeakDownAt), Expected(r.Attempts),
			Expected(r.Accepted), Expected(r.GaveUp), strconv.FormatFloat(r.MeanPerClient, 'f', 2, 64), last)
	}
	return tw.Flush()
}

// jsonFluid is a fluid herd's mode in JSON: the fields of jsonHerd that it has, as expected
// counts, with each window's deviation and the model that made them.
type jsonFluid struct {
	Jitter         string        `json:"jitter"`
	Model          string        `json:"model"`
	Attempts       json.Number   `json:"attempts"`
	Accepted       json.Number   `json:"accepted"`
	GaveUp         json.Number   `json:"gave_up"`
	MeanPerClient  float64       `json:"mean_attempts_per_client"`
	MaxPerClient   int           `json:"max_attempts_per_client"`
	LastAccepted   *json.Number  `json:"last_accepted_ms"`
	Arrivals       []json.Number `json:"arrivals"`
	ArrivalsSD     []json.Number `json:"arrivals_sd"`
	PeakBack       json.Number   `json:"peak_back"`
	PeakBackSD     json.Number   `json:"peak_back_sd"`
	PeakBackAt     *json.Number  `json:"peak_back_at_ms"`
	PeakDown       json.Number   `json:"peak_down"`
	PeakDownAt     *json.Number  `json:"peak_down_at_ms"`
	CellsPerWindow int           `json:"cells_per_window"`
}

func fluidJSON(p calc.Params, runs []fluid.Run) []jsonFluid {
	var out []jsonFluid
	num := func(x float64) json.Number { return json.Number(Expected(x)) }
	for _, r := range runs {
		j := jsonFluid{Jitter: r.Mode.String(), Model: ModelFluid, Attempts: num(r.Attempts), Accepted: num(r.Accepted),
			GaveUp: num(r.GaveUp), MeanPerClient: r.MeanPerClient, MaxPerClient: r.MaxPerClient, PeakBack: num(r.PeakBack),
			PeakBackSD: num(FluidPeakSD(p, r)), PeakDown: num(r.PeakDown), CellsPerWindow: r.CellsPerWindow,
			Arrivals: []json.Number{}, ArrivalsSD: []json.Number{}}
		for w := range r.Arrivals {
			j.Arrivals, j.ArrivalsSD = append(j.Arrivals, num(r.Arrivals[w])), append(j.ArrivalsSD, num(r.SD[w]))
		}
		if r.LastAccepted >= 0 {
			j.LastAccepted = msp(r.LastAccepted)
		}
		if r.PeakBackAt >= 0 {
			j.PeakBackAt = msp(r.PeakBackAt)
		}
		if r.PeakDownAt >= 0 {
			j.PeakDownAt = msp(r.PeakDownAt)
		}
		out = append(out, j)
	}
	return out
}
