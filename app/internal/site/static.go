//go:build !js

package site

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

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
	if err := fixIndex(filepath.Join(out, "index.html")); err != nil {
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
// only what comes after it.
func fixIndex(path string) error {
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
		"<meta name=\"referrer\" content=\"no-referrer\">", charset, ContentPolicy)
	b = bytes.Replace(b, []byte(charset), []byte(meta), 1)
	// With JavaScript off, web/noscript.css hides this page's numbers: they are the default
	// inputs', whatever the link.
	if bytes.Count(b, []byte(mainTag)) != 1 {
		return fmt.Errorf("%s: the page changed: not one %s", path, mainTag)
	}
	b = bytes.Replace(b, []byte(mainTag), []byte(mainTag+`data-site="static" `), 1)
	return os.WriteFile(path, b, 0o644)
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
