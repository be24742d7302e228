// A call of one round on an engine, for the engines' tests: the step that
// starts a call, the round's request with it.

import type { Engine, RoundRequest } from "../../src/host/call";
import type { StepIn, StepOut } from "../../src/host/step";

/** roundOf cuts a whole request at its time, as call.ts writes one (its head ends `"now":`); a request with no time is all head. */
export function roundOf(request: string): RoundRequest {
  const m = /^(.*?"now":)"([^"]*)"(.*)$/s.exec(request);
  return m === null ? { head: request, now: "", tail: "" } : { head: m[1]!, now: m[2]!, tail: m[3]! };
}

/** once runs request as a call's only round on eng and returns what the host prints (or, when the core asks more, the step's JSON). */
export async function once(eng: Engine, request: string): Promise<string> {
  const start: StepIn = { start: { lang: "en", call: { tool: "t", max_rounds: 8 }, journals: [], wait_ms: 0, own: [] }, now: "2026-11-30T09:15:00.000Z", wall: "2026-11-30T09:15:00.000Z", random: "00" };
  const got = await eng.step(JSON.stringify(start), roundOf(request));
  const out = JSON.parse(got.out) as StepOut;
  if (out.end?.ok === true) return got.printed ?? "";
  return out.end?.answer ?? got.out;
}
