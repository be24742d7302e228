// Refusals made by the host itself (not the core): CONFLICT, LIMIT_EXCEEDED,
// VAULT_LOCKED, INTERNAL. Their wording mirrors the Go host (host/vaultfs),
// so that a refusal reads the same whichever host made it.

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

  /** The message in lang ("fr", else English). */
  messageIn(lang: string): string {
    return lang === "fr" && this.fr !== "" ? this.fr : this.en;
  }
}

/** internal is the Go host's fault.Internalf. */
export function internal(msg: string): HostError {
  return new HostError("INTERNAL", "internal error: " + msg, "erreur interne : " + msg);
}

/** conflict is the refusal when the vault does not hold what a plan or a read relies on. */
export function conflict(p: string, en: string, fr: string): HostError {
  return new HostError("CONFLICT", en, fr, { path: p });
}

/** changed is the CONFLICT of a failed precondition. */
export function changed(p: string): HostError {
  return conflict(
    p,
    p + " changed since Kessho read it (another program or person wrote it); nothing was written, run the call again",
    p + " a changé depuis que Kessho l'a lu (un autre programme ou une autre personne l'a écrit) ; rien n'a été écrit, relancez l'appel",
  );
}

/** exists is the CONFLICT of something where Kessho expected nothing. */
export function exists(p: string): HostError {
  return conflict(
    p,
    p + " already exists, where Kessho expected nothing; nothing was written, run the call again",
    p + " existe déjà, là où Kessho n'attendait rien ; rien n'a été écrit, relancez l'appel",
  );
}

/** fileInTheWay is the CONFLICT of a file where a plan needs a folder. */
export function fileInTheWay(p: string): HostError {
  return conflict(
    p,
    p + " is a file where Kessho needs a folder; nothing was written, move the file away and run the call again",
    p + " est un fichier là où Kessho a besoin d'un dossier ; rien n'a été écrit, déplacez le fichier et relancez l'appel",
  );
}

/** asHostError turns anything thrown into a HostError (INTERNAL unless it is one). */
export function asHostError(err: unknown): HostError {
  if (err instanceof HostError) return err;
  const msg = err instanceof Error ? err.message : String(err);
  return internal(msg);
}
