//go:build !js

package main

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// wasmFetch is go-app's load of app.wasm: through a Response it builds itself, to show a
// progress label. Chromium keeps the compiled code of a wasm module only when it is compiled
// from the fetched response itself, so every load compiled app.wasm again (about a second
// here). appJS loads it with a plain fetch.
var wasmFetch = regexp.MustCompile(`fetchWithProgress\(("[^"]+"), showProgress\)`)

// appJS returns go-app's app.js for h with app.wasm loaded by a plain fetch.
func appJS(h *app.Handler) ([]byte, error) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/app.js", nil))
	js := rec.Body.Bytes()
	if rec.Code != http.StatusOK || len(wasmFetch.FindAll(js, -1)) != 1 {
		return nil, errors.New("go-app's app.js changed: cannot find how it fetches app.wasm")
	}
	return wasmFetch.ReplaceAll(js, []byte("fetch($1)")), nil
}
