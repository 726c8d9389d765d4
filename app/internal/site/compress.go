//go:build !js

package site

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/andybalholm/brotli"
)

// compressed is a file's gzip and brotli copies, each nil when it saves too little to be worth
// a second copy: serve sends one to a browser that accepts it, and static writes them beside the
// file (NAME.gz, NAME.br) for hosts that send such files as they are.
type compressed struct {
	gz, br []byte
}

// compress returns body's copies. app.wasm is 8.9 MB, 2.3 MB gzipped and 1.7 MB in brotli: it
// and the other large files are compressed once, at start-up. A file under 1 KiB, or one that
// neither copy shrinks by a quarter, would save a few bytes for the price of a Vary header and
// a second copy.
func compress(body []byte) compressed {
	return compressed{gz: gzipCopy(body), br: brotliCopy(body)}
}

// gzipCopy is body at gzip -9, or nil when that is not worth a second copy (see compress).
// The copy of a large body is kept in memory under its hash: app.wasm's takes 2–3 s on a 2-core
// machine, which every test that starts serve paid again for the same bytes (about 80 of them).
// serve and static compress each file once; the kept copy is the one their file holds.
func gzipCopy(body []byte) []byte {
	if len(body) < 1<<10 {
		return nil
	}
	if len(body) < gzipKeptFrom {
		return gzipOf(body)
	}
	key := sha256.Sum256(body)
	if gz, ok := gzipKept.Load(key); ok {
		return gz.([]byte)
	}
	gz := gzipOf(body)
	gzipKept.Store(key, gz)
	return gz
}

// gzipKept holds the gzip copies (nil when not worth one) of the bodies of gzipKeptFrom bytes
// or more, by their SHA-256; smaller ones compress in milliseconds.
var gzipKept sync.Map

const gzipKeptFrom = 1 << 20

// gzipOf is gzipCopy's compression.
func gzipOf(body []byte) []byte {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(body)
	zw.Close()
	return worth(body, gz.Bytes())
}

// brotliCopy is body at brotli -q 11, or nil when that is not worth a second copy.
func brotliCopy(body []byte) []byte {
	if len(body) < 1<<10 {
		return nil
	}
	return worth(body, brotliCompress(body))
}

// worth returns c, a copy of body, when it saves at least a quarter of it; else nil.
func worth(body, c []byte) []byte {
	if len(c) <= len(body)*3/4 {
		return c
	}
	return nil
}

// Brotli at its densest, as `brotli -q 11` (which picks a 16 MiB window for a file this large):
// on app.wasm the same 1,692,690 bytes, 27% under gzip -9, but in about 28 s on this 2-core
// machine (the C program: 18 s). So each result is kept in memory, and one of a large input
// (app.wasm) also in the user's cache directory under the hash of what it compresses: a new
// build of app.wasm costs one compression, and every later start of serve, static or the tests
// with those bytes none. The directory keeps the copies of the last brotliKeep inputs used.
//
// The tests compress at BrotliQuality 5 (1 s, 15% under gzip -9): they test which copy is sent,
// not how small it is, and a new build would otherwise cost them three compressions.
var BrotliQuality = 11

const (
	brotliMaxWindow = 24
	brotliOnDisk    = 1 << 20 // smaller inputs take under a second
	brotliKeep      = 8
)

// brotliCache holds each input's copy once made. The lock guards the map only: a copy is made
// under its own entry's once, so that two tests starting at once compress once, while a lookup
// of another input (engine.wasm's copy, on disk) does not wait behind a compression (app.wasm's,
// which held serve's start for a minute on a busy machine before it listened).
var brotliCache = struct {
	sync.Mutex
	mem map[brotliKey]*brotliEntry
}{mem: map[brotliKey]*brotliEntry{}}

type brotliEntry struct {
	once sync.Once
	done atomic.Bool
	br   []byte
}

// compressing is held by a compression: one at a time, as each at quality 11 takes hundreds of
// MB, which serve would otherwise hold for two wasm modules at once.
var compressing sync.Mutex

// brotliKey names a brotli copy: the hash of what it compresses, at a quality.
type brotliKey struct {
	sum     [sha256.Size]byte
	quality int
}

func keyOf(body []byte) brotliKey { return brotliKey{sha256.Sum256(body), BrotliQuality} }

// brotliCompress returns body in brotli, from the cache when it has body's copy.
func brotliCompress(body []byte) []byte {
	key := keyOf(body)
	brotliCache.Lock()
	e := brotliCache.mem[key]
	if e == nil {
		e = &brotliEntry{}
		brotliCache.mem[key] = e
	}
	brotliCache.Unlock()
	e.once.Do(func() {
		e.br = loadOrCompress(key, body)
		e.done.Store(true)
	})
	return e.br
}

// loadOrCompress is body's copy from the cache directory, or made and kept there.
func loadOrCompress(key brotliKey, body []byte) []byte {
	file := ""
	if len(body) >= brotliOnDisk {
		file = brotliCacheFile(key)
	}
	br, err := os.ReadFile(file)
	if err == nil && decodesTo(br, body) {
		now := time.Now()
		os.Chtimes(file, now, now) // used: the last to go
		return br
	}
	compressing.Lock()
	defer compressing.Unlock()
	var buf bytes.Buffer
	w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: BrotliQuality, LGWin: brotliWindow(len(body))})
	w.Write(body)
	w.Close()
	br = buf.Bytes()
	writeCacheFile(file, br)
	return br
}

// brotliWindow is the window, in bits, of a brotli copy of n bytes: the smallest that holds
// them, up to 16 MiB, as `brotli -q 11` picks it (its --lgwin 0). A larger window cannot
// shrink the copy, but at quality 11 the encoder's match finder takes 8 bytes per byte of
// window whatever the input: a 16 MiB window for app.css's 17 KB cost 128 MB, and serve's
// seven small files, 768 MB of garbage at start-up, which the process kept (424 MB resident
// before its first request; TestServeStartMemory).
func brotliWindow(n int) int {
	w := 10
	for w < brotliMaxWindow && 1<<w-16 < n {
		w++
	}
	return w
}

// brotliCached reports whether brotliCompress has body's copy without compressing, so that a
// command can say why it is slow before it is.
func brotliCached(body []byte) bool {
	key := keyOf(body)
	brotliCache.Lock()
	e := brotliCache.mem[key]
	brotliCache.Unlock()
	if e != nil && e.done.Load() {
		return true
	}
	if len(body) < brotliOnDisk {
		return false
	}
	br, err := os.ReadFile(brotliCacheFile(key))
	return err == nil && decodesTo(br, body)
}

// brotliCacheFile is where key's copy is kept: under $XDG_CACHE_HOME (~/.cache), or "" when
// there is no such directory.
func brotliCacheFile(key brotliKey) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "backoffcalc", "brotli", fmt.Sprintf("%s-q%d.br", hex.EncodeToString(key.sum[:]), key.quality))
}

// decodesTo reports whether br decodes to exactly body: a cache file cut short by a crash, or
// changed by hand, is compressed again rather than served.
func decodesTo(br, body []byte) bool {
	c := &comparer{want: body}
	_, err := io.Copy(c, brotli.NewReader(bytes.NewReader(br)))
	return err == nil && c.ok() && len(c.want) == 0
}

// comparer is a writer that checks what is written against want, rather than holding a
// second decoded copy of app.wasm only to compare it.
type comparer struct {
	want []byte
	bad  bool
}

func (c *comparer) Write(p []byte) (int, error) {
	if len(p) > len(c.want) || !bytes.Equal(p, c.want[:len(p)]) {
		c.bad = true
		return 0, errors.New("differs")
	}
	c.want = c.want[len(p):]
	return len(p), nil
}

func (c *comparer) ok() bool { return !c.bad }

// writeCacheFile writes b to file through a temporary file and a rename, so that a reader never
// sees half a file. The cache only saves time: when it cannot be written, the next start
// compresses again.
func writeCacheFile(file string, b []byte) {
	if file == "" || os.MkdirAll(filepath.Dir(file), 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".tmp-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(b)
	if err = errors.Join(err, tmp.Close()); err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return
	}
	pruneCache(filepath.Dir(file))
}

// pruneCache removes from dir all but the brotliKeep most recently used copies, so that the
// cache of a developer who builds all day stays near 15 MB.
func pruneCache(dir string) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.br"))
	used := map[string]time.Time{}
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			used[f] = fi.ModTime()
		}
	}
	slices.SortFunc(files, func(a, b string) int { return used[b].Compare(used[a]) })
	for _, f := range files[min(len(files), brotliKeep):] {
		os.Remove(f)
	}
}

// NoteBrotli says on w, before serve or static starts, that the wasm modules (the page's
// app.wasm, the engine's engine.wasm) have no cached brotli copy yet, so that the half minute of
// compressing them does not pass in silence: static waits for it, serve sends gzip meanwhile
// (BrotliLater).
func NoteBrotli(root string, w io.Writer, meanwhile string) {
	for _, name := range []string{"app.wasm", "engine.wasm"} {
		b, err := os.ReadFile(filepath.Join(root, "web", name))
		if err == nil && len(b) >= 1<<20 && !brotliCached(b) {
			fmt.Fprintf(w, "compressing web/%s (%.1f MB) with brotli -q 11, once for this build: about %d s%s\n",
				name, float64(len(b))/1e6, max(5, len(b)*30/12_000_000/5*5), meanwhile)
		}
	}
}
