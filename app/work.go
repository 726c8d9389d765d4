package main

// How much work is done at once, where the result is wanted at once: by the server before it
// answers, and by an input handler before the new table shows. Work is counted in the steps
// calc takes (attempts × samples, clients × attempts); anything above a bound is done later,
// off the input path in slices, in the browser.
const (
	// samplePreRenderWork bounds the sampling (attempts × samples, for each of six modes) that the
	// server does before answering: 6 × 10 attempts × 10000 paths take a few milliseconds.
	samplePreRenderWork = 100000

	// herdPreRenderWork bounds the herds the server pre-renders (clients × attempts); bigger ones
	// are left to the browser, so that serve answers at once.
	herdPreRenderWork = 20000

	// sampleInHandlerWork bounds the sampling of the policy's own paths (attempts × samples) that an
	// input handler does before it shows the new table: the defaults' 6 × 10000 take about 3–4 ms in
	// wasm. Anything more is sampled after the table is painted.
	sampleInHandlerWork = 60000
)
