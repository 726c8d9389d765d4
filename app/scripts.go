//go:build !js

package main

import (
	_ "embed"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The page's app.js and service worker are ours, not go-app's: see the opening comment of each.
// go-app's HTML loads them at /app.js and /app-worker.js, where serve and static put them.
var (
	//go:embed js/app.js
	appJSSource string
	//go:embed js/app-worker.js
	workerTemplate string
)

// goappEnv is the environment go-app's app.js hands the wasm (its version, static resources
// URL, root prefix and internal URLs), which the wasm reads at start through goappGetenv.
var goappEnv = regexp.MustCompile(`(?m)^const goappEnv = (\{.*\});$`)

// appJS returns our app.js for h, with go-app's environment for the wasm, the URL of app.wasm
// and of the worker.
func appJS(h *app.Handler) ([]byte, error) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/app.js", nil))
	env := goappEnv.FindSubmatch(rec.Body.Bytes())
	if rec.Code != http.StatusOK || env == nil {
		return nil, errors.New("go-app's app.js changed: cannot find the environment it gives the wasm")
	}
	quote := func(s string) string {
		b, _ := json.Marshal(s)
		return string(b)
	}
	prefix := h.Resources.Package()
	return []byte(strings.NewReplacer(
		"{{env}}", string(env[1]),
		"{{wasm}}", quote(h.Resources.AppWASM()),
		"{{worker}}", quote(prefix+"/app-worker.js"),
	).Replace(appJSSource)), nil
}
