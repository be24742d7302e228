#!/usr/bin/env bash
# reproduce.sh: builds the plugin's main.js a second time, independently
# of the first, and checks that both are the same bytes (`make reproduce`,
# run by `make test` after the plugin's suite; REVIEW.md).
#
# The second build starts from the tracked files alone, copied to a
# temporary folder (another path, no git work tree, nothing untracked),
# compiles the wasm core there with an empty Go build cache (so nothing is
# reused from the first build) and without the environment's GOFLAGS, and
# bundles main.js from it with the plugin's own esbuild (npm ci's
# node_modules) into a temporary file, compressing the core again (an
# empty zstd cache). It then compares the core with
# host/engine/module/kessho.wasm and main.js with plugin-shim/main.js,
# and prints both SHA-256 sums, which a reviewer compares with a release's.
# Run from the repository's root after `make plugin`.
set -euo pipefail
GO=${GO:-go}
main=plugin-shim/main.js wasm=host/engine/module/kessho.wasm
for f in "$main" "$wasm" bin/kessho; do
  [ -s "$f" ] || { echo "reproduce.sh: no $f (run \`make plugin\` first)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
git ls-files -z | (cd "$(git rev-parse --show-toplevel)" && xargs -0 cp --parents -t "$tmp")
(cd "$tmp" && env -u GOFLAGS GOCACHE="$tmp/.gocache" GOOS=wasip1 GOARCH=wasm \
  "$GO" build -buildmode=c-shared -trimpath -buildvcs=false -ldflags="-s -w" -o "$tmp/kessho.wasm" ./wasm)
if ! cmp -s "$tmp/kessho.wasm" "$wasm"; then
  echo "reproduce.sh: the wasm core built again differs from $wasm (its sources changed since \`make wasm\`, or the build is not reproducible)" >&2
  exit 1
fi
(cd plugin-shim && KESSHO_WASM="$tmp/kessho.wasm" KESSHO_MAIN_OUT="$tmp/main.js" KESSHO_ZSTD_CACHE="$tmp/.zstd" \
  node scripts/build.mjs >/dev/null)
if ! cmp -s "$tmp/main.js" "$main"; then
  echo "reproduce.sh: main.js built again differs from $main (run \`make plugin\`; if it still differs, the build is not reproducible)" >&2
  exit 1
fi
echo "reproduce: two builds match"
sha256sum "$wasm" "$main"
