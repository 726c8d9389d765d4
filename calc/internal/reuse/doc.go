// Package reuse keeps calc's buffers between runs: the simulations' and sampling's tens of
// megabytes cost more to collect and allocate again, in wasm, than the runs themselves.
package reuse
