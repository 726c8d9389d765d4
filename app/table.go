//go:build !js

package main

import "io"

// runTable prints the schedule for a query; it returns the process exit code.
func runTable(args []string, stdout, stderr io.Writer) int {
	return 2 // placeholder until the calc core lands
}
