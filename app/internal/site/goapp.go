//go:build !js

package site

// What the native program does differently from go-app v9.8.0, each for a reason found by
// running it (see each comment, and shared/GOAPP-NOTES.md): our app.js and service worker, the
// og:url it leaks, and the resource provider. The browser's side is in the page's goapp_js.go.

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
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

// go-app's page disables pinch-zoom (maximum-scale=1, user-scalable=0 in its viewport meta), which
// WCAG 1.4.4 forbids and axe-core and Lighthouse report; and its loader's image has no alt, so a
// screen reader reads out the icon's file name. fixPage rewrites both, and drops the og:url.
var (
	viewportMeta = regexp.MustCompile(`<meta (name="viewport" content="[^"]*"|content="[^"]*" name="viewport")>`)
	loaderIcon   = regexp.MustCompile(`<img ([^>]*id="app-wasm-loader-icon"[^>]*)>`)
)

// zoomableViewport is go-app's viewport less what keeps a reader from zooming.
const zoomableViewport = `<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">`

// fixPage returns go-app's page HTML with the og:url dropped (see ogURL), a viewport that allows
// zoom and an empty alt on the loader's image, which only decorates the label next to it. It
// fails when go-app no longer writes one of them as expected, so that a new go-app cannot
// silently bring them back.
func fixPage(b []byte) ([]byte, error) {
	for _, re := range []*regexp.Regexp{ogURL, viewportMeta, loaderIcon} {
		if !re.Match(b) {
			return nil, fmt.Errorf("go-app's page changed: nothing matches %s", re)
		}
	}
	b = ogURL.ReplaceAll(b, nil)
	b = viewportMeta.ReplaceAll(b, []byte(zoomableViewport))
	return loaderIcon.ReplaceAll(b, []byte(`<img alt="" $1>`)), nil
}
