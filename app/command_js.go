//go:build js

package main

import "io"

// runCommand exists so main compiles for the browser, where
// app.RunWhenOnBrowser never returns: the commands are native only.
func runCommand(args []string, stdout, stderr io.Writer) int {
	panic("backoffcalc: commands run only in the native binary")
}
