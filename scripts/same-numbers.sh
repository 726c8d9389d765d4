#!/usr/bin/env bash
# same-numbers.sh REV: does this working tree print the same tables as commit REV? For a
# refactor that must not change behaviour. It builds `backoffcalc` at REV (in a temporary
# worktree) and here, runs `table -format json` on every link of app/testdata/hostile-links.txt
# (but the ${TEXT*N} ones and those marked slow) and on preset=NAME for every preset of the page
# (as REV names them), and compares stdout, stderr and the exit code of each. It prints the
# count compared and every difference; exit status 1 when any differs. The canonical link that
# the JSON echoes ("query") is not a number: it is compared apart and only counted, so that a
# change of which keys a link writes shows, without hiding a changed number.
set -euo pipefail
rev=${1:?usage: scripts/same-numbers.sh REV}
GO=${GO:-go}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tmp/base" >/dev/null 2>&1; rm -rf "$tmp"' EXIT

git -C "$root" worktree add -q --detach "$tmp/base" "$rev"
(cd "$tmp/base" && "$GO" build -o "$tmp/old" ./app)
(cd "$root" && "$GO" build -o "$tmp/new" ./app)

links=$(grep -v '^#' "$root/app/testdata/hostile-links.txt" | grep -v '^$' | grep -v '\${' |
	awk -F'\t' '$2 !~ /(^| )slow( |$)/ { print $1 }')
# The presets' names, wherever REV keeps them (calc/presets.go before calc/libs, then calc/libs).
presets=$(cd "$tmp/base" && { ls calc/presets.go calc/libs/*.go 2>/dev/null || true; } | grep -v _test.go |
	xargs grep -ho 'Name: *"[a-z0-9-]*"' | sed 's/.*"\(.*\)"/preset=\1/' | sort -u)

n=0 diffs=0 queries=0
# numbers drops the JSON's echo of the canonical link.
numbers() { grep -v '^  "query": '; }
while IFS= read -r q; do
	[ -n "$q" ] || continue
	n=$((n + 1))
	old=$("$tmp/old" table -format json "$q" 2>&1; echo "exit $?")
	new=$("$tmp/new" table -format json "$q" 2>&1; echo "exit $?")
	if [ "$(numbers <<<"$old")" != "$(numbers <<<"$new")" ]; then
		diffs=$((diffs + 1))
		echo "differs: $q"
		diff <(numbers <<<"$old") <(numbers <<<"$new") | head -10 || true
	elif [ "$old" != "$new" ]; then
		queries=$((queries + 1))
	fi
done <<<"$links
$presets"
echo "same-numbers: $n links compared with $rev, $diffs differ ($queries more differ only in the canonical link)"
[ "$diffs" -eq 0 ]
