package libs

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"backoffcalc/calc"
)

// docFiles are the README and every file of docs/, as paths from this package.
func docFiles(t *testing.T) map[string]string {
	t.Helper()
	names, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, name := range append(names, "../../README.md") {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	return files
}

// The README's table of query keys has a row for every key a link may carry (calc's, the
// preset's, the export panel's and B's) and names no other; each key's default cell starts with
// the default a link decodes to.
func TestReadmeKeyTable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(readme), "\n## The query keys\n")
	if !ok {
		t.Fatal("README has no section \"The query keys\"")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	defaults := calc.DefaultValues()
	named := map[string]bool{}
	rows := 0
	for line := range strings.SplitSeq(sec, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		rows++
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) != 4 {
			t.Errorf("row %q has %d cells, want 4: key, meaning, default, accepted", line, len(cells))
			continue
		}
		keys := strings.Split(cells[0], ", ")
		values := strings.Split(strings.TrimSpace(cells[2]), ", ")
		for i, k := range keys {
			key := strings.Trim(strings.TrimSpace(k), "`")
			if named[key] {
				t.Errorf("%s has two rows", key)
			}
			named[key] = true
			if want, ok := defaults[key]; ok && (i >= len(values) || values[i] != want[0]) {
				t.Errorf("%s: the table's default %q, a link decodes %q", key, cells[2], want[0])
			}
		}
	}
	want := append(calc.Keys(), "preset", ExportKey, VsKey)
	for _, key := range want {
		if !named[key] {
			t.Errorf("the README's key table has no row for %s", key)
		}
	}
	for key := range named {
		if !slices.Contains(want, key) {
			t.Errorf("the README's key table names %s, which is no key", key)
		}
	}
	if rows < 20 {
		t.Errorf("only %d rows", rows)
	}
}

var (
	// pageLink is a link to the page as the docs write it; the query ends at the fragment, the
	// closing parenthesis or backtick of the Markdown, or a space.
	pageLink = regexp.MustCompile("http://127\\.0\\.0\\.1:8000/\\?([^#)`\\s]*)")
	// tableCmd is a table command with its argument in single quotes.
	tableCmd = regexp.MustCompile(`\btable (?:-[a-z]+(?:[ =][a-z]+)? )*'([^']*)'`)
	// shownLink is a Markdown link whose text is the query and fragment it opens.
	shownLink = regexp.MustCompile("\\[`(\\?[^`]*)`\\]\\(http://127\\.0\\.0\\.1:8000/(\\?[^)]*)\\)")
)

// Every link to the page and every query given to table in the README and docs/ decodes without
// error, so that a reader who follows one sees numbers, not a message.
func TestDocLinksDecode(t *testing.T) {
	n := 0
	for name, text := range docFiles(t) {
		var queries []string
		for _, m := range pageLink.FindAllStringSubmatch(text, -1) {
			queries = append(queries, m[1])
		}
		for _, m := range tableCmd.FindAllStringSubmatch(text, -1) {
			q := m[1]
			if _, after, ok := strings.Cut(q, "?"); ok {
				q = after // a whole link
			}
			queries = append(queries, q)
		}
		for _, q := range queries {
			n++
			if _, err := DecodeLink(q); err != nil {
				t.Errorf("%s: %q: %v", filepath.Base(name), q, err)
			}
		}
	}
	// A link's text, where it is the query, is the query it opens.
	readme := docFiles(t)["../../README.md"]
	for _, m := range shownLink.FindAllStringSubmatch(readme, -1) {
		if m[1] != m[2] {
			t.Errorf("README.md shows %q but opens %q", m[1], m[2])
		}
	}
	if n < 10 {
		t.Errorf("only %d links and table commands found", n)
	}
}

var (
	mdLink  = regexp.MustCompile(`\]\(([^)#:\s]*\.md)?(#[^)\s]*)?\)`)
	heading = regexp.MustCompile(`(?m)^#+ (.*)$`)
)

// anchor is the fragment GitHub gives a heading: lower case, punctuation dropped, spaces as
// hyphens.
func anchor(h string) string {
	h = strings.ToLower(h)
	var b strings.Builder
	for _, r := range h {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Every link from one doc to another, or to a heading, names a file and a heading that exist.
func TestDocCrossLinks(t *testing.T) {
	files := docFiles(t)
	anchors := map[string][]string{}
	for name, text := range files {
		for _, m := range heading.FindAllStringSubmatch(text, -1) {
			anchors[filepath.Clean(name)] = append(anchors[filepath.Clean(name)], "#"+anchor(m[1]))
		}
	}
	for name, text := range files {
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			if m[1] == "" && m[2] == "" {
				continue
			}
			target := filepath.Clean(name)
			if m[1] != "" {
				target = filepath.Clean(filepath.Join(filepath.Dir(name), m[1]))
			}
			if _, ok := files[target]; !ok {
				t.Errorf("%s links to %s, which is not there", filepath.Base(name), m[1])
				continue
			}
			if m[2] != "" && !slices.Contains(anchors[target], m[2]) {
				t.Errorf("%s links to %s%s: no such heading", filepath.Base(name), m[1], m[2])
			}
		}
	}
}
