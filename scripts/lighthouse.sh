#!/usr/bin/env bash
# Lighthouse's accessibility and best-practices scores of the page as users get it: serve, and
# the static site behind a plain file server, each with Lighthouse's desktop and mobile presets,
# in headless Chromium on 127.0.0.1. It prints a table of the scores and, beside them, every
# audit of those two categories that does not pass ("(unscored)": its weight is 0). Not part of
# make test: it takes minutes.
#
# make lighthouse builds first; run alone, it expects bin/backoffcalc and web/app.wasm built.
# Lighthouse comes from scripts/npm/package-lock.json (a dev dependency: make test's npm ci
# leaves it out). Set LINK to check another link than the README's example, CHROMIUM for
# another browser, and SERVE_ADDR / STATIC_ADDR for other ports.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-bin/backoffcalc}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
LINK=${LINK:-?base=250ms&factor=1.5&cap=3s&attempts=8&jitter=equal&budget=2s&call=10ms&seed=9&samples=2000&layers=3}
SERVE_ADDR=${SERVE_ADDR:-127.0.0.1:8781}
STATIC_ADDR=${STATIC_ADDR:-127.0.0.1:8782}

(cd scripts/npm && npm ci --no-audit --no-fund --loglevel=error)

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

"$BIN" static -out "$work/site"
go build -o "$work/fileserver" ./scripts/fileserver
"$BIN" serve -addr "$SERVE_ADDR" >"$work/serve.log" 2>&1 &
pids+=($!)
"$work/fileserver" -addr "$STATIC_ADDR" -dir "$work/site" >"$work/static.log" 2>&1 &
pids+=($!)
for addr in "$SERVE_ADDR" "$STATIC_ADDR"; do
  for _ in $(seq 100); do
    curl -sf -o /dev/null "http://$addr/" && break
    sleep 0.2
  done
  curl -sf -o /dev/null "http://$addr/" || { echo "nothing answers on $addr" >&2; cat "$work"/*.log >&2; exit 1; }
done

# The harness's flags (internal/headless), for the same browser as the tests.
flags="--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync"

printf '%-8s %-8s %14s %15s  %s\n' site preset accessibility best-practices "failing audits"
for site in serve static; do
  addr=$SERVE_ADDR
  if [ "$site" = static ]; then addr=$STATIC_ADDR; fi
  for preset in desktop mobile; do
    out="$work/$site-$preset.json"
    args=()
    if [ "$preset" = desktop ]; then args+=(--preset=desktop); fi
    CHROME_PATH=$CHROMIUM scripts/npm/node_modules/.bin/lighthouse "http://$addr/$LINK" \
      "${args[@]}" --only-categories=accessibility,best-practices \
      --chrome-flags="$flags" --output=json --output-path="$out" --quiet
    node -e '
      const r = require(process.argv[1]);
      const cat = (c) => Math.round(r.categories[c].score * 100);
      const failing = [];
      for (const c of ["accessibility", "best-practices"]) {
        for (const ref of r.categories[c].auditRefs) {
          const a = r.audits[ref.id];
          if (a.score !== null && a.score < 1 && !["manual", "notApplicable", "informative"].includes(a.scoreDisplayMode)) {
            failing.push(ref.weight > 0 ? ref.id : ref.id + "(unscored)");
          }
        }
      }
      console.log([process.argv[2].padEnd(8), process.argv[3].padEnd(8), String(cat("accessibility")).padStart(14),
        String(cat("best-practices")).padStart(15), " " + (failing.join(" ") || "none")].join(" "));
    ' "$out" "$site" "$preset"
  done
done
