//go:build !js

package main

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// whenNear never calls f outside wasm: there is no viewport. The component tests call what f
// would (a section's near) themselves.
func whenNear(ctx app.Context, id string, f func(app.Context)) {}

// skipFarSections has no browser to tell outside wasm.
func skipFarSections() {}

// pinFragment has no page to scroll outside wasm.
func pinFragment(string) {}

// watchView has no viewport outside wasm: f is never called.
func watchView(el app.Value, f func(in bool)) (stop func()) { return func() {} }
