// The rehearsal: when Obsidian is idle after start, the plugin makes a
// few hundred of the calls people make most (set a phase, set a summary,
// read a context, search) on a small project held in memory, through the same
// call loop, worker and module as a real call. Chromium compiles a
// function first with its baseline compilers and optimizes it only once
// it has run a while; without a rehearsal a fresh window's first 25 calls
// took 16-20 ms each, against 3.4 ms once it had made a few hundred
// (docs/PERFORMANCE.md). The user's vault is never read or written: the
// project lives in a MemoryVault and vanishes with it. See RATIONALE.md,
// "Why does the plugin rehearse calls when Obsidian is idle?".

import { nextTask, Stale, textHash, type Kind, type NoteStat, type StatePort, type VaultPort } from "./port";

const encoder = new TextEncoder();

/** The folder part of p ("" for a name at the root). */
function dirOf(p: string): string {
  const i = p.lastIndexOf("/");
  return i < 0 ? "" : p.slice(0, i);
}

/** The names directly in folder dir among keys (paths). */
function namesIn(dir: string, keys: Iterable<string>): string[] {
  const out: string[] = [];
  const prefix = dir === "" || dir === "." ? "" : dir + "/";
  for (const k of keys) if (k.startsWith(prefix) && !k.slice(prefix.length).includes("/")) out.push(k.slice(prefix.length));
  return out;
}

/**
 * MemoryVault is a VaultPort over notes held in memory, with the Vault
 * API's rules the plugin relies on: a write with a before-state checks
 * it (Stale "changed"), a create refuses a taken path (Stale "exists"),
 * a folder removed only when empty. Its state port holds the journal.
 */
export class MemoryVault implements VaultPort {
  readonly files = new Map<string, string>();
  readonly folders = new Set<string>();
  readonly state: StatePort = new MemoryState();
  /** A clock of writes: each file's last write, as notes() shows it. */
  private mtimes = new Map<string, number>();
  private writes = 0;

  constructor(files: Record<string, string> = {}) {
    for (const [p, text] of Object.entries(files)) {
      this.makeDirs(dirOf(p));
      this.files.set(p, text);
    }
  }

  /** notes lists the notes with their size and a modification time that counts writes (mem_search's listing). */
  notes(): Promise<NoteStat[]> {
    return Promise.resolve([...this.files].map(([path, text]) => ({ path, size: encoder.encode(text).length, mtime: this.mtimes.get(path) ?? 0 })));
  }

  kind(p: string): Promise<Kind> {
    return Promise.resolve(this.files.has(p) ? "file" : this.folders.has(p) ? "folder" : null);
  }

  /**
   * readBytes answers in a task of its own, as a real vault's read does:
   * a rehearsal call's steps are then cut where a real call's are (a
   * whole step in one task made tasks of 50 ms in a fresh page). The
   * other methods answer at once: a task at each of them made the
   * rehearsal warm the calls less (warm mem_update_phase 4.9-5.5 ms,
   * against 4.1-4.2).
   */
  async readBytes(p: string): Promise<Uint8Array> {
    await nextTask();
    const text = this.files.get(p);
    if (text === undefined) throw new Error(`no file ${p}`);
    return encoder.encode(text);
  }

  list(p: string): Promise<{ files: string[]; folders: string[] }> {
    if (p !== "." && p !== "" && !this.folders.has(p)) return Promise.reject(new Error(`no folder ${p}`));
    return Promise.resolve({ files: namesIn(p, this.files.keys()), folders: namesIn(p, this.folders) });
  }

  modify(p: string, expect: string | null, text: string): Promise<string> {
    const prior = this.files.get(p);
    if (prior === undefined || (expect !== null && textHash(prior) !== expect)) return Promise.reject(new Stale("changed", p));
    this.files.set(p, text);
    this.mtimes.set(p, ++this.writes);
    return Promise.resolve(prior);
  }

  async create(p: string, data: string | Uint8Array): Promise<void> {
    if ((await this.kind(p)) !== null) throw new Stale("exists", p);
    await this.mkdir(dirOf(p));
    this.files.set(p, typeof data === "string" ? data : new TextDecoder().decode(data));
    this.mtimes.set(p, ++this.writes);
  }

  remove(p: string): Promise<void> {
    this.files.delete(p);
    return Promise.resolve();
  }

  async move(from: string, to: string): Promise<void> {
    const text = this.files.get(from);
    if (text === undefined) throw new Error(`no file ${from}`);
    await this.mkdir(dirOf(to));
    this.files.delete(from);
    this.files.set(to, text);
    this.mtimes.set(to, ++this.writes);
  }

  mkdir(p: string): Promise<string[]> {
    try {
      return Promise.resolve(this.makeDirs(p));
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /** makeDirs makes folder p and its missing parents; it returns those it made, outermost first. */
  private makeDirs(p: string): string[] {
    const made: string[] = [];
    if (p === "." || p === "") return made;
    const segs = p.split("/");
    for (let i = 1; i <= segs.length; i++) {
      const d = segs.slice(0, i).join("/");
      if (this.files.has(d)) throw new Error(`mkdir ${d}: a file is in the way`);
      if (!this.folders.has(d)) {
        this.folders.add(d);
        made.push(d);
      }
    }
    return made;
  }

  rmdir(p: string): Promise<void> {
    if (namesIn(p, this.files.keys()).length === 0 && namesIn(p, this.folders).length === 0) this.folders.delete(p);
    return Promise.resolve();
  }
}

/** Kessho's own files of a MemoryVault (and of a preview: src/catalog/preview.ts). */
export class MemoryState implements StatePort {
  private files = new Map<string, string>();
  private dirs = new Set<string>();

  list(dir: string): Promise<string[] | null> {
    return Promise.resolve(this.dirs.has(dir) ? namesIn(dir, this.files.keys()) : null);
  }

  read(p: string): Promise<string | null> {
    return Promise.resolve(this.files.get(p) ?? null);
  }

  write(p: string, text: string): Promise<void> {
    const segs = dirOf(p).split("/");
    for (let i = 1; i <= segs.length; i++) this.dirs.add(segs.slice(0, i).join("/"));
    this.files.set(p, text);
    return Promise.resolve();
  }

  append(p: string, text: string): Promise<void> {
    return this.write(p, (this.files.get(p) ?? "") + text);
  }

  remove(p: string): Promise<void> {
    this.files.delete(p);
    return Promise.resolve();
  }

  rename(from: string, to: string): Promise<void> {
    const text = this.files.get(from);
    if (text === undefined) return Promise.reject(new Error(`no file ${from}`));
    this.files.delete(from);
    return this.write(to, text);
  }

  /** readCache: held in memory, no file here is a link or a FIFO; the bound counts the text's UTF-8 bytes. */
  readCache(p: string, max: number): Promise<string | null> {
    const text = this.files.get(p);
    return Promise.resolve(text === undefined || encoder.encode(text).length > max ? null : text);
  }

  keepCache(p: string, text: string | Uint8Array): Promise<void> {
    return this.write(p, typeof text === "string" ? text : new TextDecoder().decode(text));
  }
}

/** The rehearsal's project: a context like the ones Kessho writes, comments and lists in its frontmatter. */
const slug = "kessho-rehearsal";
const context =
  "---\n# the project's context\nslug: kessho-rehearsal\nkind: project\nphase: 'build'   # build → review\n" +
  "summary: A project held in memory, never written to the vault.\ntags: [project, \"kessho\"]\n" +
  "last-session: 2026-11-27T17:40:00+01:00\n---\n# Rehearsal — context\n\n## Decisions\n" +
  "- A decision line of some length, as a real context has them.\n".repeat(40) +
  "\n## Next\n- [ ] The next step.\n";

/** rehearsalVault returns a new MemoryVault holding the rehearsal's project. */
export function rehearsalVault(): MemoryVault {
  const dir = `10-episodes/projects/${slug}`;
  return new MemoryVault({
    [`${dir}/context.md`]: context,
    [`${dir}/history.md`]: `# History — ${slug}\n\n- [2026-11-27 17h40 — First](archives/2026-11-27-17h40-${slug}-first.md)\n`,
    [`${dir}/archives/2026-11-27-17h40-${slug}-first.md`]: `---\nslug: ${slug}\n---\nBody\n`,
  });
}

/** The calls of one turn of the rehearsal, in order: two writes, a read and a search. */
export function rehearsalTurn(turn: number): { tool: string; args: Record<string, string> }[] {
  return [
    { tool: "mem_update_phase", args: { slug, phase: turn % 2 === 0 ? "review" : "build" } },
    { tool: "mem_set_summary", args: { slug, summary: `Summary ${turn % 2}: a project held in memory.` } },
    { tool: "mem_read_context", args: { slug } },
    { tool: "mem_search", args: { query: "decision project" } },
  ];
}

/** What a rehearsal needs of the plugin: a call on a given vault (Host.callOn), and when to go on. */
export interface RehearsalDeps {
  /** call runs tool on v and returns its answer's text (in UTC: the rehearsal needs no zone of the device's). */
  call(v: VaultPort, tool: string, args: Record<string, string>): Promise<string>;
  /** idle resolves when the UI thread is idle and no real call is waiting. */
  idle(): Promise<void>;
  /** stopped tells that the rehearsal must end (the plugin unloaded, or the setting turned off). */
  stopped(): boolean;
}

/** The turns a rehearsal makes (4 calls each): what a fresh Chromium page needed to reach its settled speed. */
export const rehearsalTurns = 80;

/** The calls a whole rehearsal makes. */
export const rehearsalCalls = rehearsalTurns * rehearsalTurn(0).length;

/**
 * rehearse runs turns turns of rehearsalTurn on a fresh rehearsalVault,
 * one call per idle moment, and resolves with the number of calls made.
 * A refusal stops it (and rejects): the calls must take the paths of
 * successful ones.
 */
export async function rehearse(deps: RehearsalDeps, turns = rehearsalTurns): Promise<number> {
  const v = rehearsalVault();
  let calls = 0;
  for (let t = 0; t < turns; t++) {
    for (const c of rehearsalTurn(t)) {
      await deps.idle();
      if (deps.stopped()) return calls;
      const answer = await deps.call(v, c.tool, c.args);
      calls++;
      if (!answer.startsWith('{"ok":true')) throw new Error(`kessho: the rehearsal's ${c.tool} was refused: ${answer.slice(0, 300)}`);
    }
  }
  return calls;
}
