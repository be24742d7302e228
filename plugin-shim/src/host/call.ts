// The call loop (docs/HOSTS.md, "A call"), the twin of host/call: it asks
// the core, answers its needs, applies its plan and prints what the core
// says to print (hostlogic.ReadAnswer).

import { answerNeed, newSnapshot, type Need } from "./answer";
import { apply, recoverJournals } from "./apply";
import { ask, refusal, render, type HostCore } from "./core";
import type { Plan } from "./plan";
import { nextTask, type VaultPort } from "./port";
import type { RecoverOptions } from "./journal";
import { requestHead, requestTail, type RequestRest } from "./request";
import { SearchCarry, splitTail } from "./search";
import type { HostRequest } from "../wire.gen";

/** An engine runs core.Core.Handle on a request and returns its answer, as JSON text. */
export interface Engine {
  call(request: string): Promise<string>;
  /**
   * round, when the engine has it, runs a whole round of a call (runRound)
   * where the module runs: one crossing to a worker instead of three.
   */
  round?(r: RoundRequest): Promise<Round>;
  /**
   * within, when the engine has it, runs f under one deadline for every
   * request f sends (RemoteEngine: the setting's time limit of a call).
   */
  within?<T>(f: () => Promise<T>): Promise<T>;
  /**
   * renew, when the engine has it, restarts the running call's time limit
   * (RemoteEngine): a search index's build stores each batch it made, so
   * the limit bounds a batch, not a first build of a whole vault.
   */
  renew?(): void;
}

/** A round's request around the call's time: the request is head, the time as a JSON string, then tail. */
export interface RoundRequest {
  head: string;
  /** The time as given (RFC 3339); the core makes it canonical. */
  now: string;
  tail: string;
  /** What follows the request's JSON, if anything: a NUL and the search index (SearchCarry). */
  after?: string;
}

/** What a round gives: the core's answer (raw) and the host's reading of it (hostlogic's read_answer), both JSON text. */
export interface Round {
  raw: string;
  read: string;
  /** The search index after the answer's NUL (base64), or "" (splitTail). */
  index?: string;
  /**
   * The first step of answering read's need (a StepOut: its check and the
   * I/O it asks first, answerNeed), run where the round ran, so that it
   * costs no crossing of its own.
   */
  step?: string;
}

/**
 * runRound runs one round of a call: the time made canonical (hostlogic's
 * "now": to the second, a zero offset as Z, as the Go host writes --now),
 * core.Core.Handle on the request, then read_answer on its answer. A
 * WasmEngine runs it in its worker (engine.round), where each step is a
 * call into the module, with the first step of its need; otherwise each
 * step is a request of its own, and answerNeed asks the need's first step.
 */
export async function runRound(eng: Engine, core: HostCore, r: RoundRequest): Promise<Round> {
  const { now } = await ask<{ now: string }>(core, "now", { now: r.now });
  const [raw, index] = splitTail(await eng.call(r.head + JSON.stringify(now) + r.tail + (r.after ?? "")));
  const read = await core.host(JSON.stringify({ kind: "read_answer", answer: raw } satisfies Partial<HostRequest>));
  return { raw, index, read };
}

/** CallOptions are a call's inputs besides the tool and its arguments. */
export interface CallOptions extends RecoverOptions {
  /** The core that makes the host's decisions; default: eng, when it is one (WasmEngine). */
  core?: HostCore;
  /** RFC 3339 time of the call, as given: each round makes it canonical (runRound). */
  now: string;
  /** IANA zone of the vault; "" is UTC. */
  tz: string;
  /** "en" or "fr". */
  lang: string;
  /** need/answer rounds before LIMIT_EXCEEDED; default 8 */
  maxRounds?: number;
  /** file text the request may carry, in bytes; default 256 MiB */
  maxBytes?: number;
  /** note text one batch of a search index's build reads, in bytes; default: the core's (4 MiB) */
  indexBatch?: number;
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

/** An engine's answer as the core reads it for the host (hostlogic.ReadAnswer). */
interface Read {
  need?: Need;
  ok: boolean;
  /** what to print; left out (the module's round entry) when it is the answer itself, raw */
  printed?: string;
  plan?: Plan;
  conflict?: string;
  invalid?: string;
  /** the search index that follows the answer (a batch need's, or a success's) */
  search?: { id: string };
  /** a success's answer without its search index */
  raw?: string;
}

/**
 * call runs tool with args (JSON text, sent as written; undefined: none).
 * Refusals, the core's or the host's, come back as an Outcome with ok
 * false; it throws only when the engine itself fails.
 */
export async function call(v: VaultPort, eng: Engine, tool: string, args: string | undefined, opts: CallOptions): Promise<Outcome> {
  const core = opts.core ?? (eng as Engine & HostCore);
  const refuse = async (err: unknown, raw?: string, conflict?: string): Promise<Outcome> => {
    const answer = await render(core, err, opts.lang, conflict);
    return { answer, raw: raw ?? answer, plan: null, ok: false };
  };
  try {
    await recoverJournals(core, v, opts);
  } catch (err) {
    return refuse(err);
  }
  // The call's deadline counts from here: waiting for another host's young journal is not the core's work.
  const rounds = () => runRounds(v, eng, core, tool, args, opts, refuse);
  return eng.within !== undefined ? eng.within(rounds) : rounds();
}

/**
 * largeRequest is the size (UTF-16 units) past which a round's request is
 * sent in a task after the one that wrote it: joining a dry run's 3,000
 * files (1.8 MB) and posting them to the worker cost 20–25 and 30–40 ms of
 * the UI thread, together a task over the 50 ms Chromium calls long
 * (tests/browser/worker.test.ts). A small request is sent at once: a warm
 * call's crossings stay as they are.
 */
const largeRequest = 256 * 1024;

/** runRounds is call's loop once its journals are recovered: rounds until the core answers, then the plan applied. */
async function runRounds(
  v: VaultPort,
  eng: Engine,
  core: HostCore,
  tool: string,
  args: string | undefined,
  opts: CallOptions,
  refuse: (err: unknown, raw?: string, conflict?: string) => Promise<Outcome>,
): Promise<Outcome> {
  const maxRounds = opts.maxRounds ?? 8;
  const maxBytes = opts.maxBytes ?? 256 * 1024 * 1024;
  // The request: the arguments as written, the time, then the rest with Go's omitempty.
  const head = requestHead(tool, args);
  const rest: RequestRest = { tz: opts.tz || undefined, lang: opts.lang || undefined };
  let snap = newSnapshot();
  const sc = await SearchCarry.start(v, tool, opts.indexBatch ?? 0);
  // Rounds that count against maxRounds: a search index's batches do not.
  let counted = 0;
  for (;;) {
    const search = sc?.request();
    const r = { head, now: opts.now, tail: requestTail(snap, { ...rest, search: search?.member }), after: search?.tail };
    // Sending a large request (structured clone to the worker) is a task of its own.
    if (r.tail.length > largeRequest) await nextTask();
    // Whole in the engine when it is also the core (the plugin's): one crossing, a search's index included.
    const round = await (eng.round !== undefined && (core as unknown) === eng ? eng.round(r) : runRound(eng, core, r));
    let raw = round.raw;
    const index = round.index ?? "";
    const a = JSON.parse(round.read) as Read;
    if (a.invalid !== undefined) throw new Error(`call ${tool}: ${a.invalid}`);
    if (a.need !== undefined) {
      try {
        if (sc !== null && a.need.search === "batch" && a.search !== undefined) {
          // A batch of the index built: stored; the files sent are indexed, the next request holds the next batch.
          await sc.store(index, a.search.id);
          eng.renew?.();
          snap = newSnapshot();
        } else if (++counted >= maxRounds) throw await refusal(core, "too_many_rounds", "", { tool, rounds: maxRounds });
        await sc?.answer(a.need.search);
        await answerNeed(core, v, a.need, snap, maxBytes, round.step);
      } catch (err) {
        return refuse(err);
      }
      continue;
    }
    if (a.search !== undefined && a.raw !== undefined) {
      if (sc !== null && index !== "") await sc.store(index, a.search.id);
      raw = a.raw;
    }
    try {
      if (a.plan !== undefined) await apply(core, v, a.plan, opts);
    } catch (err) {
      // A failed precondition takes the tool's own code (the answer's "conflict", e.g. CONTEXT_HYGIENE_RACE).
      return refuse(err, raw, a.conflict);
    }
    return { answer: a.printed ?? raw, raw, plan: a.plan ?? null, ok: a.ok };
  }
}
