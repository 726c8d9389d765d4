//go:build !js

package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// sectionNamed is the section whose id is id, the herd's or an open system's in its place.
func sectionNamed(t testing.TB, id string) section {
	t.Helper()
	s, ok := sectionByID(id)
	if !ok {
		t.Fatalf("no section %q", id)
	}
	return s
}

var (
	tocLinkRE = regexp.MustCompile(`<a ([^>]*)>([^<]*)</a>`)
	islandRE  = regexp.MustCompile(`<div id="([^"]+)" class="numbers"`)
	sectionRE = regexp.MustCompile(`<section ([^>]*)>\s*<h2 ([^>]*)>([^<]*)</h2>`)
)

// tagAttrs are the attributes of a tag's text (go-app writes them in any order).
func tagAttrs(tag string) map[string]string {
	out := map[string]string{}
	for _, m := range attrRE.FindAllStringSubmatch(tag, -1) {
		out[m[1]] = html.UnescapeString(m[2])
	}
	return out
}

// The page is drawn from sections alone: for a closed herd, an open system and a comparison, the
// table of contents links to each section in the list's order, by its entry; each section is
// there in that order under its heading, whose id the entry moves the focus to; every island of
// the page is in a section of the list, and each section's kept numbers are in that section.
func TestSectionsOneList(t *testing.T) {
	for _, link := range []string{"", overloadBrowserLink, "budget=2s&vs=preset%3Daws-go-v2"} {
		p, _ := navPage(t, link)
		page := app.HTMLString(p)
		toc := page[strings.Index(page, `id="toc"`):]
		toc = toc[:strings.Index(toc, "</nav>")]
		links := tocLinkRE.FindAllStringSubmatch(toc, -1)
		if len(links) != len(sections) {
			t.Fatalf("%q: %d entries in the table of contents, want %d", link, len(links), len(sections))
		}
		// Where each section starts and ends in the page; sections do not nest.
		at := map[string][2]int{}
		last := -1
		for i := range sections {
			s := p.shown(i)
			if s.id != sections[i].shownFor(p.report.Params).id {
				t.Errorf("%q: section %d is %s, the link's params say %s", link, i, s.id, sections[i].shownFor(p.report.Params).id)
			}
			if href := tagAttrs(links[i][1])["href"]; href != "#"+s.id || html.UnescapeString(links[i][2]) != s.toc {
				t.Errorf("%q: entry %d links to %s as %q, want #%s as %q", link, i, href, links[i][2], s.id, s.toc)
			}
			start := -1
			for _, m := range sectionRE.FindAllStringSubmatchIndex(page, -1) {
				sec, h := tagAttrs(page[m[2]:m[3]]), tagAttrs(page[m[4]:m[5]])
				if sec["id"] != s.id {
					continue
				}
				start = m[0]
				if sec["aria-labelledby"] != s.id+"-h" || h["id"] != s.id+"-h" || h["tabindex"] != "-1" || html.UnescapeString(page[m[6]:m[7]]) != s.heading {
					t.Errorf("%q: %s starts with %s, want its heading %q, id %s-h, that labels it", link, s.id, page[m[0]:m[1]], s.heading, s.id)
				}
			}
			if start < 0 {
				t.Errorf("%q: no section %s under its heading", link, s.id)
				continue
			}
			if start < last {
				t.Errorf("%q: %s is before the section before it in the list", link, s.id)
			}
			end := start + strings.Index(page[start:], "</section>")
			at[s.id], last = [2]int{start, end}, end
		}
		in := func(pos int) string {
			for id, r := range at {
				if r[0] < pos && pos < r[1] {
					return id
				}
			}
			return ""
		}
		for _, m := range islandRE.FindAllStringSubmatchIndex(page, -1) {
			if in(m[0]) == "" {
				t.Errorf("%q: island #%s is in no section of the list", link, page[m[2]:m[3]])
			}
		}
		for i := range sections {
			s := p.shown(i)
			if s.numbers == nil {
				continue
			}
			for _, isl := range s.numbers(p) {
				if pos := strings.Index(page, `<div id="`+isl.id+`" class="numbers"`); pos < 0 || in(pos) != s.id {
					t.Errorf("%q: island #%s of %s's numbers is in %q", link, isl.id, s.id, in(pos))
				}
			}
		}
	}
}

// The list's own rules: ids are unique, the open system's sections among them, and each is found
// by its id; the first screen is the first section, the only one, and the one app.css keeps
// laid out.
func TestSectionsList(t *testing.T) {
	var ids []string
	for i, s := range sections {
		if s.firstScreen != (i == 0) {
			t.Errorf("%s: firstScreen %v at %d; the first screen is the first section alone", s.id, s.firstScreen, i)
		}
		for ; ; s = *s.open {
			if slices.Contains(ids, s.id) || s.body == nil && sections[i].part == nil {
				t.Errorf("%s: a second section with this id, or no body", s.id)
			}
			ids = append(ids, s.id)
			if got := sectionNamed(t, s.id); got.id != s.id || got.heading != s.heading {
				t.Errorf("sectionByID(%q) = %s", s.id, got.id)
			}
			if s.open == nil {
				break
			}
		}
	}
	// app.css lets the browser skip the sections below the first screen, by its id.
	css, err := os.ReadFile("../web/app.css")
	if err != nil {
		t.Fatal(err)
	}
	if rule := "#results > section:not(#" + sections[0].id + ")"; !strings.Contains(string(css), rule) {
		t.Errorf("app.css has no %s: it names another first screen than sections'", rule)
	}
	if _, ok := sectionByID("nowhere"); ok {
		t.Error("sectionByID finds a section that is not there")
	}
}

// Every section's component of the package (a type with part's method, body() []app.UI, found
// by parsing the package's files, whatever their build tags) is made by an entry of sections: a
// component left out of the list would be drawn nowhere, and no other test would fail. Each
// component the list makes is found so too, so that the parse cannot pass by finding nothing.
func TestEveryPartIsASection(t *testing.T) {
	made := map[string]bool{}
	for _, c := range newPage().parts {
		if c != nil {
			made[strings.TrimPrefix(fmt.Sprintf("%T", c), "*main.")] = true
		}
	}
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files: %v", err)
	}
	fset, found := token.NewFileSet(), map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != "body" || fn.Type.Params.NumFields() != 0 || !isUISlice(fn.Type.Results) {
				continue
			}
			recv := fn.Recv.List[0].Type
			if star, ok := recv.(*ast.StarExpr); ok {
				recv = star.X
			}
			id, ok := recv.(*ast.Ident)
			if !ok {
				t.Errorf("%s: body() on %T, not a named type", fset.Position(fn.Pos()), recv)
				continue
			}
			found[id.Name] = true
			if !made[id.Name] {
				t.Errorf("%s (%s): a section's component (body() []app.UI), but no entry of sections (section.go) makes it", id.Name, fset.Position(fn.Pos()))
			}
		}
	}
	for name := range made {
		if !found[name] {
			t.Errorf("sections make %s, whose body() []app.UI the package's files do not declare", name)
		}
	}
}

// isUISlice says whether results are one []app.UI.
func isUISlice(results *ast.FieldList) bool {
	if results.NumFields() != 1 {
		return false
	}
	a, ok := results.List[0].Type.(*ast.ArrayType)
	if !ok || a.Len != nil {
		return false
	}
	sel, ok := a.Elt.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "UI" {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "app"
}
