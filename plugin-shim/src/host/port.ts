// The host's view of a vault, which src/obsidian/vault-port.ts implements
// with Obsidian's Vault API: the host knows nothing else.

import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

/** What is at a path: a file, a folder, or nothing. */
export type Kind = "file" | "folder" | null;

/** A vault, as the host uses it. Paths are vault-relative; "." is the root. */
export interface VaultPort {
  /** kind tells what is at p (null: nothing there, or a parent is a file). */
  kind(p: string): Promise<Kind>;
  /** readBytes returns the exact bytes of the file at p. */
  readBytes(p: string): Promise<Uint8Array>;
  /** list returns the names (not paths) in folder p, dot-names included. */
  list(p: string): Promise<{ files: string[]; folders: string[] }>;

  /**
   * modify replaces the text of the file at p. With expect set, the file's
   * hash is checked inside the atomic edit (vault.process): a difference
   * throws Stale("changed", p), nothing written. It returns the text it
   * replaced, exactly (a leading BOM Obsidian's read dropped put back).
   */
  modify(p: string, expect: string | null, text: string): Promise<string>;
  /** create makes a new file (text, or exact bytes); it throws Stale("exists", p) when something is already at p. */
  create(p: string, data: string | Uint8Array): Promise<void>;
  /** remove deletes the file at p. */
  remove(p: string): Promise<void>;
  /** move renames a file or folder (its target's parents made first). */
  move(from: string, to: string): Promise<void>;
  /** mkdir makes the folder p and its missing parents; it returns the folders it made, outermost first. */
  mkdir(p: string): Promise<string[]>;
  /** rmdir removes the folder p when it is empty, and does nothing otherwise. */
  rmdir(p: string): Promise<void>;

  /**
   * readFile, when the port has it, is kind then readBytes in one: the
   * file's bytes, or what is at p instead ("folder", or null: nothing).
   * ObsidianVault reads a file its vault index knows with no stat first:
   * a first index build reads 10,000 notes, and a stat each was as many
   * tasks more of the UI thread.
   */
  readFile?(p: string): Promise<Uint8Array | "folder" | null>;

  /**
   * notes lists the vault's notes with their size and mtime (ms), for
   * mem_search's index (src/host/search.ts); null, or no method, when the
   * host cannot list them: the core then reads every note.
   */
  notes?(): Promise<NoteStat[] | null>;

  /**
   * undoWay returns the first place on the way to p, a path under
   * Kessho's undo records (.kessho/undo/, the one dot-folder plans name),
   * that is a symbolic link or not what it must be (a folder; p itself a
   * regular file, or a folder when dir): nothing is read or written there
   * (docs/HOSTS.md, "Undo records"). null when all is well, or nothing is
   * there yet; no method: the host cannot tell.
   */
  undoWay?(p: string, dir: boolean): Promise<{ at: string; folder: boolean } | null>;

  /** state reaches Kessho's own files under .kessho/, which plans never name. */
  readonly state: StatePort;
}

/** A note as the vault lists it: its path, size in bytes and mtime in milliseconds. */
export interface NoteStat {
  path: string;
  size: number;
  mtime: number;
}

/** undoDir is core/plan.UndoDir: Kessho's undo records, the one place under a dot-folder plans and needs name. */
export const undoDir = ".kessho/undo";

/** isUndo is core/plan.IsUndo: p is under undoDir. */
export function isUndo(p: string): boolean {
  return p.startsWith(undoDir + "/");
}

/** Stale is thrown, nothing changed, when path no longer holds what an op expects (why: the core's refusal, "changed" or "exists"). */
export class Stale extends Error {
  constructor(
    readonly why: string,
    readonly path: string,
  ) {
    super(`${why}: ${path}`);
  }
}

/**
 * Unsafe is thrown by StatePort.readCache and keepCache, nothing read or
 * written, when a folder on the way to a cache file is a symbolic link
 * (or, where the adapter can tell, anything but a plain folder): writing
 * through it would write wherever the link points.
 */
export class Unsafe extends Error {
  constructor(readonly path: string) {
    super(`unsafe: ${path} is a link or not a folder`);
  }
}

/** Files outside the vault's index (dot-folders): the journal, and the search index (a cache). */
export interface StatePort {
  /** list returns the names of the files in folder dir, or null when it does not exist. */
  list(dir: string): Promise<string[] | null>;
  /** read returns the file's text, or null when it does not exist. */
  read(p: string): Promise<string | null>;
  /** write creates or replaces a file, making its folder first. */
  write(p: string, text: string): Promise<void>;
  /** append adds text at the end of a file, creating it when missing. */
  append(p: string, text: string): Promise<void>;
  /** remove deletes a file; a missing one is not an error. */
  remove(p: string): Promise<void>;
  /** rename moves a file. */
  rename(from: string, to: string): Promise<void>;

  /**
   * readCache returns the text of p, one of Kessho's cache files (the
   * search index and its id), when it is a regular file of at most max
   * bytes; null when it is missing, larger, or anything else (a link, a
   * FIFO, a device, a folder), which is then never opened: a FIFO's read
   * waits for a writer forever, a device's may never end. It throws
   * Unsafe when a folder on p's way is a link or not a folder.
   */
  readCache(p: string, max: number): Promise<string | null>;
  /**
   * keepCache stores text as the cache file p, making its folders: the
   * text goes to a new file of a random name beside p, created
   * exclusively (never through a link, where the platform can tell), then
   * renamed over p, so that a link planted at p is replaced, never written
   * through. It throws Unsafe, nothing written, when a folder on p's way
   * is a link or not a folder.
   */
  keepCache(p: string, text: string | Uint8Array): Promise<void>;
}

/**
 * sha256Hex returns the SHA-256 of bytes in lowercase hex, synchronously
 * (@noble/hashes): vault.process's callback is, and crypto.subtle waits on
 * a worker the wasm compiler keeps busy after start-up.
 */
export function sha256Hex(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}

/** The size of the pieces sha256HexInTasks hashes, a task each. */
export const hashPiece = 64 * 1024;

/**
 * sha256HexInTasks is sha256Hex, hashing 64 KB a task: a call's large
 * files (a 3,000-archive project's history.md is 300 KB) hashed at once
 * held the UI thread for a task of 50–60 ms in a fresh page, where the
 * JavaScript hash is not yet optimized (tests/browser/worker.test.ts).
 */
export async function sha256HexInTasks(bytes: Uint8Array): Promise<string> {
  if (bytes.length <= hashPiece) return sha256Hex(bytes);
  const h = sha256.create();
  for (let i = 0; i < bytes.length; i += hashPiece) {
    if (i > 0) await nextTask();
    h.update(bytes.subarray(i, i + hashPiece));
  }
  return bytesToHex(h.digest());
}

/** nextTask resolves in a new task of the event loop (a MessageChannel message: no timer clamping), so that what follows does not lengthen the current one. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

/** messageOf is the message of anything thrown. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The random bytes randomHex hands out, drawn 4 KiB at a time: one
 * crypto.getRandomValues cost about 30 µs in Chromium, and every step of
 * a call draws 16 bytes (core/wire.StepIn's random).
 */
const pool = { bytes: new Uint8Array(4096), used: 4096 };

/** randomHex is n random bytes in hex (n at most 4096). */
export function randomHex(n: number): string {
  if (pool.used + n > pool.bytes.length) {
    crypto.getRandomValues(pool.bytes);
    pool.used = 0;
  }
  const b = pool.bytes.subarray(pool.used, pool.used + n);
  pool.used += n;
  return bytesToHex(b);
}

const encoder = new TextEncoder();

/** textHash returns the precondition string of a text: "sha256:<hex>" of its UTF-8 bytes. */
export function textHash(text: string): string {
  return "sha256:" + sha256Hex(encoder.encode(text));
}

const strictUTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** decodeUTF8 returns the text of bytes, BOM kept, or null when they are not valid UTF-8. */
export function decodeUTF8(bytes: Uint8Array): string | null {
  try {
    return strictUTF8.decode(bytes);
  } catch {
    return null;
  }
}

/** toBase64 is bytes in base64 (btoa over chunks: no Uint8Array.toBase64 on every platform). */
export function toBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += 0x8000) parts.push(String.fromCharCode(...bytes.subarray(i, i + 0x8000)));
  return btoa(parts.join(""));
}

const b64 = new TextEncoder().encode("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");

/**
 * toBase64Bytes is toBase64's text as bytes (ASCII): what the worker
 * hands a search index back as, its buffer transferred, so that the UI
 * thread neither receives a string of tens of MB (a task of 70 ms in
 * Chromium) nor encodes it to write it.
 */
export function toBase64Bytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(4 * Math.ceil(bytes.length / 3));
  let o = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = b64[n >> 18]!;
    out[o++] = b64[(n >> 12) & 63]!;
    out[o++] = b64[(n >> 6) & 63]!;
    out[o++] = b64[n & 63]!;
  }
  if (i < bytes.length) {
    const two = i + 1 < bytes.length;
    const n = (bytes[i]! << 16) | (two ? bytes[i + 1]! << 8 : 0);
    out[o++] = b64[n >> 18]!;
    out[o++] = b64[(n >> 12) & 63]!;
    out[o++] = two ? b64[(n >> 6) & 63]! : 61;
    out[o++] = 61;
  }
  return out;
}

/** fromBase64 is toBase64's inverse. */
export function fromBase64(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
