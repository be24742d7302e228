// The clients' test of `kessho mcp` with the official TypeScript SDK's
// client (@modelcontextprotocol/sdk, pinned in package.json and
// package-lock.json), over stdio and over streamable HTTP: the same test
// the Go SDK's client passes (host/mcp/clients_test.go), on the same files
// (host/mcp/testdata/clients: the vault, calls.json, tools.json).
//
// Run by `make test-mcp-clients` (part of `make test`), which builds the
// binary and passes its path in KESSHO_BIN. Each server starts with a new
// wasm compilation cache (XDG_CACHE_HOME). With --engine wasm its first
// call waits for the module to compile: the test sees that call's
// progress, then cancels it. Without --engine (the last test) that first
// call answers at once, on the native engine.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import Ajv from "ajv";
import { servingURL } from "./kessho.mjs";

const bin = process.env.KESSHO_BIN;
const data = join(dirname(fileURLToPath(import.meta.url)), "..", "host", "mcp", "testdata", "clients");
const calls = JSON.parse(readFileSync(join(data, "calls.json"), "utf8")).calls;
const served = JSON.parse(readFileSync(join(data, "tools.json"), "utf8"));
// The flags both client tests serve with: answers that do not depend on
// the day, and the sandbox only, so that the first call waits for it.
const dayArgs = ["--now", "2026-11-30T10:15:00+01:00", "--tz", "Europe/Paris"];
const clientArgs = [...dayArgs, "--engine", "wasm"];
// patient is every request's options: the SDK's 60 s default is no bound
// for a call that waits for the module to compile on a loaded machine;
// 10 minutes only stop a hang. hang is each test's own bound.
const patient = { timeout: 10 * 60_000 };
const hang = { timeout: 20 * 60_000 };

// temp makes a temporary folder, removed when the test ends.
function temp(t, prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// vaultCopy copies the clients' vault to a new folder.
function vaultCopy(t) {
  const dir = temp(t, "kessho-ts-vault-");
  cpSync(join(data, "vault"), dir, { recursive: true });
  return dir;
}

// coldEnv is the environment with a new, empty compilation cache.
function coldEnv(t) {
  return { ...process.env, XDG_CACHE_HOME: temp(t, "kessho-ts-cache-") };
}

function contextOf(dir) {
  return readFileSync(join(dir, "10-episodes", "projects", "alpha", "context.md"), "utf8");
}

// exercise is the clients' test on a connected client of a server whose
// engine is still compiling, on a copy of the clients' vault in dir.
async function exercise(client, dir) {
  // A cold start: the first call is told it waits for the engine; it is
  // cancelled then, rejects at once, and writes nothing (mem_update_phase
  // below finds phase "start").
  const abort = new AbortController();
  const notes = [];
  let firstNote;
  const noted = new Promise((resolve) => (firstNote = resolve));
  const cancelled = client.callTool(
    { name: "mem_update_phase", arguments: { slug: "alpha", phase: "cancelled" } },
    undefined,
    { ...patient, signal: abort.signal, onprogress: (p) => { notes.push(p); firstNote(); } },
  );
  await noted;
  assert.match(notes[0].message, /engine/, "the first progress notification is about the engine's start");
  abort.abort();
  await assert.rejects(cancelled, "the cancelled call rejects");

  // Tools: every one, annotations and output schema as tools.json says.
  const { tools } = await client.listTools(undefined, patient);
  assert.deepEqual(tools.map((t) => t.name).sort(), Object.keys(served).sort());
  const ajv = new Ajv({ strict: false, allErrors: true });
  const validators = {};
  for (const tool of tools) {
    assert.deepEqual(tool.annotations, served[tool.name].annotations, `${tool.name}: annotations`);
    assert.deepEqual(tool.outputSchema, served[tool.name].outputSchema, `${tool.name}: outputSchema`);
    validators[tool.name] = ajv.compile(tool.outputSchema);
  }

  // Every tool called, structuredContent valid against its outputSchema.
  const called = new Set();
  for (const [i, c] of calls.entries()) {
    const res = await client.callTool({ name: c.tool, arguments: c.args }, undefined, patient);
    const text = res.content[0].text;
    assert.equal(res.isError ?? false, false, `call ${i}, ${c.tool}: refused: ${text}`);
    const validate = validators[c.tool];
    assert.ok(validate(res.structuredContent), `call ${i}, ${c.tool}: ${ajv.errorsText(validate.errors)}`);
    assert.deepEqual(JSON.parse(text), res.structuredContent, "the text content is the structuredContent's JSON");
    if (c.tool === "mem_update_phase") {
      assert.equal(res.structuredContent.previous_phase, "start", "the cancelled call did not land");
    }
    called.add(c.tool);
  }
  assert.deepEqual([...called].sort(), Object.keys(served).sort(), "calls.json calls every tool");

  // Prompts, resources and templates.
  const { prompts } = await client.listPrompts(undefined, patient);
  assert.deepEqual(prompts.map((p) => p.name).sort(), ["archive-session", "start-session"]);
  const prompt = await client.getPrompt({ name: "start-session", arguments: { slug: "alpha" } }, patient);
  assert.match(prompt.messages[0].content.text, /Building the first version\./);
  const { resourceTemplates } = await client.listResourceTemplates(undefined, patient);
  assert.equal(resourceTemplates.length, 6);
  const { resources } = await client.listResources(undefined, patient);
  const uri = "kessho://project/alpha/context";
  assert.ok(resources.some((r) => r.uri === uri), `resources/list lists ${uri}`);
  const read = await client.readResource({ uri }, patient);
  assert.deepEqual(read.contents, [{ uri, mimeType: "text/markdown", text: contextOf(dir) }]);
}

function newClient() {
  return new Client({ name: "ts-client-test", version: "1" });
}

test("stdio", hang, async (t) => {
  assert.ok(bin, "KESSHO_BIN names the kessho binary (make test-mcp-clients sets it)");
  const dir = vaultCopy(t);
  const transport = new StdioClientTransport({
    command: bin,
    args: ["mcp", "--vault", dir, ...clientArgs],
    env: coldEnv(t),
    stderr: "ignore",
  });
  const client = newClient();
  await client.connect(transport, patient);
  t.after(() => client.close());
  await exercise(client, dir);
});

// serve starts `kessho mcp --http` on a free loopback port and returns
// the URL it says it serves.
async function serve(t, dir, token) {
  const server = spawn(bin, ["mcp", "--vault", dir, "--http", "127.0.0.1:0", "--token", token, ...clientArgs], {
    env: coldEnv(t),
    stdio: ["ignore", "ignore", "pipe"],
  });
  t.after(() => server.kill("SIGINT"));
  return servingURL(server);
}

test("streamable HTTP, the client's newest protocol", hang, async (t) => {
  assert.ok(bin, "KESSHO_BIN names the kessho binary (make test-mcp-clients sets it)");
  const dir = vaultCopy(t);
  const url = await serve(t, dir, "s3cret");
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: "Bearer s3cret" } },
  });
  const client = newClient();
  await client.connect(transport, patient);
  t.after(() => client.close());
  assert.equal(transport.protocolVersion, LATEST_PROTOCOL_VERSION, "the client negotiated its newest revision");
  assert.ok(transport.sessionId, "a client of that revision gets a session");
  await exercise(client, dir);
});

// The default engine on a cold cache: the first call answers while the
// sandbox compiles, on the native engine (its progress says so), with
// the SDK's default request timeout (60 s), however long the
// compilation takes; the server's standard error says so once.
test("stdio, the default engine: a first call on a cold cache answers", { timeout: 120_000 }, async (t) => {
  assert.ok(bin, "KESSHO_BIN names the kessho binary (make test-mcp-clients sets it)");
  const dir = vaultCopy(t);
  const transport = new StdioClientTransport({
    command: bin,
    args: ["mcp", "--vault", dir, ...dayArgs],
    env: coldEnv(t),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr.on("data", (b) => (stderr += b));
  const stderrEnded = new Promise((resolve) => transport.stderr.on("end", resolve));
  const client = newClient();
  await client.connect(transport);
  t.after(() => client.close()); // a failed assertion must not leave the server running (the suite would never end)
  const notes = [];
  const res = await client.callTool(
    { name: "mem_update_phase", arguments: { slug: "alpha", phase: "cold" } },
    undefined,
    { onprogress: (p) => notes.push(p) },
  );
  assert.equal(res.isError ?? false, false, `refused: ${res.content[0].text}`);
  assert.equal(res.structuredContent.previous_phase, "start");
  assert.match(notes[0]?.message ?? "", /native engine/, `the first call's progress says it runs on the native engine (progress: ${JSON.stringify(notes)}; standard error so far: ${stderr})`);
  await client.close(); // the server ends: all its standard error is read
  await stderrEnded;
  assert.equal(stderr.match(/native engine/g)?.length, 1, `standard error says once that calls run on the native engine: ${stderr}`);
});
