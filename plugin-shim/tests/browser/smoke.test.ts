// Headless Chromium smoke test: the built main.js runs in a real browser
// engine (Obsidian is Chromium on desktop, a web view on mobile): the wasm
// core decompresses (zstd, fzstd), compiles asynchronously, and every
// conformance case gives the same answer and vault as in Node.
//
// Chromium is Debian's (/usr/bin/chromium, scripts/ensure-chromium.sh),
// driven by playwright-core; pages come from a server on 127.0.0.1.

import assert from "node:assert/strict";
import { readFileSync, mkdtempSync, rmSync, existsSync, readdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { build } from "esbuild";
import { chromium, type BrowserContext } from "playwright-core";
import { casesDir, pluginDir } from "../node";

const executablePath = "/usr/bin/chromium";

describe("chromium", { skip: existsSync(executablePath) ? false : "no /usr/bin/chromium (scripts/ensure-chromium.sh)" }, () => {
  let server: Server;
  let base = "";
  let context: BrowserContext;
  let profile = "";

  before(async () => {
    const page = await build({
      entryPoints: [join(pluginDir, "tests", "browser", "page.ts")],
      bundle: true,
      format: "iife",
      platform: "browser",
      target: "es2022",
      write: false,
      alias: { obsidian: join(pluginDir, "tests", "fake", "obsidian.ts") },
      logLevel: "warning",
    });
    const files: Record<string, [string, string | Buffer]> = {
      "/": ["text/html; charset=utf-8", '<!doctype html><meta charset="utf-8"><title>Kessho smoke</title><script src="/page.js"></script>'],
      "/page.js": ["text/javascript; charset=utf-8", page.outputFiles[0]!.text],
      "/main.js": ["text/javascript; charset=utf-8", readFileSync(join(pluginDir, "main.js"))],
    };
    server = createServer((req, res) => {
      const f = files[req.url ?? ""];
      if (f === undefined) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "content-type": f[0] }).end(f[1]);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const addr = server.address();
    base = `http://127.0.0.1:${typeof addr === "object" && addr !== null ? addr.port : 0}`;
    profile = mkdtempSync(join(tmpdir(), "kessho-chromium-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  });

  after(async () => {
    await context?.close();
    await new Promise((r) => server?.close(r));
    if (profile !== "") rmSync(profile, { recursive: true, force: true });
  });

  test("main.js runs every conformance case in the browser", async (t) => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(base + "/");
    const cases = readdirSync(casesDir)
      .filter((n) => n.endsWith(".txtar"))
      .sort()
      .map((n) => ({ name: n.slice(0, -6), text: readFileSync(join(casesDir, n), "utf8") }));
    const out = await page.evaluate(
      (cs) => (globalThis as unknown as { kesshoSmoke: (c: unknown) => Promise<{ loadMs: number; results: { name: string; answer: string; want: string; diff: string; ms: number }[] }> }).kesshoSmoke(cs),
      cases,
    );
    assert.deepEqual(errors, []);
    assert.equal(out.results.length, cases.length);
    for (const r of out.results) {
      assert.equal(r.answer, r.want, `${r.name}: answer in Chromium`);
      assert.equal(r.diff, "", `${r.name}: vault in Chromium`);
    }
    const first = out.results[0]!.ms;
    const rest = out.results.slice(1).map((r) => r.ms).sort((a, b) => a - b);
    t.diagnostic(`chromium: load ${out.loadMs.toFixed(0)} ms, first call ${first.toFixed(1)} ms, median call ${(rest[rest.length >> 1] ?? 0).toFixed(2)} ms, ${out.results.length} cases`);
  });
});
