//go:build !js

package site

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// ContentPolicy is the page's Content-Security-Policy: a header in serve, a
// <meta> in the static site. go-app needs neither inline script nor eval:
// the page loads wasm_exec.js and app.js as files, and compiling app.wasm
// needs only 'wasm-unsafe-eval'. Inline style is refused too, and go-app's
// Style() sets a style attribute: style the page with classes in app.css.
const ContentPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
	"object-src 'none'; base-uri 'none'; form-action 'self'"

// handler returns the go-app handler of the page. root holds web/ (app.wasm,
// app.css, icons) and wasm_exec.js. prefix is "" when the page is served at
// "/", or NAME when it is served at "/NAME/"; it only changes the URLs that
// the page uses, so only static passes one.
func handler(root, prefix string) (*app.Handler, error) {
	assets, err := webFiles(root)
	if err != nil {
		return nil, err
	}
	version, err := contentVersion(root, assets)
	if err != nil {
		return nil, err
	}

	// Precache every file of web/ so the page works offline; go-app adds the
	// page, app.js, app.css, wasm_exec.js, the manifest, app.wasm and the PNG
	// icons itself. Under a prefix it precaches "/NAME", but the page is
	// "/NAME/".
	cacheable := make([]string, 0, len(assets)+1)
	for _, a := range assets {
		cacheable = append(cacheable, "/"+a)
	}
	urlPrefix := ""
	if prefix != "" {
		urlPrefix = "/" + prefix
		cacheable = append(cacheable, urlPrefix+"/")
	}

	return &app.Handler{
		Name:        "backoffcalc",
		ShortName:   "backoffcalc",
		Title:       "backoffcalc",
		Description: "A retry backoff calculator: the delays, total wait and spread of a retry schedule.",
		// Local icons: go-app's defaults live on another host, which the CSP
		// refuses and which keeps the service worker from installing offline.
		Icon: app.Icon{
			Default: "/web/icon-192.png",
			Large:   "/web/icon-512.png",
			SVG:     "/web/icon.svg",
		},
		// Our app.js writes the loader's text itself; this is what the HTML holds until then.
		LoadingLabel:       "Loading the calculator…",
		Styles:             []string{"/web/app.css"},
		CacheableResources: cacheable,
		Resources:          files{prefix: urlPrefix},
		Version:            version,
		// The version in the HTML too, so that a page's HTML can be matched with its app.js
		// (which hands the wasm the same version) after a deploy.
		RawHeaders: []string{
			`<meta name="backoffcalc-version" content="` + version + `">`,
			`<noscript><link rel="stylesheet" href="` + urlPrefix + `/web/noscript.css"></noscript>`,
		},
		ServiceWorkerTemplate: workerTemplate,
	}, nil
}

// webFiles lists the files under root/web as slash-separated paths relative
// to root ("web/app.css"), sorted, skipping dot files so that editor and OS
// droppings are neither cached nor shipped. app.wasm must be there.
func webFiles(root string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(root, "web", "app.wasm")); err != nil {
		return nil, fmt.Errorf("no app.wasm (build it with make): %w", err)
	}
	var names []string
	err := filepath.WalkDir(filepath.Join(root, "web"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			names = append(names, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(names)
	return names, err
}

// contentVersion hashes what browsers cache: the files served from root
// (web/ and wasm_exec.js) and this executable, which renders the page, app.js
// and the worker. The version names the service worker's cache, so it must
// change whenever any of them does, and only then: go-app's default, a hash
// of the start time, makes every restart or regeneration send every visitor
// the 19 MB app.wasm again. Builds are reproducible, so the same sources give
// the same version.
func contentVersion(root string, assets []string) (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	// Each file is hashed as it is read, not read whole first: the executable is 20 MB and
	// app.wasm 12 MB, garbage the process would keep (TestServeStartMemory).
	add := func(label, path string) error {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\x00", label, fi.Size())
		if n, err := io.Copy(h, f); err != nil || n != fi.Size() {
			return errors.Join(err, fmt.Errorf("%s changed while it was read", path))
		}
		return nil
	}
	for _, a := range assets {
		if err := add(a, filepath.Join(root, filepath.FromSlash(a))); err != nil {
			return "", err
		}
	}
	if err := add("wasm_exec.js", filepath.Join(root, "wasm_exec.js")); err != nil {
		return "", err
	}
	if err := add("executable", self); err != nil {
		return "", err
	}
	return fmt.Sprintf("%x", h.Sum(nil))[:20], nil
}
