// The decisions a host makes, asked of the core: the wasm module's
// handle_host entry runs core/hostlogic.Handle, the code the Go host calls
// natively (docs/HOSTS.md is the contract). This host keeps only the I/O.

import { HostError } from "./fault";

/** A core that answers host requests (WasmEngine). */
export interface HostCore {
  host(request: string): Promise<string>;
}

/** An error as the core sends it: both languages, so that the host can throw it and render it later. */
export interface WireError {
  code: string;
  en: string;
  fr: string;
  details: { [key: string]: unknown };
}

/** ask sends one request of kind to the core and returns its decoded answer. */
export async function ask<T>(core: HostCore, kind: string, req: object): Promise<T> {
  return JSON.parse(await core.host(JSON.stringify({ kind, ...req }))) as T;
}

/** fromWire is the HostError the core described. */
export function fromWire(e: WireError): HostError {
  return new HostError(e.code, e.en, e.fr, e.details);
}

/** render returns e as the Go host prints it, in lang: the core encodes it (Go's JSON). */
export function render(core: HostCore, e: HostError, lang: string): Promise<string> {
  return core.host(JSON.stringify({ kind: "render", lang, error: { code: e.code, en: e.en, fr: e.fr, details: e.details } }));
}

/** A path to look at, and whether a file there must be hashed (hostlogic.Look). */
export interface Look {
  path: string;
  hash?: boolean;
}
