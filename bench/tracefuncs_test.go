//go:build !js

package main

import (
	"encoding/json"
	"testing"

	"backoffcalc/bench/wasmsize"
)

func TestFuncName(t *testing.T) {
	for _, c := range []struct {
		f    wasmsize.Func
		want string
	}{
		{wasmsize.Func{Name: "main.__page_.renderCompare", Pkg: "backoffcalc/app (main)"}, "main.(*page).renderCompare"},
		{wasmsize.Func{Name: "github.com_maxence_charriere_go_app_v9_pkg_app.__htmlElement_.mount", Pkg: "github.com/maxence-charriere/go-app/v9/pkg/app"},
			"go-app/app.(*htmlElement).mount"},
		{wasmsize.Func{Name: "backoffcalc_calc.Params.SamplePausing", Pkg: "backoffcalc/calc"}, "backoffcalc/calc.Params.SamplePausing"},
		{wasmsize.Func{Name: "memeqbody", Pkg: "(no package)"}, "memeqbody"},
	} {
		if got := funcName(c.f); got != c.want {
			t.Errorf("funcName(%q) = %q, want %q", c.f.Name, got, c.want)
		}
	}
}

// TestMainProfile reads a profile of two chunks as V8 writes them: the times are deltas, the
// nodes come with the chunk that first samples them, and the other thread's profile is not read.
func TestMainProfile(t *testing.T) {
	tc := traceClock{pid: 1, mainTID: 1, origin: 0}
	ev := func(name string, tid int, id, args string) traceEvent {
		return traceEvent{Name: name, Ph: "P", PID: 1, TID: tid, ID: json.RawMessage(id), Args: json.RawMessage(args)}
	}
	events := []traceEvent{
		ev("Profile", 1, `"0x1"`, `{"data":{"startTime":1000}}`),
		ev("Profile", 2, `"0x2"`, `{"data":{"startTime":0}}`),
		ev("ProfileChunk", 9, `"0x1"`, `{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}},
			{"id":2,"parent":1,"callFrame":{"functionName":"wasm-function[7]","codeType":"wasm"}}],"samples":[2,2]},"timeDeltas":[500,1000]}}`),
		ev("ProfileChunk", 9, `"0x2"`, `{"data":{"cpuProfile":{"samples":[1]},"timeDeltas":[1]}}`),
		ev("ProfileChunk", 9, `"0x1"`, `{"data":{"cpuProfile":{"samples":[1]},"timeDeltas":[2000]}}`),
	}
	nodes, samples, err := mainProfile(tc, events)
	if err != nil {
		t.Fatal(err)
	}
	want := []profileSample{{at: 1.5, ms: 1, node: 2}, {at: 2.5, ms: 2, node: 2}, {at: 4.5, ms: 0, node: 1}}
	if len(samples) != len(want) {
		t.Fatalf("samples %v, want %v", samples, want)
	}
	for i := range want {
		if samples[i] != want[i] {
			t.Errorf("sample %d = %+v, want %+v", i, samples[i], want[i])
		}
	}
	if nodes[2].CallFrame.FunctionName != "wasm-function[7]" || nodes[2].Parent != 1 {
		t.Errorf("node 2 = %+v", nodes[2])
	}
}
