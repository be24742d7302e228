// mem_search's index kept by the plugin (docs/HOSTS.md, section 6), the
// twin of host/call/index.go: the request carries the notes' listing and
// the stored index's id, the core's "search" needs are answered with the
// notes' versions and the stored index, and the index the core hands back
// (after a batch of a build, every few batches once it is large, and with
// a success whose index changed) is stored.
//
// The index travels after the JSON, past a NUL, as the Go host sends it;
// between this host and the engine (a string each way, through a worker)
// those bytes are base64 (the engine turns them into bytes for the module
// and back: src/engine/wasm.ts), and so they are stored: the state port
// writes text.

import { nextTask, sha256HexInTasks, Unsafe, type NoteStat, type VaultPort } from "./port";
import type { Carry } from "../wire.gen";

/** Where the index is kept: the plugin's own files, not the Go host's (search.idx), whose versions count nanoseconds where Obsidian's count milliseconds, so that neither host rebuilds after the other. */
export const indexFile = ".kessho/index/obsidian.idx";
export const indexIDFile = ".kessho/index/obsidian.id";

/** The most bytes a stored id is read from: an id is 16 hex digits, "-", the index's length, then "@" and a 64-digit listing (core/search.ID). */
const maxIDFile = 1024;

/**
 * The most bytes an index the plugin keeps may have, whatever its vault:
 * the Go host's wasm engine takes no larger request, and this engine's
 * worker would hold it three times over (its base64 text, its bytes, the
 * index decoded) within its memory bound. A 50,000-note index is 22 MB.
 */
export const maxIndex = 64 << 20;

/**
 * indexBound is the most bytes an index of a vault whose notes are listed
 * may have: 256 bytes for each byte of a note's text and path (and 64 for
 * each note), 1 MiB more, and no more than maxIndex. Measured with the
 * core (core/search's Encode on notes of every shape: random words of one
 * to twenty letters, empty notes with long paths, every frontmatter field
 * and a hundred links), an index was at most 2.5 times its notes' text,
 * paths and 64 bytes a note; a frontmatter whose YAML aliases repeat one
 * long value in every field reached 249 times. An index past the bound is
 * taken for no index of this vault: it is never read, and the core
 * rebuilds it (RATIONALE.md, "Why does the plugin bound what it reads of
 * its search index by its id and its vault?").
 */
export function indexBound(notes: Iterable<NoteStat>): number {
  let b = 1 << 20;
  for (const n of notes) b += 256 * (n.size + n.path.length + 64);
  return Math.min(b, maxIndex);
}

/**
 * storedLength returns the index length an id records (core/search.ID:
 * "<checksum>-<length>" then, optionally, "@<listing>"), or -1 when id is
 * no such id.
 */
export function storedLength(id: string): number {
  const m = /^[0-9a-f]{16}-([0-9]{1,15})(?:@[0-9a-f]*)?$/.exec(id);
  return m === null ? -1 : Number(m[1]);
}

/** base64Length is the length of n bytes in base64, padded (btoa's, src/engine/wasm.ts). */
function base64Length(n: number): number {
  return 4 * Math.ceil(n / 3);
}

/** The tool that searches. */
export const searchTool = "mem_search";

/** The tools that speak the index's protocol (core/search.Carries): mem_search, and mem_recall, which finds the principles and goals that link to a project through the index. */
const carried = new Set([searchTool, "mem_recall"]);

/** What the request carries (core/wire.Carry; the index goes after the JSON), its listing always; its unkept is the folder that keeps the index from being kept (the core warns of it). */
interface Wire extends Carry {
  listing: string;
}

const encoder = new TextEncoder();

/** isNote is core/search.IsNote: a Markdown file outside every dot-folder. */
function isNote(p: string): boolean {
  return p.endsWith(".md") && !p.startsWith(".") && !p.includes("/.");
}

/** A listing digested: its notes' versions, in path order, its notes as listed, and its digest. */
interface Digested {
  versions: Map<string, string>;
  stats: Map<string, NoteStat>;
  listing: string;
}

/**
 * The last listing digested, by vault. Hashing a 10,000-note listing (1.3
 * MB of lines, sorted, encoded, SHA-256) took most of a warm search's time
 * on the UI thread; an unchanged listing (the same paths, each with the
 * same version) has the same digest, so it is compared, not hashed again.
 */
const digested = new WeakMap<VaultPort, Digested>();

/**
 * unchanged tells whether listed holds the notes of last, each with the
 * size and mtime it had, compared as numbers: making each note's version
 * text to compare it cost a 10,000-note warm search about 1.4 ms of the UI
 * thread in Chromium. A vault lists each path once, so as many notes
 * found is the same listing.
 */
function unchanged(last: Digested, listed: NoteStat[]): boolean {
  let n = 0;
  for (const x of listed) {
    if (!isNote(x.path)) continue;
    const s = last.stats.get(x.path);
    if (s === undefined || s.size !== x.size || s.mtime !== x.mtime) return false;
    n++;
  }
  return n === last.stats.size;
}

/** digest returns the listing of the notes in listed (path order) and its digest, from digested when it is unchanged. */
async function digest(v: VaultPort, listed: NoteStat[]): Promise<Digested> {
  const last = digested.get(v);
  if (last !== undefined && unchanged(last, listed)) return last;
  // A first listing of 10,000 notes: listed, sorted, then hashed, each in tasks of its own.
  await nextTask();
  const notes = listed.filter((x) => isNote(x.path));
  const versions = new Map<string, string>();
  const stats = new Map<string, NoteStat>();
  const lines: string[] = [];
  for (const n of notes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const version = `${n.size}:${n.mtime}`;
    versions.set(n.path, version);
    stats.set(n.path, n);
    lines.push(n.path + "\u0000" + version + "\n");
  }
  // Hashed 64 KB a task: a 10,000-note listing (1.3 MB) hashed at once was a task of 95 ms in a fresh page.
  await nextTask();
  const d = { versions, stats, listing: await sha256HexInTasks(encoder.encode(lines.join(""))) };
  digested.set(v, d);
  return d;
}

/** SearchCarry is what a mem_search or mem_recall call keeps of the index for the core. */
export class SearchCarry {
  private full = false;
  /** the stored index (base64) sent with the next request only */
  private index: string | null = null;
  /**
   * unsafe is set, to the folder, once a folder on the index's way
   * (.kessho, .kessho/index) was found to be a link or not a folder:
   * nothing is read or written through it for the rest of the call, the
   * core builds the index from the notes, and the answer says so (the
   * request's "unkept", which the core words as the Go host's).
   */
  unsafe: string | null = null;

  private constructor(
    private v: VaultPort,
    private versions: Map<string, string>,
    private wire: Wire,
    /** the most bytes the stored index file may have to be read: the id's length in base64, within indexBound; 0: not read */
    private maxFile: number,
  ) {}

  /**
   * start returns the carry of a mem_search or mem_recall call on a vault that lists its
   * notes (VaultPort.notes), or null: the core then reads every note.
   * batch bounds a batch's note text (0: the core's default).
   */
  static async start(v: VaultPort, tool: string, batch: number): Promise<SearchCarry | null> {
    if (!carried.has(tool) || v.notes === undefined) return null;
    const listed = await v.notes();
    if (listed === null) return null;
    const d = await digest(v, listed);
    let unsafe: string | null = null;
    const id = (
      (await v.state.readCache(indexIDFile, maxIDFile).catch((err: unknown) => {
        unsafe = unsafeFolder(err);
        return null;
      })) ?? ""
    ).trim();
    // An id that records no length, or one no index of this vault can
    // have, names no index worth reading: it is not sent, the stored file not read.
    const n = storedLength(id);
    const known = n > 0 && n <= indexBound(d.stats.values());
    const wire: Wire = { listing: d.listing, id: known ? id : undefined };
    if (batch > 0) wire.batch = batch;
    const sc = new SearchCarry(v, d.versions, wire, known ? base64Length(n) : 0);
    sc.unsafe = unsafe;
    return sc;
  }

  /** request is the request's "search" member and what follows its JSON (a NUL and the index, or ""); the versions and the index go with one round only. */
  request(): { member: Wire; tail: string } {
    const member: Wire = { ...this.wire };
    if (this.unsafe !== null) member.unkept = this.unsafe;
    if (this.full) {
      member.full = true;
      // In path order, as a JSON object with no prototype (any path is a key).
      member.notes = Object.assign(Object.create(null) as { [path: string]: string }, Object.fromEntries(this.versions));
    }
    const tail = this.index !== null && this.index !== "" ? "\u0000" + this.index : "";
    this.full = false;
    this.index = null;
    return { member, tail };
  }

  /** answer answers a need's "search": the notes' versions ("notes"), them and the stored index ("index"), or the stored index alone ("stored": it was built from the very listing sent). */
  async answer(what: string | undefined): Promise<void> {
    if (what !== "notes" && what !== "index" && what !== "stored") return;
    this.full = what !== "stored";
    if (what === "notes" || this.unsafe !== null || this.maxFile === 0) return;
    // A file larger than the index its id names is not that index: never read (a damaged one of any size was read whole).
    this.index = await this.v.state.readCache(indexFile, this.maxFile).catch((err: unknown) => {
      this.unsafe = unsafeFolder(err);
      return null;
    });
  }

  /**
   * store keeps the index the core handed back (base64) under id, and
   * sends that id from now on; a failure is no failure of the call (the
   * index is a cache). A batch need with no index ("") hands nothing back
   * (once the index is large the core hands it back every few batches):
   * what is stored stays. The id goes first: a stop between the two
   * writes leaves the new id beside the old index, which is still read
   * when it is no longer than the new one (a vault that grew) and brought
   * up to date, where the old id beside a new, longer index would leave
   * that index unread. It returns whether index was stored.
   */
  async store(index: string | Uint8Array, id: string): Promise<boolean> {
    this.wire.id = id;
    if (index.length === 0 || this.unsafe !== null) return false;
    try {
      await this.v.state.keepCache(indexIDFile, id);
      await this.v.state.keepCache(indexFile, index);
      this.maxFile = index.length; // what a later round of this call may read back
      return true;
    } catch (err) {
      // the next search rebuilds what it lacks
      if (err instanceof Unsafe) this.unsafe = err.path;
      return false;
    }
  }
}

/** unsafeFolder returns the folder an Unsafe names, and throws any other error. */
function unsafeFolder(err: unknown): string {
  if (err instanceof Unsafe) return err.path;
  throw err;
}

/** splitTail cuts an engine's answer at its NUL: the JSON, and the index (base64) after it, or "". */
export function splitTail(answer: string): [string, string] {
  const i = answer.indexOf("\u0000");
  return i < 0 ? [answer, ""] : [answer.slice(0, i), answer.slice(i + 1)];
}
