//go:build !js

package main

// The network phase: cold loads over Chromium's emulated networks, ours (serve,
// which sends app.wasm in brotli) and the empty go-app page (sent precompressed the same way,
// and once as go-app's own Handler sends it): the time until the numbers are on screen and
// until the wasm is in charge, and the bytes that came over the wire.

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// netProfile is an emulated network: throughput in bytes per second, latency (the round trip
// Chromium adds to every request) in ms.
type netProfile struct {
	name            string
	down, up, rtt   float64
	withRawBaseline bool // also load the baseline as go-app sends it (7 MB: 36 s on the slow one)
}

var netProfiles = []netProfile{
	{"10 Mbit/s, 40 ms", 10e6 / 8, 1.5e6 / 8, 40, true},
	{"1.6 Mbit/s, 150 ms", 1.6e6 / 8, 0.75e6 / 8, 150, false},
}

func measureNetwork(cfg *config, res *results, base *baseline) error {
	if err := precompressBaseline(base); err != nil {
		return err
	}
	w, err := scheduleWant(cfg, sharedQuery)
	if err != nil {
		return err
	}
	type page struct {
		name  string
		start func() (*server, error)
		path  string
		want  want
		raw   bool
	}
	pages := []page{
		{"ours (serve)", func() (*server, error) { return startServe(cfg) }, "/?" + sharedQuery, w, false},
		{"baseline, precompressed", func() (*server, error) {
			return startCommand(base.dir, filepath.Join(base.dir, "baseline"), "-addr", "127.0.0.1:0", "-precompressed")
		}, "/", want{Kind: "baseline"}, false},
		{"baseline as go-app sends it", base.start, "/", want{Kind: "baseline"}, true},
	}
	for _, p := range netProfiles {
		sec := "cold over an emulated network, " + p.name + ": ms from navigation start"
		got := map[string][]*loadResult{}
		bytesOf := map[string][]float64{}
		for i := 0; i < cfg.netRuns; i++ {
			for _, pg := range pages {
				if pg.raw && !p.withRawBaseline {
					continue
				}
				r, n, err := loadOver(cfg, p, pg.start, pg.path, pg.want)
				if err != nil {
					fmt.Fprintln(os.Stderr, "bench:", pg.name, p.name, err)
					got[pg.name] = append(got[pg.name], nil)
					continue
				}
				got[pg.name] = append(got[pg.name], r)
				bytesOf[pg.name] = append(bytesOf[pg.name], n)
			}
		}
		for _, pg := range pages {
			l, ok := got[pg.name]
			if !ok {
				continue
			}
			add := func(metric, unit, note string, xs []float64) {
				res.add(row{section: sec, metric: pg.name + ": " + metric, value: median(xs), unit: unit, runs: xs, note: note})
			}
			{
				if pg.want.Kind == "schedule" {
					add("numbers on screen", "ms", "the server's pre-render", values(l, func(r *loadResult) float64 { return r.Shown }))
				} else {
					add("page on screen", "ms", "the server's pre-render", values(l, func(r *loadResult) float64 { return r.Shown }))
				}
			}
			add("wasm in charge", "ms", failed(l), values(l, func(r *loadResult) float64 { return r.Interactive }))
			add("app.wasm received", "ms", "", values(l, func(r *loadResult) float64 { return r.WasmEnd }))
			add("bytes transferred", "bytes", "sum of CDP encodedDataLength of the page's requests until the wasm is in charge (the service worker's own fetches are not counted)", bytesOf[pg.name])
		}
		ours, theirs := got[pages[0].name], got[pages[1].name]
		for _, m := range []struct {
			name string
			f    func(*loadResult) float64
		}{{"numbers (page) on screen", func(r *loadResult) float64 { return r.Shown }}, {"wasm in charge", func(r *loadResult) float64 { return r.Interactive }}} {
			ratio := median(values(ours, m.f)) / median(values(theirs, m.f))
			res.add(row{section: sec, metric: "ratio ours/baseline precompressed, " + m.name, value: ratio, unit: "×"})
		}
		res.add(row{section: sec, metric: "ratio ours/baseline precompressed, bytes", value: median(bytesOf[pages[0].name]) / median(bytesOf[pages[1].name]), unit: "×"})
	}
	return nil
}

// loadOver loads path cold in a fresh profile over the emulated network p, and returns what the
// page recorded and the bytes received for it.
func loadOver(cfg *config, p netProfile, start func() (*server, error), path string, w want) (*loadResult, float64, error) {
	waitQuiet(cfg)
	srv, err := start()
	if err != nil {
		return nil, 0, err
	}
	defer srv.stop()
	b, err := startWatching(cfg, w)
	if err != nil {
		return nil, 0, err
	}
	defer b.close()
	var mu sync.Mutex
	received := 0.0
	if err := chromedp.Listen(b.tab, func(ev any) {
		if e, ok := ev.(*network.EventLoadingFinished); ok {
			mu.Lock()
			received += e.EncodedDataLength
			mu.Unlock()
		}
	}); err != nil {
		return nil, 0, err
	}
	if _, err := chromedp.Call(b.tab, network.Enable, network.EnableParams{}); err != nil {
		return nil, 0, err
	}
	if _, err := chromedp.Call(b.tab, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Latency: p.rtt, DownloadThroughput: p.down, UploadThroughput: p.up}},
	}); err != nil {
		return nil, 0, fmt.Errorf("Network.emulateNetworkConditionsByRule: %w", err)
	}
	mu.Lock()
	received = 0
	mu.Unlock()
	r, err := loadWithin(b, srv.url+path, 150*time.Second)
	if err != nil {
		return nil, 0, err
	}
	mu.Lock()
	defer mu.Unlock()
	return &r, received, nil
}

// precompressBaseline writes the baseline's web/app.wasm.gz (gzip -9) and .br (brotli -q 11,
// a 16 MiB window: what backoffcalc's serve sends). Brotli takes about 25 s here: its copy is
// kept in the user's cache directory under the hash of what it compresses.
func precompressBaseline(base *baseline) error {
	raw, err := os.ReadFile(base.wasm)
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(raw)
	zw.Close()
	if err := os.WriteFile(base.wasm+".gz", gz.Bytes(), 0o644); err != nil {
		return err
	}
	sum := sha256.Sum256(raw)
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	cached := filepath.Join(dir, "backoffcalc-bench", hex.EncodeToString(sum[:])+".br")
	br, err := os.ReadFile(cached)
	if err != nil {
		var buf bytes.Buffer
		bw := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: 11, LGWin: 24})
		bw.Write(raw)
		bw.Close()
		br = buf.Bytes()
		if os.MkdirAll(filepath.Dir(cached), 0o755) == nil {
			os.WriteFile(cached, br, 0o644)
		}
	}
	return os.WriteFile(base.wasm+".br", br, 0o644)
}
