//go:build !js

package wasmsize

import "testing"

func TestPkgOf(t *testing.T) {
	pkgs := newPkgNames([]string{"backoffcalc/calc", "github.com/maxence-charriere/go-app/v9/pkg/app",
		"github.com/maxence-charriere/go-app/v9/pkg/errors", "runtime", "encoding/csv", "slices",
		"sync/atomic", "internal/sync", "math/rand/v2", "vendor/golang.org/x/net/dns/dnsmessage"}, "backoffcalc/app (main)")
	for name, want := range map[string]string{
		"backoffcalc_calc.Params.Schedule":                                   "backoffcalc/calc",
		"backoffcalc_calc.__Params_.Schedule.func1":                          "backoffcalc/calc",
		"github.com_maxence_charriere_go_app_v9_pkg_app.__htmlElement_.html": "github.com/maxence-charriere/go-app/v9/pkg/app",
		"github.com_maxence_charriere_go_app_v9_pkg_errors.New":              "github.com/maxence-charriere/go-app/v9/pkg/errors",
		"runtime.mallocgc":                                                      "runtime",
		"encoding_csv.__Writer_.Write":                                          "encoding/csv",
		"slices.pdqsortOrdered_go.shape.uint64_":                                "slices",
		"math_rand_v2.__PCG_.AppendBinary":                                      "math/rand/v2",
		"vendor_golang.org_x_net_dns_dnsmessage.Name.String":                    "vendor/golang.org/x/net/dns/dnsmessage",
		"main.__page_.Render":                                                   "backoffcalc/app (main)",
		"type_.eq.main.libSnippet":                                              "backoffcalc/app (main)",
		"type_.eq.backoffcalc_calc.Params":                                      "backoffcalc/calc",
		"type_.eq._2_main.libSnippet":                                           "backoffcalc/app (main)",
		"type_.eq._16_sync_atomic.Pointer_go.shape.struct___internal_sync.isEn": "sync/atomic",
		"type_.eq._8_string":                                                    noPkg,
		"memeqbody":                                                             noPkg,
		"wasm_export_run":                                                       noPkg,
		"go_buildid":                                                            noPkg,
		"runtime_debug.SetTraceback":                                            noPkg,
	} {
		got, ok := pkgs.pkgOf(name)
		if got != want || ok != (want != noPkg) {
			t.Errorf("pkgOf(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
}
