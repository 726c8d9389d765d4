package contention

// Inputs are the experiment's inputs in a link (calc.Params embeds them): how many clients race
// and how many runs the means are over.
type Inputs struct {
	Contenders int // clients racing to write one row; 1..MaxContenders; zero is invalid
	Runs       int // repetitions the means are over; 1..MaxRuns; zero is invalid
}

// The experiment's limits. A client fails at most once per other client's success, so a run
// makes at most n² writes: with these limits a run is at most 250000 writes, and a client's time
// at most 499 of the longest waits (under 2^60 ns, so times never overflow).
const (
	MaxContenders     = 500
	MaxRuns           = 1000
	DefaultContenders = 100
	DefaultRuns       = 100
)

// Key is one query key of the experiment's inputs as calc's key table reads it: its name, the
// field of Inputs it sets and its range [Lo, Hi], which calc words as it words every key's. A
// link leaves the keys out at their defaults (it cannot say it asked for the section), and calc
// draws its rows from Keys, in their order, so that the experiment's keys are its package's.
type Key struct {
	Name   string
	Int    func(*Inputs) *int
	Lo, Hi int
}

// Keys returns the experiment's keys, in the form's order.
func Keys() []Key {
	return []Key{
		{Name: "contenders", Int: func(in *Inputs) *int { return &in.Contenders }, Lo: 1, Hi: MaxContenders},
		{Name: "runs", Int: func(in *Inputs) *int { return &in.Runs }, Lo: 1, Hi: MaxRuns},
	}
}
