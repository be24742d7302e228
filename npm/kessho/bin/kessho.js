#!/usr/bin/env node
// The kessho command, from npm: runs the kessho binary of this platform's
// package (@kessho/<platform>-<arch>, one of this package's
// optionalDependencies, the one npm installed here: their "os" and "cpu"
// fields leave the others out) with this command's arguments, standard
// input, output and error, and exits with its exit code.
"use strict";

const { spawn } = require("child_process");
const self = require("../package.json");

const platform = `${process.platform} ${process.arch}`;
const pkg = `@kessho/${process.platform}-${process.arch}`;
const exe = process.platform === "win32" ? "kessho.exe" : "kessho";

function fail(message) {
  process.stderr.write(`kessho: ${message}\n`);
  process.exit(1);
}

const known = Object.keys(self.optionalDependencies || {});
if (!known.includes(pkg)) {
  fail(
    `no kessho binary is published for this platform (${platform}); ` +
      `the npm packages hold ${known.map((p) => p.replace("@kessho/", "")).join(", ")}. ` +
      "Build one from the source with `make cli` (Go alone).",
  );
}

let bin;
try {
  bin = require.resolve(`${pkg}/bin/${exe}`);
} catch {
  fail(
    `the package ${pkg}, which holds the binary for this platform (${platform}), is not installed. ` +
      "npm installs it with kessho unless optional dependencies are left out " +
      "(--omit=optional, --no-optional, or an npm config saying so): install again without that, " +
      `or add it: npm install ${pkg}@${self.version}`,
  );
}

const child = spawn(bin, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
// A signal to this process (a client stopping its MCP server) goes to the
// binary, which then ends as it would have alone.
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP"];
for (const s of forwarded) {
  process.on(s, () => child.kill(s));
}
child.on("error", (err) => fail(`could not run ${bin}: ${err.message}`));
child.on("exit", (code, signal) => {
  if (signal) {
    for (const s of forwarded) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
