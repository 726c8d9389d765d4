package calc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"backoffcalc/calc/breaker"
	"backoffcalc/calc/limiter"
	"backoffcalc/calc/policy"
)

// checkNoBranchOutsideTable fails where code in calc (its packages included) or app tells the
// kinds of typ, of package pkg, apart by name (a case, == or != on one of its constants, a map or
// array keyed by one, a switch on a .field) rather than through their tables, the files of
// tables, the first of which declares the constants. Comparing with a
// constant of allowed is not telling kinds apart: it asks whether there is one at all. Tests may:
// they check the table. calc/libs holds the library exporters, which ask about the kinds their
// library has.
func checkNoBranchOutsideTable(t *testing.T, pkg string, tables []string, typ, field string, count int, allowed ...string) {
	t.Helper()
	consts := constsOf(t, tables[0], typ, count)
	var files []string
	for _, dir := range []string{".", "../app"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && path != dir && (d.Name() == "libs" || d.Name() == "testdata" || d.Name() == "js"):
				return filepath.SkipDir
			case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
				return nil
			case slices.Contains(tables, path):
				return nil
			}
			files = append(files, path)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 20 {
		t.Fatalf("found only %d files: %v", len(files), files)
	}
	fset := token.NewFileSet()
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		name := func(e ast.Expr) string {
			switch e := e.(type) {
			case *ast.Ident:
				if f.Name.Name == pkg && consts[e.Name] {
					return e.Name
				}
			case *ast.SelectorExpr:
				if x, ok := e.X.(*ast.Ident); ok && x.Name == pkg && consts[e.Sel.Name] {
					return e.Sel.Name
				}
			}
			return ""
		}
		isKind := func(e ast.Expr) bool { return name(e) != "" }
		compared := func(e ast.Expr) bool { n := name(e); return n != "" && !slices.Contains(allowed, n) }
		ast.Inspect(f, func(n ast.Node) bool {
			bad := false
			switch n := n.(type) {
			case *ast.CaseClause:
				bad = slices.ContainsFunc(n.List, isKind)
			case *ast.BinaryExpr:
				bad = (n.Op == token.EQL || n.Op == token.NEQ) && (compared(n.X) || compared(n.Y))
			case *ast.KeyValueExpr:
				bad = isKind(n.Key)
			case *ast.SwitchStmt:
				s, ok := n.Tag.(*ast.SelectorExpr)
				bad = ok && s.Sel.Name == field
			}
			if bad {
				t.Errorf("%s: branches on a %s; put what the kind does in calc/%s", fset.Position(n.Pos()), typ, strings.Join(tables, " or calc/"))
			}
			return true
		})
	}
}

// constsOf are the names of the constants of type typ that file declares, count+1 of them (the
// last is the count).
func constsOf(t *testing.T, file, typ string, count int) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		if v := g.Specs[0].(*ast.ValueSpec); v.Type == nil || v.Type.(*ast.Ident).Name != typ {
			continue
		}
		for _, s := range g.Specs {
			for _, n := range s.(*ast.ValueSpec).Names {
				names[n.Name] = true
			}
		}
	}
	if len(names) != count+1 {
		t.Fatalf("%s declares %d %s constants, want %d", file, len(names), typ, count+1)
	}
	return names
}

// TestNoLimiterBranchOutsideTable fails where code in calc or app tells limiters apart by name
// rather than through the tables of limiters (see checkNoBranchOutsideTable): calc/limiter's,
// calc/sim's sayings and the cases' errorsOnly (overload.go). Comparing with None asks whether
// there is a limiter at all.
func TestNoLimiterBranchOutsideTable(t *testing.T) {
	checkNoBranchOutsideTable(t, "limiter", []string{"limiter/limiter.go", "sim/overload_limiters.go", "overload.go"}, "Kind", "Limiter", int(limiter.Count), "None")
}

// TestNoBreakerBranchOutsideTable fails where code in calc or app tells breakers apart by name
// rather than through the tables of breakers: calc/breaker's, calc/sim's sayings and the cost
// of Validate's overload_work.go (bulky). Comparing with None asks whether there is a
// breaker at all.
func TestNoBreakerBranchOutsideTable(t *testing.T) {
	checkNoBranchOutsideTable(t, "breaker", []string{"breaker/breaker.go", "sim/overload_breakers.go", "overload_work.go"}, "Kind", "Breaker", int(breaker.Count), "None")
}

// TestNoModeBranchOutsideTable fails where code in calc or app tells jitter modes apart by name
// (a case, == or != on a Jitter constant, a map or array keyed by one, a switch on a .Jitter)
// rather than through the table of modes (see checkNoBranchOutsideTable).
func TestNoModeBranchOutsideTable(t *testing.T) {
	checkNoBranchOutsideTable(t, "policy", []string{"policy/modes.go"}, "Jitter", "Jitter", len(policy.JitterNames()))
}

// TestEveryJitterIsValid: every jitter mode is valid with the defaults, and the value past the
// last is not (calc/policy's TestModesComplete holds the table of modes).
func TestEveryJitterIsValid(t *testing.T) {
	for _, j := range policy.AllJitters() {
		if err := Default().WithJitter(j).Validate(); err != nil {
			t.Errorf("%s: %v", j, err)
		}
	}
	past := policy.Jitter(len(policy.AllJitters()))
	if err := Default().WithJitter(past).Validate(); err == nil {
		t.Errorf("Jitter(%d) is valid", past)
	}
}
