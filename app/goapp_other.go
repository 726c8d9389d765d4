//go:build !js

package main

// guardURL and guardNav act on the browser's address; natively there is none.
func guardURL() {}
func guardNav() {}

// keepTypedLink has no address to keep natively.
func (p *page) keepTypedLink() {}
