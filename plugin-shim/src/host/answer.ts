// Answering the core's needs: the TypeScript twin of host/vaultfs/answer.go.
// The core decides which needs are allowed (check_need), what a folder's
// listing shows (list) and the words of every refusal; this file reads.

import { ask, fromWire, refusal, type HostCore, type WireError } from "./core";
import { join } from "./plan";
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

/** The deepest folder a tree walk enters (Obsidian follows symbolic links; a loop must end). */
const maxDepth = 64;

/** byBytes orders strings as Go's sort.Strings does: by UTF-8 bytes, that is by code points. */
function byBytes(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < x.length && i < y.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/**
 * answerNeed reads what need asks for into snap, as the Go host does:
 * files with the SHA-256 of their bytes and their text when valid UTF-8
 * (not_utf8 otherwise), folders as the core's list of their names, trees
 * walked, absent paths in missing (sorted). maxBytes bounds the text held
 * in total (LIMIT_EXCEEDED past it; <= 0: no bound).
 */
export async function answerNeed(core: HostCore, v: VaultPort, need: Need, snap: Snapshot, maxBytes: number): Promise<void> {
  const checked = await ask<{ error?: WireError }>(core, "check_need", { need });
  if (checked.error !== undefined) throw fromWire(checked.error);
  const missing = new Set(snap.missing);
  const addMissing = (p: string): void => {
    if (!missing.has(p)) {
      missing.add(p);
      snap.missing.push(p);
    }
  };

  const readFile = async (p: string): Promise<void> => {
    if (snap.files.has(p) || missing.has(p)) return;
    const kind = await v.kind(p);
    if (kind === null) return addMissing(p);
    if (kind === "folder") throw await refusal(core, "folder_not_file", p);
    const bytes = await v.readBytes(p);
    const sha = sha256Hex(bytes);
    const text = decodeUTF8(bytes);
    if (text === null) {
      snap.files.set(p, { sha256: sha, not_utf8: true });
      return;
    }
    if (maxBytes > 0 && snap.used + bytes.length > maxBytes) throw await refusal(core, "too_much_text", p, { max: maxBytes });
    snap.used += bytes.length;
    snap.files.set(p, { sha256: sha, text });
  };

  // listDir returns folder p's entries as the core shows them (those patterns select, when given), or null when nothing is there.
  const listDir = async (p: string, patterns: string[] | null = null): Promise<string[] | null> => {
    const kind = p === "." ? "folder" : await v.kind(p);
    if (kind === null) return null;
    if (kind === "file") throw await refusal(core, "file_not_folder", p);
    const { files, folders } = await v.list(p);
    const names = [...files, ...folders.map((n) => n + "/")];
    return (await ask<{ names: string[] }>(core, "list", { names, patterns })).names;
  };

  for (const p of need.files ?? []) await readFile(p);
  for (const p of need.dirs ?? []) {
    if (snap.dirs.has(p) || missing.has(p)) continue;
    const entries = await listDir(p);
    if (entries === null) addMissing(p);
    else snap.dirs.set(p, entries);
  }
  for (const t of need.trees ?? []) {
    const walk = async (p: string, depth: number): Promise<void> => {
      const entries = await listDir(p);
      if (entries === null) return addMissing(p);
      snap.dirs.set(p, entries);
      for (const e of entries) {
        if (!e.endsWith("/")) {
          if (t.content) await readFile(join(p, e));
        } else if (depth < maxDepth) await walk(join(p, e.slice(0, -1)), depth + 1);
      }
    };
    await walk(t.root, 0);
  }
  for (const m of need.matches ?? []) {
    const key = [m.dir, ...m.patterns].join("\n"); // core/vault.Match.Key()
    if (snap.matches.has(key) || missing.has(m.dir)) continue;
    const entries = await listDir(m.dir, m.patterns);
    if (entries === null) addMissing(m.dir);
    else snap.matches.set(key, entries);
  }
  snap.missing.sort(byBytes);
}

/** snapshotJSON encodes the snapshot's members for the request, Go's omitempty kept. */
export function snapshotJSON(snap: Snapshot): string {
  const obj = (m: Map<string, unknown>): string => JSON.stringify(Object.fromEntries(m));
  let out = "";
  if (snap.files.size > 0) out += ',"files":' + obj(snap.files);
  if (snap.missing.length > 0) out += ',"missing":' + JSON.stringify(snap.missing);
  if (snap.dirs.size > 0) out += ',"dirs":' + obj(snap.dirs);
  if (snap.matches.size > 0) out += ',"matches":' + obj(snap.matches);
  return out;
}
