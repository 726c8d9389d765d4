//go:build js && !singlefile

package main

// serve is never reached in the browser: RunWhenOnBrowser does not return there.
func serve() {}
