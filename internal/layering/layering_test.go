// Package layering holds the rules of which project package may import which: see
// docs/layout.md, "Packages and what they may import".
package layering

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// module is the module's path, the prefix of every project package.
const module = "backoffcalc"

// matches says whether pattern names pkg. A pattern names project packages by their path in the
// module, as go list's patterns do: "calc" is that package alone, "calc/internal/..." the
// package calc/internal and those under it, "..." every package.
func matches(pattern, pkg string) bool {
	if pattern == "..." {
		return true
	}
	if dir, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == dir || strings.HasPrefix(pkg, dir+"/")
	}
	return pkg == pattern
}

// rules say what each project package may import of the project: the first rule whose pattern
// matches a package holds for it, and a package that no rule matches fails the test, so a new
// package starts with a decision. A package may always import nothing of the project; what a
// package's tests import is not held (the browser tests start Chromium with internal/headless).
// No rule lists bench, so nothing imports it.
var rules = []struct {
	pkg string   // a pattern
	may []string // patterns of the project packages it may import
}{
	// The calculator, standard library only; its internal packages (the event queue both
	// simulations use) only each other.
	{"calc/internal/...", []string{"calc/internal/..."}},
	// The policy core (the policy, its modes, schedule, budget, sampling, fit, formatting):
	// nothing of the project but calc's internal packages (the draws every model shares).
	{"calc/policy", []string{"calc/internal/..."}},
	// What the core's tests and the front's check of any policy (CheckInvariants), for tests only.
	{"calc/policy/policytest", []string{"calc/policy"}},
	// The retry limiters and the circuit breakers: the libraries' rules only, nothing of the
	// project.
	{"calc/limiter", nil},
	{"calc/breaker", nil},
	// The contention experiment reads the policy core; calc, the front, reads its inputs and
	// keys (contention.Inputs, contention.Keys).
	{"calc/contention", []string{"calc/policy", "calc/internal/..."}},
	// The herd and overload simulations, with what they say of each limiter and breaker, read
	// calc's policy, inputs and limits and the libraries' rules; the policy core does not know
	// them (calc's rule below lists no calc/sim).
	{"calc/sim", []string{"calc", "calc/policy", "calc/limiter", "calc/breaker", "calc/internal/..."}},
	// The herd's expected counts (the fluid model) read calc's modes and herd, and give them as
	// the simulation's runs (calc/sim's HerdRun); neither calc nor calc/sim knows them.
	{"calc/fluid", []string{"calc", "calc/policy", "calc/sim", "calc/internal/..."}},
	// The retry libraries read calc and are never read by it.
	{"calc/libs", []string{"calc", "calc/policy", "calc/limiter", "calc/breaker", "calc/internal/..."}},
	// The link's front: its Params, key table, Decode, Encode and Validate, assembled from each
	// model's inputs and rows.
	{"calc", []string{"calc/policy", "calc/limiter", "calc/breaker", "calc/contention", "calc/internal/..."}},
	// The server and static generator writes reports; the page's parts do not know each other.
	{"app/internal/site", []string{"calc", "calc/libs", "app/internal/report"}},
	// The engine worker's work (app/engine's wasm, and the page natively): it reads imports and
	// runs the simulations. The import's reader gives what it read in the page's own terms
	// (imported); the kinds of work and their replies are app/internal/work's.
	{"app/internal/engine", []string{"calc", "calc/policy", "calc/limiter", "calc/breaker", "calc/contention", "calc/fluid", "calc/sim", "calc/libs",
		"app/internal/importcfg", "app/internal/imported", "app/internal/report", "app/internal/work"}},
	// A copy button's work carries the page's results (report.Results) to the worker that writes them.
	// The Export panel's input names the client's limiter and breaker.
	{"app/internal/work", []string{"calc", "calc/policy", "calc/limiter", "calc/breaker", "calc/contention", "calc/sim", "calc/libs", "app/internal/report"}},
	{"app/internal/importcfg", []string{"calc", "calc/policy", "calc/limiter", "calc/breaker", "calc/libs", "app/internal/imported"}},
	{"app/internal/...", []string{"calc", "calc/policy", "calc/limiter", "calc/breaker", "calc/contention", "calc/fluid", "calc/sim", "calc/libs"}},
	{"app/engine", []string{"app/internal/engine"}},
	{"app", []string{"calc", "calc/policy", "calc/limiter", "calc/breaker", "calc/contention", "calc/fluid", "calc/sim", "calc/libs", "app/internal/..."}},
	// Starting Chromium and serve, for tests, the bench and the scripts: nothing of the project.
	{"internal/...", nil},
	{"scripts/...", []string{"internal/headless", "internal/served"}},
	// The measuring program may use anything.
	{"bench/...", []string{"..."}},
}

// builds are packages built for another platform and what must not be in them: the page's wasm
// carries no server, no test or bench tooling, and nothing of the work its worker does.
var builds = []struct {
	goos, goarch, pkg string
	without           []string // patterns
}{
	{"js", "wasm", "app", []string{"app/internal/site", "internal/...", "scripts/...", "bench/...",
		// The worker's: the page hands it the import (app/internal/work), its wasm holds no parser.
		"app/internal/engine", "app/internal/importcfg"}},
}

// goList runs go list in the module's root with env added to the environment and returns its
// output lines.
func goList(t *testing.T, env []string, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// inModule is pkg's path in the module, and whether it is a project package.
func inModule(pkg string) (string, bool) {
	if pkg == module {
		return ".", true
	}
	return strings.CutPrefix(pkg, module+"/")
}

func TestImports(t *testing.T) {
	lines := goList(t, nil, "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	if len(lines) < 5 {
		t.Fatalf("go list found only %d packages: %q", len(lines), lines)
	}
	for _, line := range lines {
		fields := strings.Fields(line)
		pkg, _ := inModule(fields[0])
		i := 0
		for i < len(rules) && !matches(rules[i].pkg, pkg) {
			i++
		}
		if i == len(rules) {
			t.Errorf("%s: no rule says what it may import; add one to rules", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			dep, ours := inModule(imp)
			if !ours {
				continue
			}
			allowed := false
			for _, may := range rules[i].may {
				allowed = allowed || matches(may, dep)
			}
			if !allowed {
				may := "nothing of the project"
				if len(rules[i].may) > 0 {
					may = "only " + strings.Join(rules[i].may, ", ")
				}
				t.Errorf("%s imports %s; by the rule for %s it may import %s", pkg, dep, rules[i].pkg, may)
			}
		}
	}
}

func TestBuilds(t *testing.T) {
	for _, b := range builds {
		deps := goList(t, []string{"GOOS=" + b.goos, "GOARCH=" + b.goarch}, "-deps", "-f", "{{.ImportPath}}", "./"+b.pkg)
		found := false
		for _, d := range deps {
			dep, ours := inModule(d)
			found = found || dep == b.pkg
			for _, not := range b.without {
				if ours && matches(not, dep) {
					t.Errorf("%s for %s/%s holds %s", b.pkg, b.goos, b.goarch, dep)
				}
			}
		}
		if !found {
			t.Errorf("go list -deps ./%s for %s/%s does not list %s: %q", b.pkg, b.goos, b.goarch, b.pkg, deps)
		}
	}
}

// TestScheduleAlone builds a program that calls only Params.Schedule (calc/policy's, which
// calc.Params embeds) and fails where it links
// what reading and writing a link needs (the key table, the core's keys and their builders and
// parser, a regexp compiler, the herd's and the overload view's limits and cases) or a simulation
// (calc/sim, calc/contention): calc's and calc/policy's package variables build nothing at init
// that only Decode, Encode or Validate read (calc/internal/lazy).
func TestScheduleAlone(t *testing.T) {
	bin := t.TempDir() + "/schedule"
	build := exec.Command("go", "build", "-o", bin, "./internal/layering/testdata/schedule")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command("go", "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	syms := string(out)
	if !strings.Contains(syms, " backoffcalc/calc/policy.Params.Schedule") {
		t.Fatalf("the program does not link calc/policy's Params.Schedule")
	}
	for _, not := range []string{
		" regexp.Compile", " regexp.MustCompile", " backoffcalc/calc.newKeyTable", " backoffcalc/calc/policy.Keys",
		" backoffcalc/calc/policy.DurationKey", " backoffcalc/calc/policy.parseDuration",
		" backoffcalc/calc.herdWork", " backoffcalc/calc.Params.Validate", " backoffcalc/calc.Params.Overload",
		" backoffcalc/calc.Params.Herd", " backoffcalc/calc/sim.", " backoffcalc/calc/contention.",
	} {
		if strings.Contains(syms, not) {
			t.Errorf("a program that computes only a schedule links%s", not)
		}
	}
}

// TestPageLinksNoExporter builds the page's wasm and the engine worker's as make wasm does and
// fails where the page's links a function of the Export panel's exporters (calc/libs: the
// panel's library is written by the engine's worker, app/internal/engine) or of the report's
// writers (app/internal/report: the copy buttons' text is written by the worker too), or the
// worker's lacks them; calc/libs and app/internal/report themselves stay in the page, for the
// presets, the link's keys and the sections' words. The names are read from the functions'
// table that Go keeps in a stripped wasm.
func TestPageLinksNoExporter(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two wasm modules")
	}
	exporters := []string{"calc/libs.ExportOf", "calc/libs.exportOne", "calc/libs.exporterOf", "calc/libs.exportGRPC",
		"calc/libs.exportPolly", "calc/libs.exportAWS", "calc/libs.compare", "calc/libs.budgetDiffs", "calc/libs.cannotExpress",
		"calc/libs.jitterText", "app/internal/report.WriteCSV", "app/internal/report.WriteMarkdown",
		"app/internal/report.reportTables", "app/internal/report.overloadTables", "app/internal/report.mdTable"}
	dir := t.TempDir()
	for _, b := range []struct {
		pkg   string
		links bool // the exporters
		has   string
	}{
		{"./app", false, "calc/libs.PresetByName"},
		{"./app/engine", true, "calc/libs.PresetByName"},
	} {
		bin := dir + "/" + strings.ReplaceAll(b.pkg, "/", "_") + ".wasm"
		build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, b.pkg)
		build.Dir = "../.."
		build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b.pkg, err, out)
		}
		wasm, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(wasm, []byte(module+"/"+b.has)) {
			t.Fatalf("%s: no function named %s/%s: the names are not where this test reads them", b.pkg, module, b.has)
		}
		for _, f := range exporters {
			if got := bytes.Contains(wasm, []byte(module+"/"+f)); got != b.links {
				t.Errorf("%s links %s/%s: %v, want %v", b.pkg, module, f, got, b.links)
			}
		}
	}
}
