// Refusals made by the host itself (not a tool). Their words come from the
// core (hostlogic, through core.ts), so that a refusal reads the same
// whichever host made it; only the INTERNAL errors of the plugin's own I/O
// are worded here, as the Go host's fault.Internalf words them.

/** A refusal with its code, its message in English and French, and details. */
export class HostError extends Error {
  constructor(
    readonly code: string,
    readonly en: string,
    readonly fr: string,
    readonly details: { [key: string]: unknown } = {},
  ) {
    super(`${code}: ${en}`);
    this.name = "HostError";
  }
}

/** internal is the Go host's fault.Internalf. */
export function internal(msg: string): HostError {
  return new HostError("INTERNAL", "internal error: " + msg, "erreur interne : " + msg);
}

/** messageOf is the message of anything thrown. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** asHostError turns anything thrown into a HostError (INTERNAL unless it is one). */
export function asHostError(err: unknown): HostError {
  return err instanceof HostError ? err : internal(messageOf(err));
}
