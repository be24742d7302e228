#!/usr/bin/env bash
# npm.sh VERSION: the npm packages (`make npm`, after `make dist`). Copies
# each package of npm/ into .work/npm/ (npm/ keeps only their sources),
# puts in each platform package (@kessho/<os>-<cpu>) the binary `make
# dist` built for it (.work/dist/<goos>_<goarch>/) and the LICENSE, packs
# them all with `npm pack` into dist/npm/, then checks the tarballs
# (scripts/check-npm.sh). Every package.json must say VERSION, the
# binaries' version, and kessho's optionalDependencies name every platform
# package at VERSION. Run from the repository's root.
set -euo pipefail
version=${1:?usage: npm.sh VERSION}
NPM=${NPM:-npm}
stage=.work/npm out=dist/npm
fail() { echo "npm.sh: $*" >&2; exit 1; }

# The versions, before anything is packed.
node - "$version" npm/kessho/package.json npm/@kessho/*/package.json <<'JS' || exit 1
const fs = require("fs");
const [version, mainFile, ...platformFiles] = process.argv.slice(2);
const read = (f) => JSON.parse(fs.readFileSync(f, "utf8"));
const main = read(mainFile);
const bad = [];
if (main.version !== version) bad.push(`${mainFile} says ${main.version}`);
const deps = main.optionalDependencies || {};
const names = platformFiles.map((f) => read(f).name);
for (const f of platformFiles) {
  const p = read(f);
  if (p.version !== version) bad.push(`${f} says ${p.version}`);
  if (deps[p.name] !== version) bad.push(`${mainFile}'s optionalDependencies give ${p.name} ${deps[p.name]}`);
}
for (const d of Object.keys(deps)) if (!names.includes(d)) bad.push(`${mainFile} depends on ${d}, which npm/ does not hold`);
if (bad.length) {
  console.error(`npm.sh: the packages must all be version ${version} (the binaries'):\n  ${bad.join("\n  ")}`);
  process.exit(1);
}
JS

rm -rf "$stage" "$out"
mkdir -p "$stage/@kessho" "$out"
out_abs=$(cd "$out" && pwd)
for dir in npm/@kessho/*/; do
  name=$(basename "$dir")           # linux-x64
  os=${name%-*} cpu=${name#*-}
  goos=$os goarch=$cpu exe=kessho
  [ "$os" = win32 ] && goos=windows exe=kessho.exe
  [ "$cpu" = x64 ] && goarch=amd64
  bin=.work/dist/${goos}_$goarch/$exe
  [ -f "$bin" ] || fail "no $bin: run make dist first"
  cp -R "$dir" "$stage/@kessho/$name"
  mkdir -p "$stage/@kessho/$name/bin"
  install -m 0755 "$bin" "$stage/@kessho/$name/bin/$exe"
  cp LICENSE "$stage/@kessho/$name/"
  (cd "$stage/@kessho/$name" && "$NPM" pack --quiet --pack-destination "$out_abs" >/dev/null)
done
cp -R npm/kessho "$stage/kessho"
cp LICENSE "$stage/kessho/"
(cd "$stage/kessho" && "$NPM" pack --quiet --pack-destination "$out_abs" >/dev/null)
ls "$out" | sed 's/^/npm.sh: packed dist\/npm\//'
NPM=$NPM bash scripts/check-npm.sh "$version" "$out"
