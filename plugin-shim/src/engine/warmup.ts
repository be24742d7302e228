// The requests a new instance runs once before its first real call.

import type { RoundRequest } from "../host/call";
import type { Request, Snapshot, StepIn } from "../wire.gen";

const context = "10-episodes/projects/warm-up/context.md";
const text = "---\nphase: draft # a comment\ntags: [a, b]\n---\n# Warm-up\n";
const start = { tool: "mem_update_phase", args: { slug: "warm-up", phase: "review" }, now: "2026-01-01T00:00:00Z", tz: "UTC" } satisfies Request;

const head = '{"tool":"mem_update_phase","args":{"slug":"warm-up","phase":"review"},"now":';
const vault = {
  files: { [context]: { sha256: "0".repeat(64), text } },
  missing: ["10-episodes/archived/warm-up/context.md", "10-episodes/domains/warm-up/context.md"],
  dirs: { "10-episodes/projects": ["warm-up/"], "10-episodes/domains": [], "10-episodes/archived": [] },
} satisfies Snapshot;

const clock = { now: "2026-01-01T00:00:00.000Z", wall: "2026-01-01T00:00:00.000Z", random: "00" };

/** A step the module's step entry runs (wasm/main.go), and the round's request sent with it. */
export interface Warmup {
  request: string;
  round?: RoundRequest;
}

/** The start of the call, as the plugin sends its first step. */
const callStart = JSON.stringify({ start: { lang: "en", call: { tool: start.tool, max_rounds: 8 }, journals: [], wait_ms: 0, own: [] }, ...clock } satisfies StepIn);

/**
 * warmups are what each new instance runs once, their answers dropped: the
 * steps of a whole call that writes, as the plugin sends them (its start
 * with its first round: the need checked, its reads asked; the same start
 * with the last round, its vault read: the plan checked, its journal and
 * its ops asked). The engine compiles a function of the module the first
 * time it runs (Chromium and Node compile lazily), so each kind run here
 * is one the user's first call does not wait for.
 */
export const warmups: Warmup[] = [
  { request: callStart, round: { head, now: start.now, tail: ',"tz":"UTC"}' } },
  { request: callStart, round: { head, now: start.now, tail: ',"tz":"UTC",' + JSON.stringify(vault).slice(1) } },
];
