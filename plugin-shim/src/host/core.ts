// The decisions a host makes, asked of the core: the wasm module's
// handle_host entry runs core/hostlogic.Handle, the code the Go host calls
// natively (docs/HOSTS.md is the contract). This host keeps only the I/O.

import { sha256Hex, type VaultPort } from "./port";

/** A core that answers host requests (WasmEngine). */
export interface HostCore {
  host(request: string): Promise<string>;
  /** hosts, when the core has it, answers several requests in order where the core runs: one crossing to a worker for all. */
  hosts?(requests: string[]): Promise<string[]>;
  /** step, when the core has it, runs one step of an apply or a recovery (core/hostlogic.Step): a StepIn's JSON in, a StepOut's out. */
  step?(input: string): Promise<string>;
}

/** An error as the core sends it: both languages, so that the host can throw it and render it later. */
export interface WireError {
  code: string;
  en: string;
  fr: string;
  details: { [key: string]: unknown };
}

/** HostError is a refusal the core worded, thrown as it is until the call renders it. */
export class HostError extends Error {
  constructor(readonly wire: WireError) {
    super(`${wire.code}: ${wire.en}`);
  }
}

/** messageOf is the message of anything thrown. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** diskFull tells whether err is a full disk's (Node's ENOSPC, or EDQUOT: the quota used up), as Obsidian's desktop adapter throws it. */
export function diskFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "ENOSPC" || code === "EDQUOT";
}

/** failing runs f; what it throws is thrown again as "<what>: <its message>" (INTERNAL when rendered). */
export async function failing<T>(what: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    throw new Error(`${what}: ${messageOf(err)}`);
  }
}

/** ask sends one request of kind to the core and returns its decoded answer. */
export async function ask<T>(core: HostCore, kind: string, req: object): Promise<T> {
  return JSON.parse(await core.host(JSON.stringify({ kind, ...req }))) as T;
}

/** render returns what a call threw as the core prints it, in lang: anything but a HostError is INTERNAL; a CONFLICT takes the code conflict, when given. */
export function render(core: HostCore, err: unknown, lang: string, conflict?: string): Promise<string> {
  const e = err instanceof HostError ? { error: err.wire } : { internal: messageOf(err) };
  return core.host(JSON.stringify({ kind: "render", lang, conflict, ...e }));
}

/** refusal is the host refusal why about path, in the core's words (hostlogic.Refusal: changed, exists, too_much_text…). */
export async function refusal(core: HostCore, why: string, path: string, more: object = {}): Promise<HostError> {
  return new HostError((await ask<{ error: WireError }>(core, "refuse", { why, path, ...more })).error);
}

/** A path to look at, and whether a file there must be hashed (hostlogic.Look). */
export interface Look {
  path: string;
  hash?: boolean;
}

/** stateOf returns what is at l.path as the core reads it: "absent", "folder", "file", or a file's "sha256:<hex>" when l.hash. */
async function stateOf(v: VaultPort, l: Look): Promise<string> {
  const kind = await v.kind(l.path);
  if (kind === null) return "absent";
  if (kind === "folder") return "folder";
  return l.hash === true ? "sha256:" + sha256Hex(await v.readBytes(l.path)) : "file";
}

/**
 * Asked already, or to ask along: what a decide may save crossings with.
 * first is the core's answer to the question without nodes (Round.check);
 * along is a request sent with the question once it carries nodes (in the
 * same crossing, when the core has hosts), whose answer is put in
 * alongAnswer: the request that follows the decision, when it does not
 * depend on it (check_plan's new_journal).
 */
export interface Ahead {
  first?: string;
  along?: string;
  alongAnswer?: string;
}

/** decide asks the core a question (check_plan, where, undo…), answering the paths it asks to look at until it answers; an error is thrown. */
export async function decide<T>(core: HostCore, v: VaultPort, kind: string, req: object, ahead: Ahead = {}): Promise<T> {
  let nodes: { [path: string]: string } | undefined;
  for (let text = ahead.first; ; text = undefined) {
    if (text === undefined) {
      const q = JSON.stringify({ kind, ...(nodes === undefined ? req : { ...req, nodes }) });
      if (nodes !== undefined && ahead.along !== undefined && core.hosts !== undefined) {
        [text, ahead.alongAnswer] = await core.hosts([q, ahead.along]);
        ahead.along = undefined;
      } else text = await core.host(q);
    }
    const a = JSON.parse(text!) as T & { need?: Look[]; error?: WireError };
    if (a.error !== undefined) throw new HostError(a.error);
    if (a.need === undefined) return a;
    nodes ??= {};
    for (const l of a.need) nodes[l.path] = await stateOf(v, l);
  }
}
