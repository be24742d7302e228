// The page of the headless Chromium smoke test: loads the real main.js with
// the fake `obsidian` module and runs conformance cases against an
// in-page vault. Bundled for the browser by smoke.test.ts.

import { diffTrees, parseCase } from "../cases";
import { App } from "../fake/obsidian";
import { loadPlugin } from "../fake/plugin";

export interface SmokeResult {
  name: string;
  answer: string;
  want: string;
  diff: string;
  ms: number;
}

async function smoke(cases: { name: string; text: string }[]): Promise<{ loadMs: number; results: SmokeResult[] }> {
  const t0 = performance.now();
  const js = await (await fetch("/main.js")).text();
  const app = new App();
  const plugin = await loadPlugin(js, app);
  const loadMs = performance.now() - t0;
  const results: SmokeResult[] = [];
  for (const { name, text } of cases) {
    const c = parseCase(name, text);
    app.vault.reset(c.vault);
    const t = performance.now();
    const answer = await plugin.api.callText(c.tool, c.args, { now: c.now, tz: c.tz, lang: c.lang });
    results.push({ name, answer, want: c.answer, diff: diffTrees(app.vault.snapshot(), c.want), ms: performance.now() - t });
  }
  return { loadMs, results };
}

(globalThis as unknown as { kesshoSmoke: typeof smoke }).kesshoSmoke = smoke;
