//go:build !js

package main

// prewrite: see prewrite_js.go; natively there is no page to write into.
func prewrite() *page { return nil }
