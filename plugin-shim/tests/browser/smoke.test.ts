// Headless Chromium smoke test: the built main.js runs in a real browser
// engine (Obsidian is Chromium on desktop, a web view on mobile): the wasm
// core decompresses (zstd, fzstd), compiles asynchronously, and every
// conformance case gives the same answer and vault as in Node.
//
// Chromium is Debian's (/usr/bin/chromium, scripts/ensure-chromium.sh),
// driven by playwright-core; pages come from a server on 127.0.0.1
// (chromium.ts).

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { casesDir } from "../node";
import { executablePath, openChromium, type Chromium } from "./chromium";

describe("chromium", { skip: existsSync(executablePath) ? false : "no /usr/bin/chromium (scripts/ensure-chromium.sh)" }, () => {
  let browser: Chromium;
  before(async () => {
    browser = await openChromium("page.ts", "Kessho smoke");
  });
  after(async () => {
    await browser?.close();
  });

  test("main.js runs every conformance case in the browser", async (t) => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(browser.base + "/");
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
