// Helpers of the tests that start `kessho mcp` (conformance.test.mjs,
// inspector.test.mjs, oauth.test.mjs, confirm.test.mjs): KESSHO_BIN
// names the binary (make test-mcp-clients sets it).

import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";

export const bin = process.env.KESSHO_BIN;
export const here = dirname(fileURLToPath(import.meta.url));
export const data = join(here, "..", "host", "mcp", "testdata", "clients");
// Answers that do not depend on the day; the native engine, so that no
// call waits for the sandbox to compile (client.test.mjs tests that).
export const serveArgs = ["--now", "2026-11-30T10:15:00+01:00", "--tz", "Europe/Paris", "--engine", "native"];

// temp makes a temporary folder, removed when the test ends.
export function temp(t, prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// vaultCopy copies the clients' vault (host/mcp/testdata/clients/vault)
// to a new folder.
export function vaultCopy(t) {
  const dir = temp(t, "kessho-ts-vault-");
  cpSync(join(data, "vault"), dir, { recursive: true });
  return dir;
}

// serveHTTP starts `kessho mcp --http` on a free loopback port with the
// given flags (["--token", T] or ["--no-auth"]) and returns the URL it
// says it serves; the server is stopped when the test ends. Its config
// folder is a new one (XDG_CONFIG_HOME), so a token it keeps is the
// test's own; env adds to the environment (a key set to undefined is
// removed from it).
export async function serveHTTP(t, dir, auth, env = {}) {
  const all = { ...process.env, XDG_CONFIG_HOME: temp(t, "kessho-ts-config-"), XDG_CACHE_HOME: temp(t, "kessho-ts-cache-"), ...env };
  for (const [k, v] of Object.entries(all)) if (v === undefined) delete all[k];
  const server = spawn(bin, ["mcp", "--vault", dir, "--http", "127.0.0.1:0", ...auth, ...serveArgs], {
    env: all,
    stdio: ["ignore", "ignore", "pipe"],
  });
  t.after(() => server.kill("SIGINT"));
  return servingURL(server);
}

// servingURL is the URL a started `kessho mcp --http` says it serves, on
// its standard error (read on, unread, after that line).
export async function servingURL(server) {
  for await (const line of createInterface({ input: server.stderr })) {
    const at = line.indexOf("serving ");
    if (at >= 0) {
      server.stderr.resume();
      return line.slice(at + "serving ".length);
    }
  }
  throw new Error("kessho mcp --http never said where it serves");
}
