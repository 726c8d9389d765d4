//go:build !js

package main

// guardURL and guardNav act on the browser's address; natively there is none.
func guardURL() {}
func guardNav() {}
