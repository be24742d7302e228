// Answering the core's needs: the TypeScript twin of host/vaultfs/answer.go.

import { compareBytes, goQuote } from "./gojson";
import { conflict, HostError } from "./fault";
import { checkPath, join } from "./plan";
import { selects } from "./match";
import { decodeUTF8, sha256Hex, type VaultPort } from "./port";

/** A file as the request carries it (core/vault.File). */
export interface SnapFile {
  sha256: string;
  text?: string;
  not_utf8?: boolean;
}

/** The part of the vault sent to the core so far (core/vault.Snapshot). */
export interface Snapshot {
  files: Map<string, SnapFile>;
  missing: string[];
  dirs: Map<string, string[]>;
  /** Match.Key() → the entries the match selects */
  matches: Map<string, string[]>;
  /** bytes of text held in files */
  used: number;
}

export function newSnapshot(): Snapshot {
  return { files: new Map(), missing: [], dirs: new Map(), matches: new Map(), used: 0 };
}

/** A need (core/vault.Need). */
export interface Need {
  files?: string[];
  dirs?: string[];
  trees?: { root: string; content: boolean }[];
  matches?: { dir: string; patterns: string[] }[];
}

/** matchKey is core/vault.Match.Key(): the folder and the patterns, one a line. */
export function matchKey(m: { dir: string; patterns: string[] }): string {
  return [m.dir, ...m.patterns].join("\n");
}

/** The deepest folder a tree walk enters (Obsidian follows symbolic links; a loop must end). */
const maxDepth = 64;

/**
 * answerNeed reads what need asks for into snap, as the Go host does:
 * files with the SHA-256 of their bytes and their text when valid UTF-8
 * (not_utf8 otherwise), folders as sorted names with "/" after
 * sub-folders (dot-names and names Kessho can never touch left out), trees
 * walked, absent paths in missing (sorted). maxBytes bounds the text held
 * in total (LIMIT_EXCEEDED past it; <= 0: no bound).
 */
export async function answerNeed(v: VaultPort, need: Need, snap: Snapshot, maxBytes: number): Promise<void> {
  const files = need.files ?? [];
  const dirs = need.dirs ?? [];
  const trees = need.trees ?? [];
  const matches = need.matches ?? [];
  for (const p of files) checkNeed(p, false);
  for (const p of dirs) checkNeed(p, true);
  for (const t of trees) checkNeed(t.root, true);
  for (const m of matches) checkNeed(m.dir, true);

  const missing = new Set(snap.missing);
  const addMissing = (p: string) => {
    if (!missing.has(p)) {
      missing.add(p);
      snap.missing.push(p);
    }
  };

  const readFile = async (p: string): Promise<void> => {
    if (snap.files.has(p) || missing.has(p)) return;
    const kind = await v.kind(p);
    if (kind === null) {
      addMissing(p);
      return;
    }
    if (kind === "folder") {
      throw conflict(
        p,
        p + " is a folder where Kessho expects a file; rename or move the folder, then run the call again",
        p + " est un dossier là où Kessho attend un fichier ; renommez ou déplacez le dossier, puis relancez l'appel",
      );
    }
    const bytes = await v.readBytes(p);
    const sha = sha256Hex(bytes);
    const text = decodeUTF8(bytes);
    if (text === null) {
      snap.files.set(p, { sha256: sha, not_utf8: true });
      return;
    }
    if (maxBytes > 0 && snap.used + bytes.length > maxBytes) {
      throw new HostError(
        "LIMIT_EXCEEDED",
        `reading ${p} would take the call over its bound of ${maxBytes} bytes of file text; ask for less of the vault or raise the host's bound`,
        `lire ${p} dépasserait la limite de ${maxBytes} octets de texte de l'appel ; demandez moins du coffre ou relevez la limite de l'hôte`,
        { max_bytes: maxBytes, path: p },
      );
    }
    snap.used += bytes.length;
    snap.files.set(p, { sha256: sha, text });
  };

  // listDir returns folder p's entries (names, "/" after folders), or null when nothing is there.
  const listDir = async (p: string): Promise<string[] | null> => {
    const kind = p === "." ? "folder" : await v.kind(p);
    if (kind === null) return null;
    if (kind === "file") {
      throw conflict(
        p,
        p + " is a file where Kessho expects a folder; rename or move the file, then run the call again",
        p + " est un fichier là où Kessho attend un dossier ; renommez ou déplacez le fichier, puis relancez l'appel",
      );
    }
    const { files: fs, folders } = await v.list(p);
    const out: string[] = [];
    for (const n of fs) if (listable(n)) out.push(n);
    for (const n of folders) if (listable(n)) out.push(n + "/");
    return out.sort(compareBytes);
  };

  for (const p of files) await readFile(p);
  for (const p of dirs) {
    if (snap.dirs.has(p) || missing.has(p)) continue;
    const entries = await listDir(p);
    if (entries === null) addMissing(p);
    else snap.dirs.set(p, entries);
  }
  for (const t of trees) {
    if ((t.root === "." ? "folder" : await v.kind(t.root)) === null) {
      addMissing(t.root);
      continue;
    }
    const walk = async (p: string, depth: number): Promise<void> => {
      const entries = await listDir(p);
      if (entries === null) {
        addMissing(p);
        return;
      }
      snap.dirs.set(p, entries);
      for (const e of entries) {
        if (e.endsWith("/")) {
          if (depth < maxDepth) await walk(join(p, e.slice(0, -1)), depth + 1);
        } else if (t.content) {
          await readFile(join(p, e));
        }
      }
    };
    await walk(t.root, 0);
  }
  for (const m of matches) {
    const key = matchKey(m);
    if (snap.matches.has(key) || missing.has(m.dir)) continue;
    const entries = await listDir(m.dir);
    if (entries === null) addMissing(m.dir);
    else snap.matches.set(key, entries.filter((e) => selects(m.patterns, e.endsWith("/") ? e.slice(0, -1) : e)));
  }
  snap.missing.sort(compareBytes);
}

/** listable reports whether a folder entry is shown to the core. */
function listable(name: string): boolean {
  return !name.startsWith(".") && checkPath(name) === null;
}

/** checkNeed refuses a path the module may not ask for. */
function checkNeed(p: string, folder: boolean): void {
  if (folder && p === ".") return;
  if (typeof p !== "string") throw needErr(`path ${goQuote(String(p))} is not a string`, String(p));
  const err = checkPath(p);
  if (err !== null) throw needErr(err, p);
}

function needErr(err: string, p: string): HostError {
  return new HostError(
    "INTERNAL",
    `internal error: the module asked to read a path Kessho never reads: ${err}`,
    `erreur interne : le module a demandé un chemin que Kessho ne lit jamais : ${err}`,
    { path: p },
  );
}

/** snapshotJSON encodes the snapshot's members for the request, Go's omitempty kept. */
export function snapshotJSON(snap: Snapshot): string {
  let out = "";
  if (snap.files.size > 0) {
    const parts: string[] = [];
    for (const [p, f] of snap.files) {
      let v = '{"sha256":' + JSON.stringify(f.sha256);
      if (f.text !== undefined) v += ',"text":' + JSON.stringify(f.text);
      if (f.not_utf8) v += ',"not_utf8":true';
      parts.push(JSON.stringify(p) + ":" + v + "}");
    }
    out += ',"files":{' + parts.join(",") + "}";
  }
  if (snap.missing.length > 0) out += ',"missing":' + JSON.stringify(snap.missing);
  if (snap.dirs.size > 0) {
    const parts: string[] = [];
    for (const [p, e] of snap.dirs) parts.push(JSON.stringify(p) + ":" + JSON.stringify(e));
    out += ',"dirs":{' + parts.join(",") + "}";
  }
  if (snap.matches.size > 0) {
    const parts: string[] = [];
    for (const [k, e] of snap.matches) parts.push(JSON.stringify(k) + ":" + JSON.stringify(e));
    out += ',"matches":{' + parts.join(",") + "}";
  }
  return out;
}
