#!/usr/bin/env bash
# Installs Debian's ripgrep for `make bench`, when it is missing: issue 13
# measures `kessho search` against `rg -il` side by side
# (BenchmarkSearch/*/cli), which would otherwise skip itself.
set -euo pipefail
if command -v rg >/dev/null; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "ensure-rg: rg is missing; run as root, or: sudo apt-get install -y ripgrep" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq ripgrep >/dev/null
command -v rg >/dev/null
