#!/usr/bin/env bash
# dist.sh VERSION: the CLI's release archives (`make dist`). Cross-compiles
# kessho for linux, darwin and windows on amd64 and arm64 (CGO_ENABLED=0,
# -trimpath, the version stamped into host/buildinfo; the wasm core
# embedded, so `make wasm` first), packs dist/kessho_VERSION_OS_ARCH.tar.gz
# (.zip for windows) holding kessho (kessho.exe), README.md and LICENSE,
# and dist/SHA256SUMS (host/cmd/distpack), then checks them
# (scripts/check-dist.sh). The builds stay in .work/dist/OS_ARCH/ for
# `make npm`. Run from the repository's root.
set -euo pipefail
version=${1:?usage: dist.sh VERSION}
GO=${GO:-go}
targets=${DIST_TARGETS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64}
bins=.work/dist
[ -s host/engine/module/kessho.wasm ] || { echo "dist.sh: no host/engine/module/kessho.wasm (make wasm)" >&2; exit 1; }
rm -rf "$bins"
for t in $targets; do
  os=${t%/*} arch=${t#*/}
  exe=kessho
  [ "$os" = windows ] && exe=kessho.exe
  echo "dist: building $os/$arch"
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch "$GO" build -trimpath -buildvcs=auto \
    -ldflags "-s -w -X github.com/kessho/kessho/host/buildinfo.stamped=$version" \
    -o "$bins/${os}_$arch/$exe" ./host/cmd/kessho
done
rm -f dist/kessho_*_*_*.tar.gz dist/kessho_*_*_*.zip dist/SHA256SUMS
"$GO" run ./host/cmd/distpack -version "$version" -bin "$bins" -out dist README.md LICENSE
bash scripts/check-dist.sh "$version" dist
