// MCP Inspector's CLI (@modelcontextprotocol/inspector, pinned in
// package.json) in strict mode on `kessho mcp`'s tools/list, over stdio
// (in the Inspector's default era and in the newest) and over streamable
// HTTP with the Bearer token: its tool-schema
// portability check finds nothing (0 errors, 0 warnings), and the
// command exits 0.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

import { bin, data, here, serveArgs, serveHTTP, temp, vaultCopy } from "./kessho.mjs";

const run = promisify(execFile);
const inspector = join(here, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js");
const served = Object.keys(JSON.parse(readFileSync(join(data, "tools.json"), "utf8"))).sort();

// strict runs `inspector --cli --method tools/list --strict --format json`
// with the given target flags and checks its answer.
async function strict(t, target) {
  // Its catalog (the servers it remembers) in a folder of the test's.
  const env = { ...process.env, MCP_CATALOG_PATH: join(temp(t, "kessho-inspector-"), "mcp.json") };
  let out;
  try {
    out = await run(process.execPath, [inspector, "--cli", "--method", "tools/list", "--strict", "--format", "json", ...target],
      { env, maxBuffer: 64 << 20 });
  } catch (err) {
    assert.fail(`the Inspector's strict check exits ${err.code}: ${err.stderr}`);
  }
  const answer = JSON.parse(out.stdout);
  assert.deepEqual(answer.result.tools.map((t) => t.name).sort(), served, "the Inspector read every tool");
  assert.deepEqual(answer.schemaFindings ?? [], [], "no schema portability finding, error or warning");
  assert.doesNotMatch(out.stderr, /portability|error|warning/i, `the Inspector's standard error: ${out.stderr}`);
}

test("Inspector --strict over stdio: 0 errors, 0 warnings", { timeout: 5 * 60_000 }, async (t) => {
  assert.ok(bin, "KESSHO_BIN names the kessho binary (make test-mcp-clients sets it)");
  await strict(t, ["--", bin, "mcp", "--vault", vaultCopy(t), ...serveArgs]);
});

test("Inspector --strict over stdio, the newest protocol era (2026-07-28): 0 errors, 0 warnings", { timeout: 5 * 60_000 }, async (t) => {
  assert.ok(bin, "KESSHO_BIN names the kessho binary (make test-mcp-clients sets it)");
  await strict(t, ["--protocol-era", "modern", "--", bin, "mcp", "--vault", vaultCopy(t), ...serveArgs]);
});

test("Inspector --strict over streamable HTTP with the token: 0 errors, 0 warnings", { timeout: 5 * 60_000 }, async (t) => {
  assert.ok(bin, "KESSHO_BIN names the kessho binary (make test-mcp-clients sets it)");
  const url = await serveHTTP(t, vaultCopy(t), ["--token", "s3cret"]);
  await strict(t, ["--server-url", url, "--transport", "http", "--header", "Authorization: Bearer s3cret"]);
});

// The negative control: a server whose tool schema holds an error and a
// warning of the check's (testdata/unportable-server.mjs) fails it: exit
// 6, both findings reported. The check above is not one that passes
// everything.
test("Inspector --strict fails a server with an unportable tool schema", { timeout: 5 * 60_000 }, async (t) => {
  const env = { ...process.env, MCP_CATALOG_PATH: join(temp(t, "kessho-inspector-"), "mcp.json") };
  const err = await run(process.execPath, [inspector, "--cli", "--method", "tools/list", "--strict", "--format", "json",
    "--", process.execPath, join(here, "testdata", "unportable-server.mjs")], { env, maxBuffer: 64 << 20 }).then(() => null, (e) => e);
  assert.ok(err, "the check fails");
  assert.equal(err.code, 6, `exit 6 (an error-severity finding): ${err.stderr}`);
  const findings = JSON.parse(err.stdout).schemaFindings.flatMap((r) => r.findings);
  assert.deepEqual(findings.map((f) => `${f.rule ?? f.code}:${f.severity}`).sort(), ["boolean-schema:error", "type-union:warning"]);
});
