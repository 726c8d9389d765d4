//go:build !js

package wasmsize

import (
	"bytes"
	"compress/gzip"
	"os"
	"os/exec"
)

// GzipSize is the size of the file compressed with `gzip -9`, or with Go's compress/gzip at
// level 9 when there is no gzip command.
func GzipSize(path string) (int64, string, error) {
	if gz, err := exec.LookPath("gzip"); err == nil {
		out, err := exec.Command(gz, "-9", "-c", path).Output()
		return int64(len(out)), "gzip -9", err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, "", err
	}
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(data)
	w.Close()
	return int64(buf.Len()), "compress/gzip level 9", nil
}
