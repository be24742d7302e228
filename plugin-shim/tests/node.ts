// Node-only helpers for tests: where things are, reading cases from disk,
// waiting for a thing to happen.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCase, type Case } from "./cases";

/** pluginDir is plugin-shim/ (tests run from it). */
export const pluginDir = process.env["KESSHO_PLUGIN_DIR"] ?? process.cwd();
export const repoDir = join(pluginDir, "..");
export const casesDir = process.env["KESSHO_CASES_DIR"] ?? join(repoDir, "testdata", "cases");

export function mainJs(): string {
  return readFileSync(join(pluginDir, "main.js"), "utf8");
}

/** loadCases reads every conformance case, sorted by name. */
export function loadCases(): Case[] {
  return readdirSync(casesDir)
    .filter((n) => n.endsWith(".txtar"))
    .sort()
    .map((n) => parseCase(n.slice(0, -6), readFileSync(join(casesDir, n), "utf8")));
}

/**
 * until waits for cond to hold, looking every 10 ms. It fails after two
 * minutes: a bound on a hang, not on how long the thing may take (a loaded
 * machine may take seconds where an idle one takes a millisecond).
 */
export async function until(cond: () => boolean, what: string): Promise<void> {
  for (const end = Date.now() + 120_000; !cond(); await new Promise((r) => setTimeout(r, 10))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}
