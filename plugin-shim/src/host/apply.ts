// Applying plans by docs/HOSTS.md ("Applying a plan", "The journal and
// recovery"): the core decides everything (core/hostlogic.Step: the
// sweep, recovery, the plan's check, the journal, landing and undoing);
// this file runs the one loop "send a step, do the I/O it asks, send the
// results", each op through the VaultPort, whose vault.process keeps the
// last-instant re-check of a write.

import { diskFull, HostError, messageOf, type HostCore } from "./core";
import type { Plan } from "./plan";
import { fromBase64, randomHex, sha256Hex, Stale, toBase64, type VaultPort } from "./port";
import { journalDir, owned, ownJournals, type RecoverOptions } from "./journal";
import type { IO, IOResult, StepEnd, StepIn, StepOut } from "./step";

/**
 * apply applies p to the vault, all of it or none of it: the plans a
 * crash left half-applied rolled forward first, then p checked,
 * journaled and landed.
 */
export async function apply(core: HostCore, v: VaultPort, p: Plan, opts: RecoverOptions = {}): Promise<void> {
  await steps(core, v, p, opts);
}

/**
 * recoverJournals rolls forward every plan a crash left half-applied. A
 * journal another host wrote less than lockWaitMs ago is given that long
 * to go first (the core's sweep and its young test).
 */
export async function recoverJournals(core: HostCore, v: VaultPort, opts: RecoverOptions = {}): Promise<void> {
  await steps(core, v, undefined, opts);
}

/** steps runs the core's steps of an apply of p (undefined: a recovery alone) until it ends; a refusal is thrown. */
async function steps(core: HostCore, v: VaultPort, p: Plan | undefined, opts: RecoverOptions): Promise<void> {
  const journals = (await v.state.list(journalDir)) ?? [];
  // No journal and nothing to apply: no question asked.
  if (journals.length === 0 && (p === undefined || p.length === 0)) return;
  const send = sender(core, opts);
  await runSteps(v, await send({ start: { plan: p, journals, wait_ms: opts.lockWaitMs ?? 10_000, own: ownJournals() } }), send, opts);
}

/** A step sent to the core, the host's clock and randomness added. */
export type Send = (s: Omit<StepIn, "now" | "wall" | "random">) => Promise<StepOut>;

/** sender sends steps to core (its step entry), with the clock of opts. */
export function sender(core: HostCore, opts: RecoverOptions): Send {
  if (core.step === undefined) throw new Error("kessho: this core has no step entry");
  const nowMs = opts.nowMs ?? Date.now;
  return async (s) => {
    const input: StepIn = { ...s, now: new Date(nowMs()).toISOString(), wall: new Date().toISOString(), random: randomHex(16) };
    return JSON.parse(await core.step!(JSON.stringify(input))) as StepOut;
  };
}

/** The ops of a need (answer.ts), run into the call's snapshot. */
export type NeedOps = (io: IO) => Promise<IOResult>;

/**
 * runSteps is the loop from the core's answer out: run its ops through the
 * port in order, stopping at the first whose result differs from the one
 * foreseen (or that failed), send the results, repeat until the end; a
 * refusal is thrown. need runs a need's ops ("need_…").
 */
export async function runSteps(v: VaultPort, out: StepOut, send: Send, opts: RecoverOptions, need?: NeedOps): Promise<void> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => window.setTimeout(r, ms)));
  for (;;) {
    if (out.end !== undefined) return ended(out.end);
    const results: IOResult[] = [];
    let foreseen = true;
    for (const io of out.io ?? []) {
      const r = await execute(v, io, sleep, need);
      results.push(r);
      // An op the core did not foresee (the batch's last ones: looks, reads it asks together), or not as it came.
      if (io.expect === undefined) foreseen = false;
      else if (r.err !== undefined || ((r.v ?? "") !== io.expect && !(io.or ?? []).includes(r.v ?? ""))) {
        foreseen = false;
        break;
      }
      if (r.err !== undefined) break;
    }
    if (foreseen && out.then !== undefined) return ended(out.then);
    out = await send({ state: out.state, results });
  }
}

/** ended returns when the apply succeeded, and throws its refusal otherwise. */
function ended(end: StepEnd): void {
  if (end.ok === true) return;
  if (end.error !== undefined) throw new HostError(end.error);
  throw new Error(end.internal ?? "");
}

/** execute runs one op; what it throws is its result's err (Stale: the re-check that refused it). */
async function execute(v: VaultPort, io: IO, sleep: (ms: number) => Promise<void>, need?: NeedOps): Promise<IOResult> {
  try {
    if (need !== undefined && io.op.startsWith("need_")) return await need(io);
    return await (io.op.startsWith("state_") || io.op === "wait" || io.op === "own" || io.op === "disown" ? runState(v, io, sleep) : runVault(v, io));
  } catch (err) {
    const e: IOResult["err"] = { message: messageOf(err) };
    if (err instanceof Stale) Object.assign(e, { stale: err.why, path: err.path });
    if (diskFull(err)) e.disk_full = true;
    return { err: e };
  }
}

/** runVault runs an op on the vault's files. */
async function runVault(v: VaultPort, io: IO): Promise<IOResult> {
  const p = io.path!;
  switch (io.op) {
    case "look":
      return { v: await stateOf(v, p, io.hash !== undefined) };
    case "kind":
      return { v: (await v.kind(p)) ?? "absent" };
    case "read": {
      const bytes = await v.readBytes(p);
      return { v: "sha256:" + sha256Hex(bytes), data: toBase64(bytes) };
    }
    case "modify":
      return { text: await v.modify(p, io.hash!, io.text!) };
    case "create":
      await v.create(p, io.text ?? fromBase64(io.data ?? ""));
      return {};
    case "remove":
      await v.remove(p);
      return {};
    case "move":
      await v.move(p, io.to!);
      return {};
    case "mkdir":
      return { list: await v.mkdir(p) };
    case "rmdir":
      await v.rmdir(p);
      return {};
    case "list":
      return { list: (await v.list(p)).files };
    case "undo_way": {
      const bad = v.undoWay === undefined ? null : await v.undoWay(p, io.dir === true);
      return bad === null ? {} : { v: JSON.stringify({ at: bad.at, folder: bad.folder }) };
    }
  }
  throw new Error(`kessho: the core asked for an op this host does not know (${io.op})`);
}

/** runState runs an op on Kessho's own files, or of the host itself (a wait, the journals it owns). */
async function runState(v: VaultPort, io: IO, sleep: (ms: number) => Promise<void>): Promise<IOResult> {
  const p = io.path ?? "";
  switch (io.op) {
    case "state_list":
      return { v: JSON.stringify((await v.state.list(p)) ?? []) };
    case "state_read": {
      const text = await v.state.read(p);
      return text === null ? { v: "absent" } : { text };
    }
    case "state_write":
      await v.state.write(p, io.text!);
      return {};
    case "state_append":
      await v.state.append(p, io.text!);
      return {};
    case "state_remove":
      await v.state.remove(p);
      return {};
    case "state_rename":
      await v.state.rename(p, io.to!);
      return {};
    case "wait":
      await sleep(io.ms ?? 0);
      return {};
    case "own":
    case "disown":
      owned(p, io.op === "own");
      return {};
  }
  throw new Error(`kessho: the core asked for an op this host does not know (${io.op})`);
}

/** stateOf returns what is at p as the core reads it: "absent", "folder", "file", or a file's "sha256:<hex>" when hash. */
async function stateOf(v: VaultPort, p: string, hash: boolean): Promise<string> {
  const kind = await v.kind(p);
  if (kind === null) return "absent";
  if (kind === "folder") return "folder";
  return hash ? "sha256:" + sha256Hex(await v.readBytes(p)) : "file";
}
