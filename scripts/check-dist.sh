#!/usr/bin/env bash
# check-dist.sh VERSION [DIR]: checks what `make dist` made in DIR (dist):
# the six archives kessho_VERSION_OS_ARCH.tar.gz (.zip for windows), each
# holding exactly kessho (kessho.exe, executable), README.md and LICENSE,
# the docs the same bytes as the repository's; SHA256SUMS listing exactly
# them, and matching (sha256sum -c). Then it unpacks the linux/amd64 one
# and runs `kessho --version` (which must name VERSION) and a tool call on
# a temporary vault (kessho init, then call mem_list on the wasm engine:
# the sandbox must be embedded). Each binary's build information (go
# version -m) must say its GOOS, GOARCH, CGO_ENABLED=0 and -trimpath (it
# records no -ldflags with -trimpath). Needs tar, unzip, sha256sum and go.
set -euo pipefail
version=${1:?usage: check-dist.sh VERSION [DIR]}
dir=${2:-dist}
fail() { echo "check-dist: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

want=""
for t in linux_amd64 linux_arm64 darwin_amd64 darwin_arm64 windows_amd64 windows_arm64; do
  ext=tar.gz exe=kessho
  case $t in windows_*) ext=zip exe=kessho.exe ;; esac
  a=kessho_${version}_$t.$ext
  want="$want$a"$'\n'
  [ -f "$dir/$a" ] || fail "missing $dir/$a"
  mkdir "$tmp/$t"
  if [ "$ext" = zip ]; then
    list=$(unzip -Z1 "$dir/$a" | sort)
    unzip -q "$dir/$a" -d "$tmp/$t"
  else
    list=$(tar -tzf "$dir/$a" | sort)
    tar -xzf "$dir/$a" -C "$tmp/$t"
  fi
  expected=$(printf '%s\n' LICENSE README.md "$exe" | sort)
  [ "$list" = "$expected" ] || fail "$a holds: $(echo $list); want: $(echo $expected)"
  [ -x "$tmp/$t/$exe" ] || fail "$a: $exe is not executable"
  [ "$(stat -c %s "$tmp/$t/$exe")" -gt 1000000 ] || fail "$a: $exe is too small to be kessho"
  # What the toolchain recorded in the binary: its target, and how built.
  m=$("${GO:-go}" version -m "$tmp/$t/$exe") || fail "$a: go version -m cannot read $exe"
  for want_setting in "GOOS=${t%_*}" "GOARCH=${t#*_}" "CGO_ENABLED=0" "-trimpath=true"; do
    echo "$m" | grep -q -- "$want_setting" || fail "$a: $exe was not built with $want_setting"
  done
  cmp -s "$tmp/$t/README.md" README.md || fail "$a: README.md is not the repository's"
  cmp -s "$tmp/$t/LICENSE" LICENSE || fail "$a: LICENSE is not the repository's"
  echo "check-dist: $a: $(echo $list)"
done

listed=$(awk '{print $2}' "$dir/SHA256SUMS" | sort)
[ "$listed" = "$(printf '%s' "$want" | sort)" ] || fail "SHA256SUMS lists: $(echo $listed)"
(cd "$dir" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match"
echo "check-dist: SHA256SUMS: 6 archives, all match"

# The linux/amd64 build, run: here when this machine is one.
if [ "$(uname -s)/$(uname -m)" != Linux/x86_64 ]; then
  echo "check-dist: not on linux/amd64; the binary was not run"
  exit 0
fi
bin=$tmp/linux_amd64/kessho
export XDG_CACHE_HOME=$tmp/cache
out=$("$bin" --version)
echo "$out" | sed 's/^/check-dist: kessho --version: /'
first=$(echo "$out" | head -1)
case "$first" in
  "kessho $version" | "kessho $version ("*) ;;
  *) fail "kessho --version says \"$first\", want kessho $version" ;;
esac
mkdir "$tmp/vault"
"$bin" --vault "$tmp/vault" init >/dev/null
"$bin" --vault "$tmp/vault" init alpha --summary "The check's project." >/dev/null
out=$("$bin" --vault "$tmp/vault" --engine wasm call mem_list --json '{}')
echo "$out" | grep -q '"alpha"' || fail "mem_list on the temporary vault answered: $out"
echo "check-dist: kessho call mem_list (wasm engine) on a temporary vault: alpha listed"
