// The official MCP conformance suite (@modelcontextprotocol/conformance,
// pinned in package.json) against `kessho mcp` over streamable HTTP: every
// server scenario (--suite all), with conformance/expected-failures.yaml
// as the baseline. The suite tests a server by its URL only (no stdio,
// no header option): the server runs on loopback with --no-auth.
//
// Offline: the suite is its own client and fixture servers, nothing it
// runs reaches the network.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

import { bin, here, serveHTTP, temp, vaultCopy } from "./kessho.mjs";

const run = promisify(execFile);
const suite = join(here, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const baseline = join(here, "conformance", "expected-failures.yaml");
// Node.js 20 lacks fs.globSync, which the suite imports: node20.mjs.
const node = [process.execPath, "--import", join(here, "conformance", "node20.mjs"), suite];

// What an expected failure may fail on: the suite's own fixtures, absent
// from Kessho (an unknown tool or prompt, a test:// resource).
const fixture = /unknown tool "test_|unknown prompt "test_|Resource not found|not a kessho:\/\/ resource|Tool 'json_schema_2020_12_tool' not found/;
// The warnings a baselined scenario may give (see the baseline's last
// entry); the suite's baseline counts a warning as a failure.
const warnings = { "server-sse-polling": ["server-sse-priming-event", "server-sse-retry-field"] };

function expected() {
  return readFileSync(baseline, "utf8").split("\n")
    .map((l) => l.match(/^\s*-\s*(\S+)/)?.[1]).filter(Boolean);
}

// serverScenarios is the suite's list of server scenarios.
async function serverScenarios() {
  const { stdout } = await run(node[0], [...node.slice(1), "list"]);
  const section = stdout.split(/Client scenarios/)[0];
  return [...section.matchAll(/^\s*-\s*(\S+)/gm)].map((m) => m[1]);
}

test("the MCP conformance suite's server scenarios: no failure outside the baseline", { timeout: 5 * 60_000 }, async (t) => {
  assert.ok(bin, "KESSHO_BIN names the kessho binary (make test-mcp-clients sets it)");
  const url = await serveHTTP(t, vaultCopy(t), ["--no-auth"]);
  const out = temp(t, "kessho-conformance-");
  let stdout, code = 0;
  try {
    ({ stdout } = await run(node[0], [...node.slice(1), "server", "--url", url, "--suite", "all",
      "--expected-failures", baseline, "-o", out], { maxBuffer: 64 << 20 }));
  } catch (err) {
    ({ stdout, code } = err);
  }
  const summary = stdout.slice(stdout.indexOf("=== SUMMARY ==="));
  t.diagnostic(summary);

  // Every scenario's checks, by scenario (the folders are
  // server-<scenario>-<time>).
  const checks = {};
  for (const d of readdirSync(out)) {
    const name = d.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT.*$/, "");
    checks[name] = JSON.parse(readFileSync(join(out, d, "checks.json"), "utf8"));
  }
  const scenarios = await serverScenarios();
  assert.ok(scenarios.length > 20, `the suite lists its server scenarios: ${scenarios}`);
  assert.deepEqual(Object.keys(checks).sort(), [...scenarios].sort(), "every server scenario ran");

  const baselined = new Set(expected());
  const failures = (name) => checks[name].filter((c) => c.status === "FAILURE" || c.status === "WARNING");
  for (const name of scenarios) {
    const failed = failures(name);
    if (!baselined.has(name)) {
      assert.deepEqual(failed.map((c) => `${c.id}: ${c.errorMessage}`), [], `${name} passes`);
      continue;
    }
    assert.ok(failed.length > 0, `${name} is in the baseline and passes now: remove it from ${baseline}`);
    for (const c of failed) {
      if (c.status === "WARNING") {
        assert.ok(warnings[name]?.includes(c.id), `${name}: a warning the baseline does not allow: ${c.id}: ${c.errorMessage}`);
      } else {
        assert.match(c.errorMessage ?? "", fixture, `${name} fails only for want of the suite's fixtures`);
      }
    }
  }
  for (const name of baselined) assert.ok(name in checks, `the baseline's ${name} is a server scenario`);
  for (const name of scenarios) {
    for (const c of checks[name].filter((c) => c.status === "WARNING")) {
      t.diagnostic(`warning: ${name}: ${c.id}: ${c.errorMessage}`);
    }
  }
  assert.equal(code, 0, `the suite's own baseline check passes:\n${summary}`);
});
