// The call loop: the TypeScript twin of host/call. It asks the core,
// answers its needs from the vault (up to 8 rounds), applies the plan it
// returns, and renders the answer the Go host prints, byte for byte: the
// core's result or error copied verbatim.

import { answerNeed, newSnapshot, snapshotJSON, type Need } from "./answer";
import { apply } from "./apply";
import { refusal, render, type HostCore } from "./core";
import { asHostError, HostError, messageOf } from "./fault";
import { rawFields } from "./gojson";
import type { Plan } from "./plan";
import type { VaultPort } from "./port";
import type { RecoverOptions } from "./journal";
import { recoverJournals } from "./journal";

/** An engine runs core.Handle on a request and returns its answer, as JSON text. */
export interface Engine {
  call(request: string): Promise<string>;
}

/** CallOptions are a call's inputs besides the tool and its arguments. */
export interface CallOptions extends RecoverOptions {
  /** The core that makes the host's decisions; default: eng, when it is one (WasmEngine). */
  core?: HostCore;
  /** RFC 3339 time of the call. */
  now: string;
  /** IANA zone of the vault; "" is UTC. */
  tz: string;
  /** "en" or "fr". */
  lang: string;
  /** need/answer rounds before LIMIT_EXCEEDED; default 8 */
  maxRounds?: number;
  /** file text the request may carry, in bytes; default 256 MiB */
  maxBytes?: number;
}

/** Outcome is what a call produced. */
export interface Outcome {
  /** What hosts print: {"ok":true,"result":…} or {"ok":false,"error":…}. */
  answer: string;
  /** The engine's last answer, plan included. */
  raw: string;
  /** The plan applied, when there was one. */
  plan: Plan | null;
  ok: boolean;
}

/**
 * call runs tool on the vault. Refusals, the core's or the host's
 * (CONFLICT, LIMIT_EXCEEDED, INTERNAL), come back as an Outcome with ok
 * false; it throws only when the engine itself fails.
 *
 * args is the arguments' JSON text (passed to the core as written) or
 * undefined for none.
 */
export async function call(v: VaultPort, eng: Engine, tool: string, args: string | undefined, opts: CallOptions): Promise<Outcome> {
  const maxRounds = opts.maxRounds ?? 8;
  const maxBytes = opts.maxBytes ?? 256 * 1024 * 1024;
  const core = opts.core ?? (eng as Engine & HostCore);
  const refuse = async (err: unknown, raw?: string): Promise<Outcome> => {
    const answer = await render(core, asHostError(err), opts.lang);
    return { answer, raw: raw ?? answer, plan: null, ok: false };
  };
  try {
    await recoverJournals(core, v, opts);
  } catch (err) {
    return refuse(err);
  }
  let head = '{"tool":' + JSON.stringify(tool);
  if (args !== undefined) head += ',"args":' + args;
  head += ',"now":' + JSON.stringify(opts.now);
  if (opts.tz !== "") head += ',"tz":' + JSON.stringify(opts.tz);
  if (opts.lang !== "") head += ',"lang":' + JSON.stringify(opts.lang);
  const snap = newSnapshot();
  for (let round = 0; ; round++) {
    const raw = await eng.call(head + snapshotJSON(snap) + "}");
    let fields: Map<string, string>;
    try {
      fields = rawFields(raw);
    } catch (err) {
      throw new Error(`call ${tool}: the engine answered invalid JSON: ${messageOf(err)}`);
    }
    const need = fields.get("need");
    if (need !== undefined && need !== "null") {
      if (round + 1 >= maxRounds) {
        return refuse(await refusal(core, "too_many_rounds", "", { tool, rounds: maxRounds }));
      }
      try {
        await answerNeed(core, v, JSON.parse(need) as Need, snap, maxBytes);
      } catch (err) {
        return refuse(err);
      }
      continue;
    }
    const ok = fields.get("ok");
    if (ok === undefined || ok === "null") throw new Error(`call ${tool}: the engine's answer has neither need nor ok`);
    if (ok !== "true") {
      return { answer: '{"ok":false,"error":' + (fields.get("error") ?? "null") + "}", raw, plan: null, ok: false };
    }
    const planText = fields.get("plan");
    const plan = planText === undefined || planText === "null" ? null : (JSON.parse(planText) as Plan);
    if (plan !== null && plan.length > 0) {
      try {
        await apply(core, v, plan, opts);
      } catch (err) {
        // A failed precondition takes the tool's own code (the answer's "conflict", e.g. CONTEXT_HYGIENE_RACE).
        const e = asHostError(err);
        const code = fields.get("conflict");
        return refuse(e.code === "CONFLICT" && code !== undefined ? new HostError(JSON.parse(code) as string, e.en, e.fr, e.details) : e, raw);
      }
    }
    return { answer: '{"ok":true,"result":' + (fields.get("result") ?? "null") + "}", raw, plan, ok: true };
  }
}
