// Package eventq is the event machinery that calc's simulations, the herd and the overload run,
// share: a calendar queue of keys by window (Calendar), a radix sort of a window's keys (Sort),
// a min-heap of the events made for the window being run while it runs (PushLate, PopLate), and
// the sliding window that finds the most arrivals in any window (PeakWindow). A key is a uint64
// that the caller lays out so that its order is the order of its events; eventq only sorts and
// keeps them.
package eventq
