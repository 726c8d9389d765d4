//go:build !js

package main

// What the native program does differently from go-app v9.8.0, each for a reason found by
// running it (see each comment, and shared/GOAPP-NOTES.md): our app.js and service worker, the
// og:url it leaks, and the resource provider. The browser's side is in goapp_js.go, a file of
// its own because it builds only for js.

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

// ogURL matches the og:url tag; go-app prints attributes in map order.
var ogURL = regexp.MustCompile(`<meta (property="og:url" content="[^"]*"|content="[^"]*" property="og:url")>\s*`)

// files is the go-app resource provider: it puts prefix in front of the
// page's URLs. It serves nothing: serve sends the site's files itself, from
// an allow-list (readSiteFiles), and static copies them. go-app's LocalDir
// would serve a whole folder, and uses one string as both the directory and
// the URL prefix; CustomProvider turns an absolute directory into a relative
// one.
type files struct {
	prefix string // "" or "/NAME"
}

func (f files) Package() string { return f.prefix }
func (f files) Static() string  { return f.prefix }
func (f files) AppWASM() string { return f.prefix + "/web/app.wasm" }
