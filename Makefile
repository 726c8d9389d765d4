# The one place that knows how to build, run and test backoffcalc.
#
#   make run                      build, then serve on http://$(ADDR)/
#   make static [SITE=site] [PREFIX=name or a/b]
#                                 write the folder to upload into $(SITE); with
#                                 PREFIX its URLs assume it is served at /name/
#   make test                     gofmt, vet, native tests with the browser
#                                 tests, calc under wasm, short fuzzing
#   make fuzz                     long fuzzing of FUZZ_TARGETS
#   make drift                    the presets and exports against the newest
#                                 versions of their Go libraries (before a release)
#   make lighthouse               Lighthouse's accessibility and best-practices
#                                 scores of serve and the static site
#   make screenshots              docs/screenshot.png and docs/screenshot-phone.png

GO      ?= go
GOROOT  := $(shell $(GO) env GOROOT)
ADDR    ?= 127.0.0.1:8000
SITE    ?= site
PREFIX  ?=
BIN     := bin/backoffcalc

# Fuzz targets, as package:FuzzName:count, e.g. ./calc:FuzzDecode:50000x.
# make test fuzzes each for its count of executions, not for a duration: with
# -fuzztime 10s, Go 1.26's coordinator can race its own deadline on a busy
# machine and fail with "context deadline exceeded" and no failing input
# (go.dev/issue/75804, fixed in Go 1.27). The counts take about 10 s each on
# an idle 2-core machine, and several times that beside the browser tests
# (2026-12-08, AMD EPYC: FuzzRead took 33 s idle and 88 s in make test at 50000x,
# FuzzOverload 23 s and 116 s). make fuzz runs each for FUZZTIME_LONG.
FUZZ_TARGETS  ?= ./calc:FuzzDecode:35000x ./calc:FuzzSchedule:50000x ./calc/sim:FuzzHerd:5000x \
                 ./calc/sim:FuzzOverload:20000x ./app/internal/importcfg:FuzzRead:15000x
FUZZTIME_LONG ?= 10m
# Minimizing a new interesting input pauses the executions, by default for up to a minute each:
# in make test that stretched a 10 s target to 67 s. make fuzz keeps go test's default.
FUZZMINIMIZE  ?= 5s

.PHONY: run static test test-native test-beside fuzz-short fuzz drift wasm native wasm_exec.js bench npm lighthouse screenshots

run: wasm_exec.js wasm native
	$(BIN) serve -addr $(ADDR)

static: wasm_exec.js wasm native
	rm -rf $(SITE)
	$(BIN) static -out $(SITE) $(if $(PREFIX),-prefix $(PREFIX))

# The page must load the wasm_exec.js of the Go that built app.wasm: keep the
# committed copy equal to the toolchain's.
wasm_exec.js:
	cmp -s $(GOROOT)/lib/wasm/wasm_exec.js $@ || cp $(GOROOT)/lib/wasm/wasm_exec.js $@

# Phony: go build knows better than make when to rebuild.
wasm:
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -o web/app.wasm ./app
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -o web/engine.wasm ./app/engine

native:
	$(GO) build -trimpath -o $(BIN) ./app

# test leaves wasm_exec.js alone, so that a stale committed copy fails
# TestWasmExecJS instead of being fixed behind CI's back. app's tests take about
# 9 minutes on an idle 2-core machine and twice that on a busy one: go test's
# default timeout of 10 minutes a package would end them half way. Its browser
# tests drive two tabs at a time; calc's tests in wasm and the short fuzzing (one
# worker) run beside them (docs/testing.md, "How long make test takes").
test: npm
	@unformatted=$$(gofmt -l .); if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...
	@$(MAKE) --no-print-directory -j2 test-native test-beside

test-native:
	$(GO) test -timeout 30m ./...

# -p 1: calc is several packages, and go test would run two of them at once, taking the core
# that app's browser tests drive Chromium on (the app package took 593 s for 476 alone).
test-beside:
	GOOS=js GOARCH=wasm $(GO) test -p 1 -exec "$(GOROOT)/lib/wasm/go_js_wasm_exec" ./calc/...
	@$(MAKE) --no-print-directory fuzz-short FUZZWORKERS=1

# npm installs axe-core, which the browser tests inject into the page, as
# scripts/npm/package-lock.json pins it; lighthouse, a dev dependency there, only
# for make lighthouse.
npm:
	@if command -v npm >/dev/null; then cd scripts/npm && npm ci --omit=dev --no-audit --no-fund; \
	else echo "npm not found: the axe-core checks will be skipped (under CI=true they fail)"; fi

# fuzz runs every FUZZ_TARGETS entry for $(1), or for its own count when $(1)
# is empty; an empty list does nothing.
define fuzz
	@set -e; for target in $(FUZZ_TARGETS); do \
		pkg=$${target%%:*}; rest=$${target#*:}; name=$${rest%%:*}; count=$${rest#*:}; \
		time=$(or $(1),$$count); \
		echo "fuzz $$pkg:$$name for $$time"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $$time -fuzzminimizetime $(FUZZMINIMIZE) \
			$(if $(FUZZWORKERS),-parallel $(FUZZWORKERS)) "$$pkg"; \
	done
endef

fuzz-short:
	$(call fuzz,)

fuzz: FUZZMINIMIZE = 60s
fuzz:
	$(call fuzz,$(FUZZTIME_LONG))

# drift is not part of test: it moves the libraries to their newest versions in a copy of the
# module, so its answer changes with their releases. See scripts/drift.sh.
drift:
	GO='$(GO)' bash scripts/drift.sh

# bench measures app.wasm's size against an empty go-app page, page loads (cold, warm, offline;
# serve and static), input-to-screen latency, the herd, the code cache's warm-up, and the Go
# benchmarks of calc and the import reader natively and in wasm, in headless Chromium on
# 127.0.0.1; see docs/performance.md. A time measured here is never asserted by test. It
# prints a table and writes it to bench/results-TIME.csv and bench/latest.csv. Flags go in BENCHFLAGS, e.g.
# make bench BENCHFLAGS='-only loads,input -runs 9'; go run ./bench -h lists them.
bench: wasm_exec.js wasm native
	$(GO) run ./bench -go '$(GO)' -bin $(BIN) $(BENCHFLAGS)

# lighthouse is not part of test (about two minutes): see scripts/lighthouse.sh.
lighthouse: wasm_exec.js wasm native
	bash scripts/lighthouse.sh

# screenshots writes the README's screenshots of serve, once the wasm is in charge.
screenshots: wasm_exec.js wasm native
	$(GO) run ./scripts/screenshots -bin $(BIN)
