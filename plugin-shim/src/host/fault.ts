// Refusals made by the host itself (not the core): CONFLICT, LIMIT_EXCEEDED,
// VAULT_LOCKED, INTERNAL. Their wording mirrors the Go host (host/vaultfs),
// so that a refusal reads the same whichever host made it.

import { goString, goValue, type GoValue } from "./gojson";

/** A refusal with its code, its message in English and French, and details. */
export class HostError extends Error {
  constructor(
    readonly code: string,
    readonly en: string,
    readonly fr: string,
    readonly details: { [key: string]: GoValue } = {},
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

/**
 * refusalJSON renders a host-side error exactly as the Go host prints it:
 * {"ok":false,"error":{"code":…,"message":…,"details":{…}}}.
 */
export function refusalJSON(e: HostError, lang: string): string {
  return (
    '{"ok":false,"error":{"code":' +
    goString(e.code) +
    ',"message":' +
    goString(e.messageIn(lang)) +
    ',"details":' +
    goValue(e.details) +
    "}}"
  );
}

/**
 * recoveryConflict is RECOVERY_CONFLICT: recovery found p changed after
 * the change of journal began (neither the state before the op nor the
 * state after it), kept it, and put Kessho's version (or a note) in copy.
 * The words are the Go host's, word for word.
 */
export function recoveryConflict(p: string, copy: string, journal: string): HostError {
  return new HostError(
    "RECOVERY_CONFLICT",
    `an interrupted change could not be finished: ${p} was changed after it began; your version is kept and Kessho's is in ${copy}; copy what you need from it into ${p}, then delete ${copy} and run the call again`,
    `une modification interrompue n'a pas pu être terminée : ${p} a été modifié depuis son début ; votre version est gardée et celle de Kessho est dans ${copy} ; reportez-en ce qu'il vous faut dans ${p}, puis supprimez ${copy} et relancez l'appel`,
    { path: p, copy, journal },
  );
}
