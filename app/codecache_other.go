//go:build !js

package main

// codeCacheDue: natively there is no V8 to cache code for.
func codeCacheDue() bool { return false }

func codeCacheWarmed() {}
