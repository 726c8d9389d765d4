//go:build !js

package main

// mark: see marks_js.go; natively there is nothing to mark.
func mark(string) {}
