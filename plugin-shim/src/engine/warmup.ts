// The requests a new instance runs once before its first real call.

import type { Need, Plan, Request, Snapshot, StepIn } from "../wire.gen";

const context = "10-episodes/projects/warm-up/context.md";
const text = "---\nphase: draft # a comment\ntags: [a, b]\n---\n# Warm-up\n";
const start = { tool: "mem_update_phase", args: { slug: "warm-up", phase: "review" }, now: "2026-01-01T00:00:00Z", tz: "UTC" } satisfies Request;
const plan = [{ op: "write", path: context, expect: "sha256:" + "0".repeat(64), text: text.replace("draft", "review") }] satisfies Plan;

const head = '{"tool":"mem_update_phase","args":{"slug":"warm-up","phase":"review"},"now":';
const vault = {
  files: { [context]: { sha256: "0".repeat(64), text } },
  missing: ["10-episodes/archived/warm-up/context.md", "10-episodes/domains/warm-up/context.md"],
  dirs: { "10-episodes/projects": ["warm-up/"], "10-episodes/domains": [], "10-episodes/archived": [] },
} satisfies Snapshot;

const need = {
  files: [context, "10-episodes/domains/warm-up/context.md", "10-episodes/archived/warm-up/context.md"],
  matches: ["projects", "domains", "archived"].map((d) => ({ dir: "10-episodes/" + d, patterns: ["warm-up"] })),
} satisfies Need;
const clock = { now: "2026-01-01T00:00:00.000Z", wall: "2026-01-01T00:00:00.000Z", random: "00" };

/** The second step of answering the first round's need: its files read, a folder listed, two missing. */
const needStep = {
  start: { need, journals: [], wait_ms: 0, own: [] },
  results: [{ v: "text" }, { v: "absent" }, { v: "absent" }, { v: "folder", list: ["warm-up/", "notes.md"] }, { v: "absent" }, { v: "absent" }],
  ...clock,
};

/**
 * warmupRequest is a whole call's last round, vault included: a phase set
 * in a note with frontmatter. It touches no vault (the core is pure; its
 * answer is dropped).
 */
export const warmupRequest = JSON.stringify({ ...start, ...vault } satisfies Request);

/**
 * A request for the module's handle (core.Core.Handle), handle_host
 * (hostlogic.Handle) or round (hostlogic.Round) entry, each a tag of its
 * call export (wasm/main.go); a round's request is its input: the time,
 * NUL, the request's head, NUL, the rest.
 */
export interface Warmup {
  entry: "handle" | "handle_host" | "round" | "step";
  request: string;
}

/**
 * warmups are what each new instance runs once, their answers dropped: the
 * requests of a whole call that writes, in the order the plugin sends them
 * (the first round, with its need's first step; the need's second step, a
 * listing read; the last round; the first step of the plan's apply: its
 * check and its journal). The engine compiles a function of the module the first time
 * it runs (Chromium and Node compile lazily), so each kind run here is one
 * the user's first call does not wait for.
 */
export const warmups: Warmup[] = [
  { entry: "round", request: start.now + "\u0000" + head + "\u0000" + ',"tz":"UTC"}' },
  { entry: "step", request: JSON.stringify(needStep satisfies StepIn) },
  { entry: "round", request: start.now + "\u0000" + head + "\u0000" + ',"tz":"UTC",' + JSON.stringify(vault).slice(1) },
  { entry: "step", request: JSON.stringify({ start: { plan, journals: [], wait_ms: 0, own: [] }, ...clock } satisfies StepIn) },
];
