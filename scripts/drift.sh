#!/usr/bin/env bash
# drift.sh: do the presets and exports still match the newest versions of the Go libraries they
# reproduce? make drift runs it; a maintainer runs it before a release. It is not part of make
# test, which must stay deterministic and pinned.
#
# It copies this module into a temporary directory, moves the libraries there to @latest (the
# newest release: go get never picks a pre-release for @latest), and runs the tests of calc/libs
# that draw from the real modules (the presets and the exported configurations). It prints the
# versions it tested, then every failing line, each naming the preset or the export and the
# policy. Exit status: 0 when nothing drifted, 1 when something did, 2 when the update failed.
# It needs only Go and the module proxy.
set -euo pipefail

GO=${GO:-go}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The libraries the presets and exports reproduce, and the tests that draw from them.
mods=(
	github.com/cenkalti/backoff/v5
	k8s.io/apimachinery
	k8s.io/client-go
	github.com/aws/aws-sdk-go-v2
	github.com/aws/aws-sdk-go-v2/config
	google.golang.org/grpc
	github.com/hashicorp/go-retryablehttp
	go.temporal.io/sdk
	github.com/failsafe-go/failsafe-go
	github.com/cenkalti/backoff/v4
)
# github.com/dapr/kit (the Dapr presets) stays at its pin: the module proxy this project reaches
# lists none of its versions, so @latest does not resolve; its waits are cenkalti/backoff/v4's.
# In calc/libs: presets_real_test.go and presets_real_mesh_test.go (the presets) and
# exports_real_test.go (the exports).
tests='^(TestCenkaltiBackoffV5|TestKubernetesWaitBackoff|TestKubernetesCapStops|TestAWSGoV2|TestRetryableHTTP|TestTemporalRetryPolicy|TestFailsafeRetryPolicy|TestDaprKitRetry|TestExport.*Real)$'

(cd "$root" && tar --exclude=./.git --exclude=./bin --exclude=./web/app.wasm -cf - .) | (cd "$tmp" && tar -xf -)
cd "$tmp"

pinned=$($GO list -m -f '{{.Path}} {{.Version}}' "${mods[@]}")
latest=()
for m in "${mods[@]}"; do latest+=("$m@latest"); done
if ! $GO get "${latest[@]}" >get.log 2>&1 || ! $GO mod tidy >>get.log 2>&1; then
	echo "drift: could not move to the newest versions:"
	cat get.log
	exit 2
fi

echo "drift: the libraries at their newest versions (pinned in go.mod: the second column)"
while read -r path version; do
	was=$(awk -v p="$path" '$1 == p { print $2 }' <<<"$pinned")
	printf '  %-40s %-12s %s\n' "$path" "$version" "$was"
done < <($GO list -m -f '{{.Path}} {{.Version}}' "${mods[@]}")

status=0
$GO test -count=1 -run "$tests" ./calc/libs >libs.log 2>&1 || status=1
if [ "$status" -eq 0 ]; then
	echo "drift: none: every preset and export drawn from these versions matches its table"
	exit 0
fi
echo "drift: these presets or exports no longer match the library at the version above:"
grep -h -E '^\s+\S+_test\.go:[0-9]+:|^(--- FAIL|FAIL|panic)' libs.log || cat libs.log
exit 1
