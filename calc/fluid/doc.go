// Package fluid computes a herd's expected counts from the distributions of its waits, not from
// its clients: what the per-client simulation (calc/sim's HerdMode) counts on average, at a
// cost that does not depend on the number of clients, so that a herd of 10^9 clients takes the
// time of one of 100.
//
// # The model
//
// Time is cut into cells, CellsPerWindow to a window (Params.Window), and a client's attempt is
// mass in a cell: the probability that one client makes that attempt there, taken as spread
// evenly over the cell. Attempt 1 is at 0 (a point) without a spread, or evenly over [0,
// Spread). Cells are swept in order of time, and within a cell the attempts in order of their
// number. In a cell the server fails the mass before Outage (the share of the cell before it);
// after it, each window accepts what reaches it, first come first served, until it has accepted
// Capacity/Clients of a client (Capacity 0: everything). Failed mass of attempt k goes on after
// the call and the wait of retry k, calc's own law of it (Params.WaitLaw): a fixed wait moves
// the cell's interval [t, t+cell) onto the one or two cells it overlaps; a wait even over a
// range spreads it as the exact sum of the two even laws (a trapezoid), whose whole cells are
// added as one run; a wait clamped at cap adds the clamped share at cap; whole steps (Envoy's
// milliseconds, Celery's and Sidekiq's seconds) move each step's share, up to QuantilePoints
// of them. A client ends as in
// the simulation: accepted, after Attempts attempts, or before an attempt whose start from its
// own first attempt is at or past the budget. With a spread the mass also carries which of
// StartGroups groups of starts it began in: the budget counts from the group's middle, and each
// group's deviation is its own.
//
// Decorrelated and decorrelatedv2 draw a wait from the previous one (Params.Wait's state): the
// mass also carries the state, in at most StateBins bins per retry. Decorrelated's wait from a
// state is even over [base, 3 × state] clamped to cap (Params.WaitLawFrom), and the wait is the
// next state: a cell's bins move together as the ranges where their summed density is constant,
// cut at the next state's bins (mixture), at most 2 × StateBins ranges a cell. Decorrelatedv2's
// waits are read through Params.Wait at ChainPoints draws u = (j+½)/n from each bin. Each mode
// carries the state, in at most StateBins bins per retry. The bins come from a pass
// over the states alone (they do not depend on the server): each retry's states, from every
// bin's representative and every draw, are cut into bins even in the state's fourth root (near a
// log scale, and exact everywhere, as math.Sqrt is), and a bin's representative is the mean of the states in it, weighted by their mass.
//
// Without capacity this is the exact expectation up to the grid: the cells (the mass's position
// within a cell is taken as even) and the draws' quadrature. With capacity it is a fluid model:
// a window of the simulation accepts exactly its first Capacity attempts, which are whole
// clients at random times, where the model accepts the first Capacity/Clients of the expected
// mass. The tests measure both against the simulation's mean over seeds; docs/herd.md gives the
// errors measured.
//
// The work is the mass moved: at most (cells) × (attempts − 1) × (state bins) × (parts of a
// wait) steps, counted as they are done and refused past MaxWork (a step is one part of one
// wait moved from one cell: a point, or a range whose cells are a run), and the cells held at
// once, (the longest call and wait in cells) × attempts × state bins × start groups, are
// bounded by MaxCells (a grid of 16 cells a window, or 8 or 4 where that would hold more).
// Neither depends on Clients. The defaults at 10^9 clients take 130,000 steps, nearly all
// of them decorrelated's; with 21 attempts, 16.5 million (3 s natively), its cells' failed
// mass moving through all its bins in each of 1,700 windows.
//
// fluid imports calc and calc/internal/... only.
package fluid
