// The decisions a host makes, asked of the core: the wasm module's
// handle_host entry runs core/hostlogic.Handle (a call's refusals and their
// rendering), its step entry core/hostlogic.Step (answering a need:
// answer.ts; an apply, a recovery: apply.ts), the code the Go host calls
// natively (docs/HOSTS.md is the contract). This host keeps only the I/O.

import type { HostError as WireHostError, HostRequest } from "../wire.gen";

/** A core that answers host requests (WasmEngine). */
export interface HostCore {
  host(request: string): Promise<string>;
  /** step, when the core has it, runs one step of an apply or a recovery (core/hostlogic.Step): a StepIn's JSON in, a StepOut's out. */
  step?(input: string): Promise<string>;
}

/** An error as the core sends it (core/wire.HostError): both languages, so that the host can throw it and render it later. */
export type WireError = WireHostError;

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
export async function ask<T>(core: HostCore, kind: string, req: Partial<HostRequest>): Promise<T> {
  return JSON.parse(await core.host(JSON.stringify({ kind, ...req } satisfies Partial<HostRequest>))) as T;
}

/** render returns what a call threw as the core prints it, in lang: anything but a HostError is INTERNAL; a CONFLICT takes the code conflict, when given. */
export function render(core: HostCore, err: unknown, lang: string, conflict?: string): Promise<string> {
  const e = err instanceof HostError ? { error: err.wire } : { internal: messageOf(err) };
  return core.host(JSON.stringify({ kind: "render", lang, conflict, ...e } satisfies Partial<HostRequest>));
}

/** refusal is the host refusal why about path, in the core's words (hostlogic.Refusal: changed, exists, too_much_text…). */
export async function refusal(core: HostCore, why: string, path: string, more: Partial<HostRequest> = {}): Promise<HostError> {
  return new HostError((await ask<{ error: WireError }>(core, "refuse", { why, path, ...more })).error);
}
