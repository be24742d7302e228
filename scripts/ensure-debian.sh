#!/usr/bin/env bash
# ensure-debian.sh COMMAND PACKAGE: installs Debian's PACKAGE when COMMAND
# (a name on PATH, or a path) is missing; never downloads it any other way.
# make bench needs ripgrep (BenchmarkSearch measures `kessho search`
# against `rg -il`), the plugin's browser tests Debian's chromium.
set -euo pipefail
cmd=$1 pkg=$2
if command -v "$cmd" >/dev/null; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "ensure-debian: $cmd is missing; run as root, or: sudo apt-get install -y $pkg" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "$pkg" >/dev/null
command -v "$cmd" >/dev/null
