//go:build !js

// Package wasmsize says where the bytes of one Go js/wasm program over another's go, package by
// package: Compare builds both again without -s, so that they carry the "name" custom section,
// reads every function's name there, and charges each function body of the code section to the
// Go package the name belongs to. The data section is split by what Go's linker lays out in
// memory (type descriptors and strings, the pclntab's tables, funcdata, variables); every other
// section is compared whole. The parts add up to the files, and their differences to the
// difference of the files, to the byte; each part's share of the gzip difference is estimated
// (see sizeDiffs). The bench's sizes phase compares app.wasm with an empty go-app page.
//
// The files: wasm.go reads the WebAssembly binary format, names.go maps function names to
// packages, layout.go splits the data section by Go's memory layout, account.go splits one file
// into parts, diff.go compares two accounts and shares out the gzip difference, compare.go
// builds the programs and puts it together, rows.go writes the result as rows of figures.
//
// It reads the files itself rather than through wabt's wasm-objdump: the accounting needs each
// part's bytes (to deflate them, and to read Go's memory image in the data section), and
// wasm-objdump prints sizes without the bodies' length prefixes and the data as a hex dump.
// See docs/performance.md.
package wasmsize
