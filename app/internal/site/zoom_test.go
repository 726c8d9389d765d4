//go:build !js

package site

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// viewportContent reads the content of a page's viewport meta, in either attribute order.
var viewportContent = regexp.MustCompile(`<meta (?:name="viewport" content="([^"]*)"|content="([^"]*)" name="viewport")>`)

// TestPageAllowsZoom checks the HTML that serve sends and the static site's index.html: one
// viewport meta that lets a reader pinch-zoom (WCAG 1.4.4; go-app's forbids it), and an alt on
// the loader's image.
func TestPageAllowsZoom(t *testing.T) {
	root := fakeRoot(t)
	h, err := NewServer(root)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/?base=250ms", nil))
	served, _ := io.ReadAll(rec.Body)
	out := filepath.Join(t.TempDir(), "site")
	if err := Generate(root, out, ""); err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{
		"serve":  string(served),
		"static": string(readFile(t, filepath.Join(out, "index.html"))),
	}
	for name, html := range pages {
		metas := viewportContent.FindAllStringSubmatch(html, -1)
		if len(metas) != 1 {
			t.Errorf("%s: %d viewport metas, want 1", name, len(metas))
			continue
		}
		content := metas[0][1] + metas[0][2]
		if !strings.Contains(content, "width=device-width") {
			t.Errorf("%s: viewport %q lacks width=device-width", name, content)
		}
		for _, bad := range []string{"maximum-scale", "user-scalable", "minimum-scale"} {
			if strings.Contains(content, bad) {
				t.Errorf("%s: viewport %q limits zoom (%s)", name, content, bad)
			}
		}
		if icon := loaderIcon.FindString(html); !strings.Contains(icon, `alt=""`) {
			t.Errorf("%s: loader image %q has no alt", name, icon)
		}
	}
}
