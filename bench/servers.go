//go:build !js

package main

// The three ways the bench serves a page, each on 127.0.0.1 and a free port: the real `serve`
// command, the static site under a plain file server, and the go-app baseline's own server.

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"backoffcalc/internal/served"
)

// server is a running server; stop it to go offline.
type server struct {
	url  string // http://127.0.0.1:PORT, no trailing slash
	stop func()
}

// startCommand runs a program that prints "serving http://ADDR/" once it listens.
func startCommand(dir, name string, args ...string) (*server, error) {
	url, stop, err := served.Start(dir, name, args...)
	if err != nil {
		return nil, err
	}
	return &server{url: url, stop: stop}, nil
}

// startServe runs `backoffcalc serve` for the repository root.
func startServe(cfg *config) (*server, error) {
	return startCommand(".", cfg.bin, "serve", "-addr", "127.0.0.1:0", "-root", ".")
}

// startFiles serves dir with a plain file server, as a static host would.
func startFiles(dir string) (*server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(dir)), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return &server{url: "http://" + ln.Addr().String(), stop: func() { srv.Close() }}, nil
}

// startPlain serves a page of plain HTML that the "baseline" want accepts at once, as it would
// the wasm's render: the floor of any page load.
func startPlain() (*server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>plain</title>`+
			`<link rel="icon" href="data:,"></head><body><main id="app" data-render="wasm"><h1>plain</h1></main></body></html>`)
	})}
	go srv.Serve(ln)
	return &server{url: "http://" + ln.Addr().String(), stop: func() { srv.Close() }}, nil
}

// buildStatic writes the static site with `backoffcalc static -out DIR`.
func buildStatic(cfg *config, dir string) error {
	cmd := exec.Command(cfg.bin, "static", "-out", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s static -out %s: %v\n%s", cfg.bin, dir, err, out)
	}
	return nil
}

// baseline is the go-app baseline, built into dir: dir/web/app.wasm as app.wasm is built (and
// dir/web/app-singlefile.wasm with its server compiled in), and dir/baseline, its server.
type baseline struct {
	dir            string
	wasm, wasmFull string
}

func buildBaseline(cfg *config, dir string) (*baseline, error) {
	b := &baseline{dir: dir, wasm: filepath.Join(dir, "web", "app.wasm"), wasmFull: filepath.Join(dir, "app-singlefile.wasm")}
	wasmEnv := append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	for _, c := range []struct {
		env  []string
		args []string
	}{
		{wasmEnv, []string{"build", "-trimpath", "-ldflags=-s -w", "-o", b.wasm, "./bench/baseline"}},
		{wasmEnv, []string{"build", "-tags", "singlefile", "-trimpath", "-ldflags=-s -w", "-o", b.wasmFull, "./bench/baseline"}},
		{os.Environ(), []string{"build", "-trimpath", "-o", filepath.Join(dir, "baseline"), "./bench/baseline"}},
	} {
		cmd := exec.Command(cfg.goCmd, c.args...)
		cmd.Env = c.env
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go %s: %v\n%s", strings.Join(c.args, " "), err, out)
		}
	}
	// Local icons, so that the baseline page requests nothing from another host.
	for dst, src := range map[string]string{"icon.png": "icon-192.png", "icon.svg": "icon.svg"} {
		if err := copyFile(filepath.Join(dir, "web", dst), filepath.Join("web", src)); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func (b *baseline) start() (*server, error) {
	return startCommand(b.dir, filepath.Join(b.dir, "baseline"), "-addr", "127.0.0.1:0")
}

func copyFile(dst, src string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

func fileSize(path string) (int64, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// wireEncoding fetches url as a browser would (Accept-Encoding: gzip, deflate, br) and returns
// the response's Content-Encoding and the bytes that came over the wire.
func wireEncoding(url string) (string, int64, error) {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return "", 0, err
	}
	req.Header.Set("Accept-Encoding", "gzip, deflate, br")
	// A transport of our own, so that Go neither asks for gzip itself nor decodes the body.
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		return "", 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", 0, errors.New(resp.Status)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	return resp.Header.Get("Content-Encoding"), n, err
}
