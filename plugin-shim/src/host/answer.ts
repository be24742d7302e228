// Answering the core's needs (docs/HOSTS.md, "Answering needs"): the core
// decides which are allowed, what to read and what a listing shows, as
// steps of the call (core/hostlogic.Step); this file reads into the
// snapshot the next round's request carries.

import { decodeUTF8, sha256HexInTasks, type VaultPort } from "./port";
import type { IO, IOResult } from "./step";
import type { File, Head, Need, Request } from "../wire.gen";

export type { Need };

/** The part of the vault sent to the core so far (core/vault.Snapshot), by path (a match by its Match.Key()). */
export interface Snapshot {
  /** core/vault.File: the hash of its bytes, and their text when valid UTF-8 */
  files: { [path: string]: File };
  /** core/vault.Head: a note's first maxHeadBytes bytes (cut back to a whole character) as text, or not_utf8, and the whole file's size */
  heads: { [path: string]: Head };
  /** the core reads it as a set: its order does not matter */
  missing: Set<string>;
  dirs: { [path: string]: string[] };
  matches: { [key: string]: string[] };
  /** listings held as the folder gave them (core/wire.Snapshot's RawDirs, RawMatches): the core shows them when it reads the request */
  rawDirs: { [path: string]: string[] };
  rawMatches: { [key: string]: string[] };
  /** bytes of text held in files */
  used: number;
  /** files' members as JSON (`"path":{…}`, comma-separated), written when each file was read, in pieces of about 64 KB: see snapshotJSON */
  filesJSON: string[];
  /** the members not yet joined into a piece of filesJSON, and their length */
  pending: string[];
  pendingLength: number;
}

/** newSnapshot is an empty snapshot; its maps have no prototype, so that any path is a key. */
export function newSnapshot(): Snapshot {
  const map = <T>(): { [key: string]: T } => Object.create(null) as { [key: string]: T };
  return { files: map(), heads: map(), missing: new Set(), dirs: map(), matches: map(), rawDirs: map(), rawMatches: map(), used: 0, filesJSON: [], pending: [], pendingLength: 0 };
}

/**
 * snapshotJSON is the JSON object of rest's members and the snapshot's,
 * the empty ones left out (Go's omitempty), files first. The files' text
 * is the bulk of a request (1.8 MB for a dry run over 3,000 archives) and
 * JSON.stringify took 44–49 ms of the UI thread over it in one task, a
 * long task in headless Chromium; each file's member is written when it is
 * read instead (filesJSON), in the task of its own read, joined with the
 * members before it into pieces of about 64 KB, and only the pieces are
 * joined here. The core reads members in any order.
 */
export function snapshotJSON(snap: Snapshot, rest: Omit<Request, "tool" | "now" | "files">): string {
  const some = <T extends object>(x: T): T | undefined => (Object.keys(x).length > 0 ? x : undefined);
  const others = JSON.stringify({ ...rest, heads: some(snap.heads), missing: some([...snap.missing]), dirs: some(snap.dirs), matches: some(snap.matches), raw_dirs: some(snap.rawDirs), raw_matches: some(snap.rawMatches) } satisfies Omit<Request, "tool" | "now" | "files">);
  const pieces = snap.pending.length > 0 ? [...snap.filesJSON, snap.pending.join(",")] : snap.filesJSON;
  if (pieces.length === 0) return others;
  return "{" + JSON.stringify("files" satisfies keyof Request) + ":{" + pieces.join(",") + "}" + (others === "{}" ? "}" : "," + others.slice(1));
}

/** putFile records file p in snap, as an object and as its JSON member. */
export function putFile(snap: Snapshot, p: string, f: File): void {
  snap.files[p] = f;
  const json = JSON.stringify(p) + ":" + JSON.stringify(f);
  snap.pending.push(json);
  snap.pendingLength += json.length;
  // Joined as they come, in pieces of about 64 KB, so that no task joins them all.
  if (snap.pendingLength >= 64 * 1024) {
    snap.filesJSON.push(snap.pending.join(","));
    snap.pending = [];
    snap.pendingLength = 0;
  }
}

/** The most of a file a head holds: 4 MiB (core/vault.MaxHeadBytes, the search index's bound on a note). */
export const maxHeadBytes = 4 << 20;

/**
 * headLen is how many of b's bytes a head keeps, b the first maxHeadBytes
 * bytes of a longer file: all of them, less the start of a character the
 * cut falls inside (core/search.HeadLen: a lead byte whose continuation
 * bytes were cut off, as Go's utf8.FullRune tells it, so that both hosts
 * send the same head whatever the bytes).
 */
export function headLen(b: Uint8Array): number {
  for (let i = b.length - 1; i >= 0 && i >= b.length - 4; i--) {
    if ((b[i]! & 0xc0) !== 0x80) return fullRune(b.subarray(i)) ? b.length : i;
  }
  return b.length;
}

/** fullRune is Go's utf8.FullRune: whether p starts with a whole character, or with bytes that can be none (an invalid one counts whole). */
function fullRune(p: Uint8Array): boolean {
  const x = p[0]!;
  const size = x < 0xc2 ? 1 : x < 0xe0 ? 2 : x < 0xf0 ? 3 : x < 0xf5 ? 4 : 1;
  if (p.length >= size) return true;
  const [lo, hi] = x === 0xe0 ? [0xa0, 0xbf] : x === 0xed ? [0x80, 0x9f] : x === 0xf0 ? [0x90, 0xbf] : x === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
  if (p.length > 1 && (p[1]! < lo || p[1]! > hi)) return true;
  return p.length > 2 && (p[2]! < 0x80 || p[2]! > 0xbf);
}

/**
 * headOf is the head a heads need gets of a file of bytes (core/vault.Head).
 * Obsidian's Vault API reads a file whole (it has no partial read): the
 * plugin holds the file a moment, and sends its head alone.
 */
export function headOf(bytes: Uint8Array): Head {
  let b = bytes.subarray(0, maxHeadBytes);
  if (bytes.length > maxHeadBytes) b = b.subarray(0, headLen(b));
  const text = decodeUTF8(b);
  return text === null ? { not_utf8: true, size: bytes.length } : { text, size: bytes.length };
}

/**
 * needOp runs one of a need's ops (core/wire's IONeed…) into snap, as the
 * core's steps ask them (core/hostlogic's answerNeed: the need's check,
 * the undo records' ways, which files and heads to read, the listings as
 * the core shows them, the tree walks); maxBytes bounds the text held in
 * total ("too_much" past it, which the core refuses; <= 0: no bound).
 */
export async function needOp(v: VaultPort, snap: Snapshot, maxBytes: number, io: IO): Promise<IOResult> {
  const p = io.path!;
  switch (io.op) {
    case "need_file":
      return readFile(v, snap, maxBytes, p);
    case "need_head": {
      if (p in snap.heads || snap.missing.has(p)) return { v: "had" };
      const kind = await v.kind(p);
      if (kind !== "file") return absentOr(snap, p, kind);
      snap.heads[p] = headOf(await v.readBytes(p));
      return { v: "head" };
    }
    case "need_list": {
      // A folder's entries, or those of a match (its key in to).
      const [into, raw] = io.to !== undefined ? [snap.matches, snap.rawMatches] : [snap.dirs, snap.rawDirs];
      const key = io.to ?? p;
      if (key in into || key in raw || snap.missing.has(p)) return { v: "had", list: into[key] ?? raw[key] ?? [] };
      const kind = p === "." ? "folder" : await v.kind(p);
      if (kind !== "folder") return absentOr(snap, p, kind);
      const { files, folders } = await v.list(p);
      const list = [...files, ...folders.map((n) => n + "/")];
      // Held raw where the core foresaw it and the listing is small: the core shows it as it reads the request, with no crossing to show it first.
      if (io.expect === "raw" && list.length <= maxRawListing) {
        raw[key] = list;
        return { v: "raw" };
      }
      return { v: "folder", list };
    }
    case "need_put":
      (io.to !== undefined ? snap.matches : snap.dirs)[io.to ?? p] = io.list ?? [];
      return {};
  }
  throw new Error(`kessho: the core asked for an op this host does not know (${io.op})`);
}

/**
 * maxRawListing is the most entries a listing held raw has: every later
 * round of the call carries it whole, where the core's shown listing of a
 * match (one project among a folder of them, a week's archives among
 * years') is a few names. A larger one goes back to the core, which shows
 * it once and has it put (need_put), at the cost of a crossing.
 */
const maxRawListing = 256;

/** absentOr is the result of finding kind at p, not the kind asked: nothing there (p then missing), or the other kind. */
function absentOr(snap: Snapshot, p: string, kind: "file" | "folder" | null): IOResult {
  if (kind !== null) return { v: kind };
  snap.missing.add(p);
  return { v: "absent" };
}

/** readFile reads file p into snap, its hash made in tasks; past maxBytes of text in snap, it puts nothing ("too_much"). */
async function readFile(v: VaultPort, snap: Snapshot, maxBytes: number, p: string): Promise<IOResult> {
  if (p in snap.files || snap.missing.has(p)) return { v: "had" };
  const kind = await v.kind(p);
  if (kind !== "file") return absentOr(snap, p, kind);
  const bytes = await v.readBytes(p);
  const sha = await sha256HexInTasks(bytes);
  const text = decodeUTF8(bytes);
  if (text === null) {
    putFile(snap, p, { sha256: sha, not_utf8: true });
    return { v: "not_utf8" };
  }
  if (maxBytes > 0 && snap.used + bytes.length > maxBytes) return { v: "too_much", max: maxBytes };
  snap.used += bytes.length;
  putFile(snap, p, { sha256: sha, text });
  return { v: "text" };
}
