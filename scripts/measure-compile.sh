#!/usr/bin/env bash
# measure-compile.sh [KESSHO] [RUNS]: the sandbox's cold start, measured.
# Runs `kessho --engine wasm list` (default bin/kessho, built by `make
# build`) on an empty compilation cache RUNS times (default 3), idle and
# then beside two busy loops (`sh -c 'while :; do :; done'`, killed
# after), and prints each run's wall time and CPU time (user + sys): the
# module's compilation, and one call. Then a warm start's time, and the
# read system calls it makes on the compiled module's file (with strace,
# when installed). docs/PERFORMANCE.md keeps the figures.
set -euo pipefail
bin=${1:-bin/kessho}
runs=${2:-3}
tmp=$(mktemp -d)
# A copy of the clients' vault: even a read-only call makes .kessho/lock.
vault=$tmp/vault
cp -R "$(cd "$(dirname "$0")/.." && pwd)/host/mcp/testdata/clients/vault" "$vault"
busy=()
cleanup() {
  for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
echo "kessho: $("$bin" version | head -1)"

# cold LABEL: RUNS starts on an empty cache, a line each.
cold() {
  for i in $(seq "$runs"); do
    cache="$tmp/cold-$1-$i"
    /usr/bin/time -f "%e %U %S" -o "$tmp/time" env XDG_CACHE_HOME="$cache" \
      "$bin" --engine wasm --vault "$vault" list >/dev/null
    read -r wall user sys <"$tmp/time"
    printf '%s cold start %d: %.1f s wall, %.1f s CPU (loadavg %s)\n' "$1" "$i" "$wall" \
      "$(echo "$user + $sys" | bc)" "$(cut -d' ' -f1 /proc/loadavg)"
  done
}

cold idle
for _ in 1 2; do
  sh -c 'while :; do :; done' &
  busy+=($!)
done
sleep 2
cold "2 busy loops"
for pid in "${busy[@]}"; do kill "$pid"; done
busy=()

warm="$tmp/cold-idle-1"
/usr/bin/time -f "%e %U %S" -o "$tmp/time" env XDG_CACHE_HOME="$warm" "$bin" --engine wasm --vault "$vault" list >/dev/null
read -r wall user sys <"$tmp/time"
printf 'warm start: %.2f s wall, %.2f s CPU\n' "$wall" "$(echo "$user + $sys" | bc)"
if command -v strace >/dev/null; then
  XDG_CACHE_HOME="$warm" strace -f -y -e trace=read -o "$tmp/strace" "$bin" --engine wasm --vault "$vault" list >/dev/null
  echo "warm start: $(grep -c 'read([0-9]*</[^>]*/wazero-v[^>]*>' "$tmp/strace") reads of the compiled module's file"
fi
