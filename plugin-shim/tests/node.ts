// Node-only helpers for tests: where things are, reading cases from disk.

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
