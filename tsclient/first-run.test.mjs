// A newcomer's first run, as the README tells it, on a clean home (its
// own HOME and XDG_CACHE_HOME: no compiled sandbox, no settings):
//
//	make install PREFIX=…        the binary, and the sandbox compiled now
//	kessho init                  a vault, in an empty folder
//	kessho init alpha --summary  its first project
//	an agent connects (the official TypeScript SDK's client, its defaults:
//	no timeout of ours) and its first call, mem_recall, answers
//
// Run by `make test-mcp-clients` (part of `make test`), with the repo's
// Makefile and the binary it built (KESSHO_BIN: make install copies it).

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");

test("the README's first run: install, a vault, a project, an agent's first call answers", { timeout: 600_000 }, async (t) => {
  const root = mkdtempSync(join(tmpdir(), "kessho-first-run-"));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const home = join(root, "home");
  const env = { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, ".cache") };
  delete env.KESSHO_VAULT;
  const prefix = join(root, "prefix");

  const installed = execFileSync("make", ["-s", "-C", repo, "install", `PREFIX=${prefix}`], { env, encoding: "utf8" });
  const kessho = join(prefix, "bin", "kessho");
  assert.ok(existsSync(kessho), installed);
  assert.match(installed, /the sandbox is compiled/);
  assert.ok(readdirSync(join(home, ".cache", "kessho")).length > 0, "make install compiled nothing into the cache");

  const vault = join(root, "notes");
  const made = execFileSync(kessho, ["--vault", vault, "init"], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  assert.match(made, /init SLUG/, "no terminal: init says how to make the first project");
  execFileSync(kessho, ["--vault", vault, "init", "alpha", "--summary", "My first project."], { env, encoding: "utf8" });

  const client = new Client({ name: "first-run", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: kessho, args: ["mcp", "--vault", vault], env, stderr: "pipe" }));
  t.after(() => client.close());
  const r = await client.callTool({ name: "mem_recall", arguments: { slug: "alpha" } });
  assert.notEqual(r.isError, true, JSON.stringify(r));
  assert.equal(r.structuredContent?.slug, "alpha", JSON.stringify(r.structuredContent));
  assert.match(JSON.stringify(r.structuredContent), /My first project\./);
});
