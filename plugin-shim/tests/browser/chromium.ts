// Headless Chromium for the browser tests: Debian's /usr/bin/chromium
// (scripts/ensure-chromium.sh), driven by playwright-core, with pages
// served from 127.0.0.1: a test page bundled for the browser (the fake
// `obsidian` in place of the real one) and the built main.js.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { chromium as pw, type BrowserContext } from "playwright-core";
import { pluginDir } from "../node";

export const executablePath = "/usr/bin/chromium";

/** A browser serving "/" (a page running tests/browser/<page>.ts) and "/main.js". */
export interface Chromium {
  base: string;
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * openChromium bundles page (a file under tests/browser), serves it with
 * main.js (and more: other paths, each with its content type and body),
 * and starts the browser.
 */
export async function openChromium(page: string, title: string, more: Record<string, [string, string | Buffer]> = {}): Promise<Chromium> {
  const bundle = await build({
    entryPoints: [join(pluginDir, "tests", "browser", page)],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    write: false,
    alias: { obsidian: join(pluginDir, "tests", "fake", "obsidian.ts") },
    logLevel: "warning",
  });
  const files: Record<string, [string, string | Buffer]> = {
    "/": ["text/html; charset=utf-8", `<!doctype html><meta charset="utf-8"><title>${title}</title><script src="/page.js"></script>`],
    "/page.js": ["text/javascript; charset=utf-8", bundle.outputFiles[0]!.text],
    "/main.js": ["text/javascript; charset=utf-8", readFileSync(join(pluginDir, "main.js"))],
    ...more,
  };
  const server: Server = createServer((req, res) => {
    const f = files[req.url ?? ""];
    if (f === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": f[0] }).end(f[1]);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  const base = `http://127.0.0.1:${typeof addr === "object" && addr !== null ? addr.port : 0}`;
  const profile = mkdtempSync(join(tmpdir(), "kessho-chromium-"));
  const context = await pw.launchPersistentContext(profile, {
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
      // A diagnosis's V8 flags (e.g. --no-liftoff), never set by the tests.
      ...(process.env["KESSHO_CHROMIUM_JS_FLAGS"] ? [`--js-flags=${process.env["KESSHO_CHROMIUM_JS_FLAGS"]}`] : []),
    ],
  });
  return {
    base,
    context,
    close: async () => {
      await context.close();
      await new Promise((r) => server.close(r));
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
