//go:build !js

package site

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Generate writes the static site for root into out. out is exactly the folder to upload:
// without a prefix its URLs assume it is served at the root of a host ("/"); with prefix NAME
// they assume "/NAME/", as for a GitHub Pages project site. out must be missing or empty, so no
// stale file ships. Inputs come from root as for Serve: web/ (app.wasm, app.css, icons) and
// wasm_exec.js. Beside each file that compresses well it writes NAME.br and NAME.gz (see
// precompress).
func Generate(root, out, prefix string) error {
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty", out)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	h, err := handler(root, prefix)
	if err != nil {
		return err
	}
	// go-app writes the pre-rendered index.html, app.js, app-worker.js,
	// app.css, the manifest, its own wasm_exec.js and an empty web/.
	if err := app.GenerateStaticWebsite(out, h); err != nil {
		return err
	}
	assets, err := webFiles(root)
	if err != nil {
		return err
	}
	for _, name := range append(assets, "wasm_exec.js") {
		if err := CopyFile(filepath.Join(out, name), filepath.Join(root, name)); err != nil {
			return err
		}
	}
	js, err := appJS(h)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "app.js"), js, 0o644); err != nil {
		return err
	}
	if err := fixIndex(filepath.Join(out, "index.html"), prefix); err != nil {
		return err
	}
	return precompress(out)
}

// precompress writes beside each file of out the copies that serve would send (see compress):
// NAME.br and NAME.gz, for the hosts that send such a file as it is to a browser that accepts
// its coding (docs/performance.md). It runs last, on the files as they ship.
func precompress(out string) error {
	var files []string
	err := filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		return err
	}
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		c := compress(b)
		for ext, body := range map[string][]byte{".br": c.br, ".gz": c.gz} {
			if body == nil {
				continue
			}
			if err := os.WriteFile(path+ext, body, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

const (
	charset = `<meta charset="UTF-8">`
	mainTag = `<main ` // the page's one <main>, #app; go-app prints attributes in map order
)

// fixIndex gives the static page what serve sends as headers, and fixes
// go-app's page as serve does (fixPage), which drops the og:url that names
// the generator's random local port. The CSP goes right
// after the charset, ahead of the scripts, because a <meta> policy covers
// only what comes after it; the path check (pathCheck) right after it, ahead
// of everything else the page loads.
func fixIndex(path, prefix string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !bytes.Contains(b, []byte(charset)) {
		return fmt.Errorf("%s: go-app's page changed: no charset", path)
	}
	if b, err = fixPage(b); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	meta := fmt.Sprintf("%s\n<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n"+
		"<meta name=\"referrer\" content=\"no-referrer\">\n%s\n<noscript><style>%s</style></noscript>",
		charset, StaticContentPolicy, pathCheck(prefix), noscriptStatic)
	b = bytes.Replace(b, []byte(charset), []byte(meta), 1)
	// With JavaScript off, web/noscript.css hides this page's numbers: they are the default
	// inputs', whatever the link.
	if bytes.Count(b, []byte(mainTag)) != 1 {
		return fmt.Errorf("%s: the page changed: not one %s", path, mainTag)
	}
	b = bytes.Replace(b, []byte(mainTag), []byte(mainTag+`data-site="static" `), 1)
	return os.WriteFile(path, b, 0o644)
}

// The static site's URLs assume one path for the page, "/" or "/NAME/" (Generate's prefix):
// every file it loads is looked for under it. Served anywhere else (built with PREFIX=sub and
// uploaded to /site/, or built without one and uploaded under a sub-path), none of them loads,
// or another copy's does: the page showed its pre-rendered numbers, the default inputs'
// whatever the link, unstyled, under "Loading the calculator…" forever and beside the note for
// JavaScript off. pathCheck is the one script that needs nothing else to load: inline in the
// head, allowed by its hash in the static CSP (StaticContentPolicy), it hides the whole page
// before anything is painted when the page is not at its path, and once the HTML is read
// replaces it with a message that names the path the site expects, where the page is, and
// how to fix it; it sets backoffcalcWrongPath, which keeps app.js from starting the wasm.
var (
	// PathCheckSource is the path check's script, the static page's one inline script.
	//go:embed js/pathcheck.js
	PathCheckSource string
	pathCheckHash   = sha256.Sum256([]byte(PathCheckSource))

	noscriptHash = sha256.Sum256([]byte(noscriptStatic))

	// StaticContentPolicy is ContentPolicy with the path check's inline script and the inline
	// rules for JavaScript off (noscriptStatic) allowed, each by its hash.
	StaticContentPolicy = strings.Replace(ContentPolicy, "script-src 'self'",
		"script-src 'self' "+hashSource(pathCheckHash), 1) + "; style-src 'self' " + hashSource(noscriptHash)
)

// noscriptStatic is what web/noscript.css does on the static page, inline: with JavaScript off
// nothing can check the path, and at a wrong one noscript.css does not load either, which left
// the default inputs' numbers readable whatever the link.
const noscriptStatic = `[data-site="static"] > :not(header):not(.noscript), #app-wasm-loader, .noscript-serve { display: none; } .noscript, .noscript-static { display: block; }`

// hashSource is a CSP source that allows the inline script or style whose SHA-256 is sum.
func hashSource(sum [sha256.Size]byte) string {
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// pathCheck is the inline script of the path check for a site generated with prefix.
func pathCheck(prefix string) string {
	want := "/"
	if prefix != "" {
		want = "/" + prefix + "/"
	}
	return `<script data-path="` + html.EscapeString(want) + `">` + PathCheckSource + `</script>`
}

// CopyFile copies src to dst, making dst's folder.
func CopyFile(dst, src string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}
