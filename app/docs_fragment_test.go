//go:build !js

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"backoffcalc/calc/libs"
)

// docFragment is a link to the page with a fragment, as the README and docs/ write it.
var docFragment = regexp.MustCompile("http://127\\.0\\.0\\.1:8000/\\?([^#)`\\s]*)#([^)`\\s]+)")

// Every link to the page in the README and docs/ that names a section opens a section the page
// shows for that link: an open system's results are under #overload-section, not #herd-section.
func TestDocLinkFragments(t *testing.T) {
	names, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, name := range append(names, "../README.md") {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range docFragment.FindAllStringSubmatch(string(b), -1) {
			n++
			link, err := libs.DecodeLink(m[1])
			if err != nil {
				t.Errorf("%s: %q: %v", filepath.Base(name), m[1], err)
				continue
			}
			var ids []string
			for _, s := range sections {
				ids = append(ids, s.shownFor(link.Params).id)
			}
			if !slices.Contains(ids, m[2]) {
				t.Errorf("%s: ?%s#%s: the page shows no such section for this link (it has %v)", filepath.Base(name), m[1], m[2], ids)
			}
		}
	}
	if n < 5 {
		t.Errorf("only %d links with a fragment found", n)
	}
}
