#!/usr/bin/env bash
# check-npm.sh VERSION [DIR]: checks the npm tarballs `make npm` packed in
# DIR (dist/npm): kessho-VERSION.tgz (package.json, the launcher, README,
# LICENSE) and one kessho-<os>-<cpu>-VERSION.tgz per platform (package.json,
# LICENSE, the binary, executable). Then, with no registry (--offline, an
# empty cache), it installs kessho's tarball and this machine's platform
# package's into a temporary folder, as a user's `npm install kessho`
# would end up, and checks that every installed package.json says VERSION,
# that `npx kessho --version` names it, that a tool call works on a
# temporary vault (kessho init, then call mem_list), that the exit code
# comes through (2 for an unknown help topic), and that `kessho mcp`
# answers initialize and a tools/call over the launcher's stdio. Last, it
# installs kessho's tarball alone: the launcher must then fail, naming the
# platform and the package to add.
set -euo pipefail
version=${1:?usage: check-npm.sh VERSION [DIR]}
dir=$(cd "${2:-dist/npm}" && pwd)
NPM=${NPM:-npm}
fail() { echo "check-npm: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache # kessho's compilation cache: not the user's

layout() { # TARBALL FILE…: the tarball holds exactly these files under package/
  local got want
  got=$(tar -tzf "$dir/$1" | sort)
  want=$(for f in "${@:2}"; do echo "package/$f"; done | sort)
  [ "$got" = "$want" ] || fail "$1 holds: $(echo $got); want: $(echo $want)"
  echo "check-npm: $1: $(echo $got)"
}
layout "kessho-$version.tgz" package.json bin/kessho.js README.md LICENSE
for p in linux-x64 linux-arm64 darwin-x64 darwin-arm64 win32-x64 win32-arm64; do
  exe=kessho
  case $p in win32-*) exe=kessho.exe ;; esac
  t=kessho-$p-$version.tgz
  layout "$t" package.json LICENSE "bin/$exe"
  tar -tvzf "$dir/$t" "package/bin/$exe" | grep -q '^-rwx' || fail "$t: bin/$exe is not executable"
done

here=$(node -p 'process.platform + "-" + process.arch')
[ -f "$dir/kessho-$here-$version.tgz" ] || fail "no package for this machine ($here)"
install() { # FOLDER TARBALL…
  mkdir -p "$1"
  echo '{"private": true}' > "$1/package.json"
  (cd "$1" && "$NPM" install --offline --no-audit --no-fund --loglevel=error \
    --cache "$tmp/npm-cache" "${@:2}" >/dev/null)
}
install "$tmp/app" "$dir/kessho-$version.tgz" "$dir/kessho-$here-$version.tgz"
cd "$tmp/app"

node - "$version" "@kessho/$here" <<'JS' || exit 1
const [version, platformPkg] = process.argv.slice(2);
const main = require("kessho/package.json");
const plat = require(`${platformPkg}/package.json`);
const bad = [];
if (main.version !== version) bad.push(`kessho is ${main.version}`);
if (plat.version !== version) bad.push(`${platformPkg} is ${plat.version}`);
for (const [d, v] of Object.entries(main.optionalDependencies)) if (v !== version) bad.push(`kessho wants ${d}@${v}`);
if (bad.length) { console.error(`check-npm: not all version ${version}: ${bad.join(", ")}`); process.exit(1); }
JS
echo "check-npm: installed kessho and @kessho/$here, both $version, from the tarballs alone"

out=$("$NPM" exec --offline --cache "$tmp/npm-cache" -- kessho --version)
echo "$out" | sed 's/^/check-npm: npx kessho --version: /'
case "$(echo "$out" | head -1)" in
  "kessho $version" | "kessho $version ("*) ;;
  *) fail "npx kessho --version says \"$(echo "$out" | head -1)\", want kessho $version" ;;
esac

k=node_modules/.bin/kessho
mkdir "$tmp/vault"
$k --vault "$tmp/vault" init >/dev/null
$k --vault "$tmp/vault" init alpha --summary "The check's project." >/dev/null
out=$($k --vault "$tmp/vault" call mem_list --json '{}')
echo "$out" | grep -q '"slug":"alpha"' || fail "kessho call mem_list answered: $out"
echo "check-npm: kessho call mem_list on a temporary vault: alpha listed"

set +e
$k help no-such-topic >/dev/null 2>&1
rc=$?
set -e
[ "$rc" = 2 ] || fail "kessho help no-such-topic exited $rc through the launcher, want 2"
echo "check-npm: the launcher passes the exit code through (2)"

node - "$k" "$tmp/vault" <<'JS' || exit 1
// kessho mcp through the launcher: initialize, then tools/call mem_list.
const { spawn } = require("child_process");
const [k, vault] = process.argv.slice(2);
const mcp = spawn(k, ["mcp", "--vault", vault, "--engine", "native"], { stdio: ["pipe", "pipe", "inherit"] });
const send = (m) => mcp.stdin.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");
let buf = "";
const timer = setTimeout(() => { console.error("check-npm: kessho mcp did not answer in 30 s"); process.exit(1); }, 30000);
mcp.stdout.on("data", (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf("\n")) >= 0) {
    const m = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    if (m.id === 1) {
      send({ method: "notifications/initialized" });
      send({ id: 2, method: "tools/call", params: { name: "mem_list", arguments: {} } });
    } else if (m.id === 2) {
      const text = JSON.stringify(m.result || m.error);
      if (!text.includes("alpha")) { console.error(`check-npm: mcp tools/call mem_list answered ${text}`); process.exit(1); }
      mcp.stdin.end();
    }
  }
});
mcp.on("exit", (code) => {
  clearTimeout(timer);
  if (code !== 0) { console.error(`check-npm: kessho mcp exited ${code}`); process.exit(1); }
  console.log("check-npm: kessho mcp over the launcher's stdio: initialize, tools/call mem_list (alpha listed), exit 0 at end of input");
});
send({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "check-npm", version: "1" } } });
JS

cd "$tmp"
install "$tmp/alone" "$dir/kessho-$version.tgz"
set +e
err=$("$tmp/alone/node_modules/.bin/kessho" --version 2>&1)
rc=$?
set -e
[ "$rc" = 1 ] || fail "without a platform package the launcher exited $rc, want 1"
plat=$(node -p 'process.platform + " " + process.arch')
case "$err" in
  *"@kessho/$here"*"($plat)"*) ;;
  *) fail "without a platform package the launcher said: $err" ;;
esac
echo "check-npm: kessho alone (no platform package) fails: $err"
