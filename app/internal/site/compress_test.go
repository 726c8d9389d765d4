//go:build !js

package site

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

// TestBrotliCache checks that the brotli copy of a large input is kept in the user's cache
// directory under the hash of what it compresses, read from there by a later start, compressed
// again when the file there does not decode to the input, and that the directory keeps only
// the most recently used copies. A small input's copy stays in memory.
func TestBrotliCache(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir()) // os.UserCacheDir on macOS
	forget := func() {
		brotliCache.Lock()
		clear(brotliCache.mem)
		brotliCache.Unlock()
	}
	t.Cleanup(forget)
	forget()
	body := bytes.Repeat([]byte("the cache test's own bytes "), brotliOnDisk/20)
	file := brotliCacheFile(keyOf(body))
	if file == "" {
		t.Fatal("no cache directory")
	}
	// Older copies, one more than the cache keeps: the oldest goes when the new one comes.
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	var old []string
	for i := range brotliKeep {
		f := filepath.Join(filepath.Dir(file), fmt.Sprintf("old-%d.br", i))
		when := time.Now().Add(-time.Duration(i+1) * time.Hour)
		if err := os.WriteFile(f, nil, 0o644); err != nil || os.Chtimes(f, when, when) != nil {
			t.Fatal(err)
		}
		old = append(old, f)
	}
	if brotliCached(body) {
		t.Fatal("cached before the first compression")
	}
	br := brotliCompress(body)
	if !decodesTo(br, body) || len(br) >= len(body)/4 {
		t.Fatalf("brotli copy of %d bytes: %d bytes, decodes back: %v", len(body), len(br), decodesTo(br, body))
	}
	if onDisk, err := os.ReadFile(file); err != nil || !bytes.Equal(onDisk, br) {
		t.Fatalf("cache file: %v, same bytes: %v", err, bytes.Equal(onDisk, br))
	}
	for i, f := range old {
		if _, err := os.Stat(f); (err == nil) != (i < brotliKeep-1) {
			t.Errorf("the copy used %d hours ago: kept %v; want only the %d newest kept", i+1, err == nil, brotliKeep)
		}
	}

	// A later start reads the file: another valid copy (quality 1's) is what it gets.
	forget()
	var fast bytes.Buffer
	w := brotli.NewWriterLevel(&fast, 1)
	w.Write(body)
	w.Close()
	marked := fast.Bytes()
	if bytes.Equal(marked, br) || !decodesTo(marked, body) {
		t.Fatal("quality 1 gave the same copy, or one that does not decode")
	}
	if err := os.WriteFile(file, marked, 0o644); err != nil {
		t.Fatal(err)
	}
	if !brotliCached(body) || !bytes.Equal(brotliCompress(body), marked) {
		t.Error("the cache file was not used")
	}

	// A file cut short is compressed again and replaced.
	forget()
	if err := os.WriteFile(file, br[:len(br)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if brotliCached(body) {
		t.Error("a cut file counts as cached")
	}
	if got := brotliCompress(body); !bytes.Equal(got, br) {
		t.Errorf("after a cut cache file: %d bytes, want the %d of a fresh compression", len(got), len(br))
	}
	if onDisk, _ := os.ReadFile(file); !bytes.Equal(onDisk, br) {
		t.Error("the cut cache file was not replaced")
	}

	small := []byte(strings.Repeat("small ", 1000))
	if brotliCompress(small); !decodesTo(brotliCompress(small), small) {
		t.Error("a small input's copy does not decode")
	}
	if _, err := os.Stat(brotliCacheFile(keyOf(small))); err == nil {
		t.Error("a small input's copy is on disk")
	}
}

// TestServeBrotliLater: after a new build serve answers at once, with gzip, while it makes the
// brotli copy; once that is made, a browser that accepts brotli gets it.
func TestServeBrotliLater(t *testing.T) {
	BrotliLater = true
	release := make(chan struct{})
	laterBrotli = func(b []byte) []byte { <-release; return brotliCopy(b) }
	t.Cleanup(func() { BrotliLater, laterBrotli = false, brotliCopy })

	body := []byte(strings.Repeat(fmt.Sprintf("a build of %d ", time.Now().UnixNano()), 2000)) // not in the cache
	f := newSiteFile("application/wasm", body)
	get := func() string {
		req := httptest.NewRequest(http.MethodGet, "/app.wasm", nil)
		req.Header.Set("Accept-Encoding", "gzip, br")
		rec := httptest.NewRecorder()
		f.serve(rec, req)
		return rec.Header().Get("Content-Encoding")
	}
	if got := get(); got != "gzip" {
		t.Fatalf("while brotli is being made: Content-Encoding %q, want gzip", got)
	}
	close(release)
	for deadline := time.Now().Add(time.Minute); get() != "br"; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the brotli copy never joined")
		}
	}
}

// TestBrotliWindow: the window holds the input, as `brotli -q 11` picks it: the smallest
// 2^w − 16 that is at least n bytes (RFC 7932's limit on a distance), from 2^10 to 2^24.
func TestBrotliWindow(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{0, 10}, {1008, 10}, {1009, 11},
		{17_000, 15}, // app.css: 2^14 − 16 = 16,368 < 17,000 ≤ 32,752
		{12_363_084, 24}, {40 << 20, 24},
	} {
		if got := brotliWindow(c.n); got != c.want {
			t.Errorf("brotliWindow(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// TestServeStartMemory: starting serve allocates a bounded amount beyond its files, and
// keeps little. At quality 11 with a 16 MiB window whatever the file, the brotli encoder took
// 128 MB for each of the site's small files: 768 MB allocated before the first request, which
// the process kept resident (424 MB). The bound counts bytes allocated, not time; the site
// here is the repository's small files and a stand-in app.wasm, under 100 KB in all.
func TestServeStartMemory(t *testing.T) {
	quality := BrotliQuality
	BrotliQuality = 11 // serve's
	t.Cleanup(func() { BrotliQuality = quality })
	root := fakeRoot(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	h, err := NewServer(root)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(h)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 40<<20 {
		t.Errorf("NewServer allocated %d MB, want at most 40 MB (18 MB when written)", alloc>>20)
	}
	if live := int64(after.HeapAlloc) - int64(before.HeapAlloc); live > 16<<20 {
		t.Errorf("NewServer holds %d MB after GC, want at most 16 MB", live>>20)
	}
	t.Logf("allocated %.1f MB, holds %.1f MB", float64(after.TotalAlloc-before.TotalAlloc)/1e6, float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/1e6)
}

// A copy on disk is read while another input is being compressed: serve's start read
// engine.wasm's copy only once app.wasm's compression was done, a minute on a busy machine
// before it listened. The compression here is held, not timed: the read must not need it.
func TestBrotliReadBesideCompression(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	forget := func() {
		brotliCache.Lock()
		clear(brotliCache.mem)
		brotliCache.Unlock()
	}
	t.Cleanup(forget)
	body := bytes.Repeat([]byte("the engine's own bytes "), brotliOnDisk/20)
	want := brotliCompress(body) // onto the disk
	forget()
	compressing.Lock() // another input's compression, under way
	got := make(chan []byte)
	go func() {
		cached := brotliCached(body)
		br := brotliCompress(body)
		if !cached {
			br = nil
		}
		got <- br
	}()
	select {
	case br := <-got:
		compressing.Unlock()
		if !bytes.Equal(br, want) {
			t.Error("the copy on disk was not read, or read as other bytes")
		}
	case <-time.After(time.Minute): // a deadlock, not a duration: the read takes milliseconds
		compressing.Unlock()
		t.Fatal("reading the copy on disk waited for another input's compression")
	}
}

// A kept gzip copy is the copy of the very bytes it is asked for: two large bodies that differ
// in one byte each decompress to their own, the second call included.
func TestGzipKeptByContent(t *testing.T) {
	a := bytes.Repeat([]byte("backoffcalc "), gzipKeptFrom/12+1)
	b := bytes.Clone(a)
	b[len(b)/2] = '!'
	for range 2 {
		for _, body := range [][]byte{a, b} {
			zr, err := gzip.NewReader(bytes.NewReader(gzipCopy(body)))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(got, body) {
				t.Fatalf("gzip copy of a body with byte %q in its middle decodes to one with %q (err %v)", body[len(body)/2], got[len(got)/2], err)
			}
		}
	}
}
