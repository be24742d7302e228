#!/usr/bin/env bash
# deadcode.sh: the functions no program of the repository reaches, tests
# aside; prints them and fails when there is any. The programs are the CLI
# and the repository's tools (./host/cmd/..., native) and the wasm module
# (./wasm, GOOS=wasip1): a function is dead when neither build reaches it
# (a package of one build only is judged by that build alone). Functions
# of internal packages (test and benchmark helpers) are left out: what no
# test reaches either is `deadcode -test`'s finding (make check runs both).
#
# deadcode roots a program at main and the init functions, not at the
# wasm module's //go:wasmexport functions (its main is empty: the host
# calls the exports), so the module is analysed through a copy of ./wasm
# with one more file that refers to every export.
#
# ALLOW lists the dead functions that stay for now, each with its reason
# (one "file: function" a line, a # comment after it); an entry no longer
# dead fails too, so the list only shrinks. It is empty: a test helper
# belongs in a _test.go file or an internal package.
#
# DEADCODE_PKG is the deadcode to run, as go install names it (make check
# gives its pinned version), built for this machine (a `go run` under
# GOOS=wasip1 would build it for wasm); DEADCODE, when set, is a deadcode
# binary to run instead. GO is the go command.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}

# file: function, as deadcode names them (positions dropped).
ALLOW=$(sed -e 's/[[:space:]]*#.*//' -e '/^$/d' <<'EOF'
EOF
)

tmp=$(mktemp -d)
root=$(pwd)
mkdir -p .work
copy=$(mktemp -d .work/deadcode-wasm.XXXXXX)
trap 'rm -rf "$tmp" "$copy"' EXIT
if [ -z "${DEADCODE:-}" ]; then
  GOOS= GOARCH= GOBIN="$tmp/bin" $GO install "${DEADCODE_PKG:-golang.org/x/tools/cmd/deadcode@v0.52.0}"
  DEADCODE=$tmp/bin/deadcode
fi
cp wasm/*.go "$copy"/
{
  printf '//go:build wasip1\n\npackage main\n\n// The exports, as roots of the analysis.\nvar _ = []any{'
  awk '/^\/\/go:wasmexport /{getline; sub(/^func /, ""); sub(/\(.*/, ""); printf "%s, ", $0}' wasm/*.go
  printf '}\n'
} >"$copy/zz_deadcode_roots.go"

# The module's Go files each build compiles, relative to the root.
files() {
  $GO list -deps -f '{{if .Module}}{{if .Module.Main}}{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}
{{end}}{{end}}{{end}}' "$@" | sed "s|^$root/||" | sort -u
}
files ./host/cmd/... >"$tmp/native.files"
GOOS=wasip1 GOARCH=wasm files ./wasm >"$tmp/wasm.files"

# deadcode's findings as "file: function", sorted.
findings() { sed -E "s|^$copy/|wasm/|; s|^([^:]+):[0-9]+:[0-9]+: unreachable func: |\1: |" | sort -u; }
$DEADCODE ./host/cmd/... | findings >"$tmp/native"
GOOS=wasip1 GOARCH=wasm $DEADCODE "./$copy" | findings >"$tmp/wasm"

only() { # the findings of $1 whose file the other build ($2) does not compile
  awk -F': ' 'NR == FNR { built[$0] = 1; next } !($1 in built)' "$2" "$1"
}
{
  comm -12 "$tmp/native" "$tmp/wasm"
  only "$tmp/native" "$tmp/wasm.files"
  only "$tmp/wasm" "$tmp/native.files"
} | grep -v '/internal/' | sort -u >"$tmp/dead" || true

printf '%s\n' "$ALLOW" | sed '/^$/d' | sort -u >"$tmp/allow"
fail=0
if new=$(comm -23 "$tmp/dead" "$tmp/allow") && [ -n "$new" ]; then
  echo "dead code (no program reaches it: delete it, or move a test helper into a _test.go file or an internal package):"
  echo "$new"
  fail=1
fi
if gone=$(comm -13 "$tmp/dead" "$tmp/allow") && [ -n "$gone" ]; then
  echo "scripts/deadcode.sh: ALLOW lists functions that are no longer dead; remove them:"
  echo "$gone"
  fail=1
fi
exit $fail
