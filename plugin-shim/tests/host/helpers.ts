// Helpers for the host tests: cases by name, the outcome a call has with no
// interference, trees on disk, and the Go CLI when it is built.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Case } from "../cases";
import { App } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { runSteps, type Engine } from "../../src/host/call";
import { journalDir, ownJournals, type RecoverOptions } from "../../src/host/journal";
import type { Op, Plan } from "../../src/host/plan";
import type { VaultPort } from "../../src/host/port";
import { loadCases, mainJs, repoDir } from "../node";

let all: Case[] | null = null;

/** caseNamed returns the conformance case of that name. */
export function caseNamed(name: string): Case {
  all ??= loadCases();
  const c = all.find((x) => x.name === name);
  if (c === undefined) throw new Error(`no conformance case ${name}`);
  return c;
}

/** callCase runs c's call on plugin, whose vault the caller has set. */
export function callCase(plugin: LoadedPlugin, c: Case): Promise<string> {
  return plugin.api.callText(c.tool, c.args, { now: c.now, tz: c.tz, lang: c.lang });
}

/** cleanRun returns c's answer and vault after a call nobody disturbs. */
export async function cleanRun(plugin: LoadedPlugin, c: Case): Promise<{ answer: string; vault: Map<string, Uint8Array> }> {
  const app = plugin.app as App;
  app.vault.reset(c.vault);
  const answer = await callCase(plugin, c);
  return { answer, vault: app.vault.snapshot() };
}

/** journalFiles lists what is in .kessho/journal. */
export function journalFiles(app: App): string[] {
  return [...app.vault.files.keys()].filter((p) => p.startsWith(".kessho/journal/")).sort();
}

/** writeTree lays files out under dir. */
export function writeTree(dir: string, files: Map<string, Uint8Array>): void {
  for (const [p, d] of files) {
    const full = join(dir, ...p.split("/"));
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, d);
  }
}

/** undo tells whether r is Kessho's undo records' folder or in it (core/plan.UndoDir), which plans write as they write notes. */
const undo = (r: string): boolean => r === ".kessho/undo" || r.startsWith(".kessho/undo/");

/** readTree returns every file under dir, leaving out dot-folders but for .kessho/undo/ (as the Go tests' ReadTree). */
export function readTree(dir: string): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const walk = (d: string, rel: string) => {
    for (const n of readdirSync(d)) {
      const full = join(d, n);
      const r = rel === "" ? n : rel + "/" + n;
      if (statSync(full).isDirectory()) {
        if (!n.startsWith(".") || r === ".kessho" || undo(r)) walk(full, r);
      } else if (!r.startsWith(".kessho/") || undo(r)) {
        out.set(r, new Uint8Array(readFileSync(full)));
      }
    }
  };
  walk(dir, "");
  return out;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "kessho-plugin-"));
}

/** kesshoBin is the Go CLI (make build), or null when it is not built. */
export const kesshoBin: string | null = (() => {
  const p = process.env["KESSHO_BIN"] ?? join(repoDir, "bin", "kessho");
  return existsSync(p) ? p : null;
})();

/** goCall runs `kessho call` on the vault in dir and returns what it prints (without the newline). */
export function goCall(dir: string, tool: string, args: string, o: { now: string; tz: string; lang: string }): string {
  const argv = ["--vault", dir, "--now", o.now, "--tz", o.tz || "UTC", "--lang", o.lang || "en", "call", tool, "--json", args];
  try {
    return execFileSync(kesshoBin!, argv, { encoding: "utf8" }).replace(/\n$/, "");
  } catch (err) {
    const e = err as { status?: number; stdout?: string; stderr?: string };
    if (e.status === 1 && e.stdout) return e.stdout.replace(/\n$/, "");
    throw new Error(`kessho ${argv.join(" ")}: exit ${e.status}: ${e.stderr}`);
  }
}

let engine: Promise<Engine> | null = null;

/** hostEngine is the plugin's engine (a wasm core in its worker), loaded once. */
export function hostEngine(): Promise<Engine> {
  engine ??= loadPlugin(mainJs(), new App({})).then((p) => p.engine as unknown as Engine);
  return engine;
}

/** A refusal as the host prints it. */
export interface ErrorBody {
  code: string;
  message: string;
  details: { [key: string]: unknown };
}

/** Refused is the refusal an apply or a recovery ended with: printed, as a host prints it, and its error. */
export class Refused extends Error {
  readonly error: ErrorBody;
  constructor(readonly printed: string) {
    super(printed);
    this.error = (JSON.parse(printed) as { error: ErrorBody }).error;
  }
}

/**
 * applyPlan applies plan (null: the journals alone rolled forward) through
 * the core's steps, as a call's apply does, on the plugin's engine; a
 * refusal is thrown as Refused, in opts' lang (default English).
 */
export async function applyPlan(v: VaultPort, plan: Plan | null, opts: RecoverOptions & { lang?: string } = {}): Promise<void> {
  const journals = (await v.state.list(journalDir)) ?? [];
  if (journals.length === 0 && (plan === null || plan.length === 0)) return;
  const start = { lang: opts.lang ?? "en", plan: plan ?? undefined, journals, wait_ms: opts.lockWaitMs ?? 10_000, own: ownJournals() };
  const end = await runSteps(v, await hostEngine(), start, opts);
  if (end.ok !== true) throw new Refused(end.answer ?? "");
}

/** recoverJournals rolls forward the plans a crash left half-applied (applyPlan of none). */
export function recoverJournals(v: VaultPort, opts: RecoverOptions & { lang?: string } = {}): Promise<void> {
  return applyPlan(v, null, opts);
}

/** opJSON encodes an op as Go's encoding/json does (op, path, from, to, expect, text; empty fields left out). */
export function opJSON(op: Op): string {
  const parts = ['"op":' + JSON.stringify(op.op)];
  for (const k of ["path", "from", "to", "expect", "text"] as const) {
    const v = op[k];
    if (v !== undefined && (v !== "" || k === "text")) parts.push(JSON.stringify(k) + ":" + JSON.stringify(v));
  }
  return "{" + parts.join(",") + "}";
}

/** notes is n notes of about 350 bytes (as host/call's batchVault). */
export function notes(n: number): Record<string, string> {
  const out: Record<string, string> = {};
  const topics = ["webhook retries", "budget review", "schema migration", "été à la plage"];
  for (let i = 0; i < n; i++) {
    const topic = topics[i % 4]!;
    out[`20-knowledge/n${String(i).padStart(3, "0")}.md`] = `---\nsubject: ${topic} ${i}\n---\n${(topic + " and other words. ").repeat(9)}\n`;
  }
  return out;
}
