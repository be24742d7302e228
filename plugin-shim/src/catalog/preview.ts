// What a call would write, found before it writes: the call runs through
// the same host loop on a PreviewVault, which reads the real vault and
// keeps every write in memory (the way the rehearsal's calls run on a
// vault held in memory, src/host/rehearsal.ts). Its changes (notes created,
// changed, deleted, folders moved) are what the form shows before the
// person says "Write"; the real call then runs with the same arguments and
// the same time, so it writes what was shown, or is refused if the vault
// changed meanwhile.

import { Stale, textHash, type Kind, type StatePort, type VaultPort } from "../host/port";
import { MemoryState } from "../host/rehearsal";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function dirOf(p: string): string {
  const i = p.lastIndexOf("/");
  return i < 0 ? "" : p.slice(0, i);
}

function nameOf(p: string): string {
  return p.slice(p.lastIndexOf("/") + 1);
}

/** One change a call would make, as the form shows it. */
export type Change =
  | { op: "create"; path: string; text: string }
  | { op: "modify"; path: string; before: string; after: string }
  | { op: "delete"; path: string }
  | { op: "move"; from: string; to: string };

/** PreviewVault reads base and keeps its own writes in memory; base is never written. */
export class PreviewVault implements VaultPort {
  /** Files written here: their bytes, or null once deleted. */
  private files = new Map<string, Uint8Array | null>();
  private madeDirs = new Set<string>();
  private goneDirs = new Set<string>();
  private moves: { from: string; to: string }[] = [];
  readonly state: StatePort;

  constructor(private base: VaultPort) {
    this.state = new PreviewState(base.state);
  }

  async kind(p: string): Promise<Kind> {
    const f = this.files.get(p);
    if (f !== undefined) return f === null ? null : "file";
    if (this.madeDirs.has(p)) return "folder";
    if (this.gone(p)) return null;
    return this.base.kind(p);
  }

  private gone(p: string): boolean {
    for (let d = p; d !== ""; d = dirOf(d)) if (this.goneDirs.has(d)) return true;
    return false;
  }

  async readBytes(p: string): Promise<Uint8Array> {
    const f = this.files.get(p);
    if (f === null || (f === undefined && this.gone(p))) throw new Error(`no file ${p}`);
    return f ?? this.base.readBytes(p);
  }

  async list(p: string): Promise<{ files: string[]; folders: string[] }> {
    const inBase = !this.gone(p) && (p === "." || p === "" || (await this.base.kind(p)) === "folder");
    const got = inBase ? await this.base.list(p) : { files: [], folders: [] };
    const files = new Set(got.files);
    const folders = new Set(got.folders.filter((d) => !this.goneDirs.has(join(p, d))));
    const prefix = p === "." || p === "" ? "" : p + "/";
    for (const [path, bytes] of this.files) {
      if (!path.startsWith(prefix) || path.slice(prefix.length).includes("/")) continue;
      if (bytes === null) files.delete(nameOf(path));
      else files.add(nameOf(path));
    }
    for (const d of this.madeDirs) if (d.startsWith(prefix) && !d.slice(prefix.length).includes("/")) folders.add(nameOf(d));
    return { files: [...files], folders: [...folders] };
  }

  async modify(p: string, expect: string | null, text: string): Promise<string> {
    if ((await this.kind(p)) !== "file") throw new Stale("changed", p);
    const prior = decoder.decode(await this.readBytes(p));
    if (expect !== null && textHash(prior) !== expect) throw new Stale("changed", p);
    this.files.set(p, encoder.encode(text));
    return prior;
  }

  async create(p: string, data: string | Uint8Array): Promise<void> {
    if ((await this.kind(p)) !== null) throw new Stale("exists", p);
    await this.mkdir(dirOf(p));
    this.files.set(p, typeof data === "string" ? encoder.encode(data) : data);
  }

  async remove(p: string): Promise<void> {
    this.files.set(p, null);
  }

  async move(from: string, to: string): Promise<void> {
    if ((await this.kind(from)) === "folder") {
      this.moves.push({ from, to });
      await this.moveTree(from, to);
      this.goneDirs.add(from);
      this.madeDirs.delete(from);
      return;
    }
    const bytes = await this.readBytes(from);
    await this.mkdir(dirOf(to));
    this.files.set(from, null);
    this.files.set(to, bytes);
  }

  private async moveTree(from: string, to: string): Promise<void> {
    await this.mkdir(to);
    const { files, folders } = await this.list(from);
    for (const f of files) {
      this.files.set(join(to, f), await this.readBytes(join(from, f)));
      this.files.set(join(from, f), null);
    }
    for (const d of folders) await this.moveTree(join(from, d), join(to, d));
  }

  async mkdir(p: string): Promise<string[]> {
    const made: string[] = [];
    if (p === "" || p === ".") return made;
    const segs = p.split("/");
    for (let i = 1; i <= segs.length; i++) {
      const d = segs.slice(0, i).join("/");
      const k = await this.kind(d);
      if (k === "file") throw new Error(`mkdir ${d}: a file is in the way`);
      if (k === null) {
        this.madeDirs.add(d);
        this.goneDirs.delete(d);
        made.push(d);
      }
    }
    return made;
  }

  async rmdir(p: string): Promise<void> {
    const { files, folders } = await this.list(p);
    if (files.length > 0 || folders.length > 0) return;
    this.madeDirs.delete(p);
    this.goneDirs.add(p);
  }

  /**
   * changes lists what the call wrote here, Kessho's own files (.kessho/,
   * its undo records) left out: folders moved, then each note created,
   * changed or deleted that no move accounts for, by path.
   */
  async changes(): Promise<Change[]> {
    const out: Change[] = this.moves.map((m) => ({ op: "move" as const, ...m }));
    const moved = (p: string, side: "from" | "to") => this.moves.some((m) => p.startsWith(m[side] + "/"));
    for (const [path, bytes] of [...this.files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (path.startsWith(".kessho/")) continue;
      const before = (await this.base.kind(path)) === "file" ? decoder.decode(await this.base.readBytes(path)) : null;
      if (bytes === null) {
        if (before !== null && !moved(path, "from")) out.push({ op: "delete", path });
        continue;
      }
      const after = decoder.decode(bytes);
      if (before === null) {
        if (!moved(path, "to")) out.push({ op: "create", path, text: after });
      } else if (before !== after) out.push({ op: "modify", path, before, after });
    }
    return out;
  }
}

function join(dir: string, name: string): string {
  return dir === "" || dir === "." ? name : `${dir}/${name}`;
}

/**
 * PreviewState holds a preview call's own files (its journal) in memory;
 * the search index's cache is read from the real vault's, never written
 * there.
 */
class PreviewState extends MemoryState {
  constructor(private base: StatePort) {
    super();
  }
  override async readCache(p: string, max: number): Promise<string | null> {
    return (await super.readCache(p, max)) ?? this.base.readCache(p, max);
  }
}

/**
 * lineDiff is what changed between two texts, as lines: the common head
 * and tail left out, the lines removed and the lines added (at most max
 * of each, the count of the rest after).
 */
export function lineDiff(before: string, after: string, max = 12): { removed: string[]; added: string[]; moreRemoved: number; moreAdded: number } {
  const a = before.split("\n");
  const b = after.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  return { removed: removed.slice(0, max), added: added.slice(0, max), moreRemoved: Math.max(0, removed.length - max), moreAdded: Math.max(0, added.length - max) };
}

/** What previewCall needs of the host: a call on another vault (src/host/service.ts, Host.callOn). */
export interface PreviewHost {
  readonly vault: VaultPort;
  callOn(v: VaultPort, tool: string, args: unknown, o: { now: Date }): Promise<{ answer: string }>;
}

/** previewCall makes the call at now on a PreviewVault over the host's vault: its answer, parsed, and its changes. */
export async function previewCall<A>(h: PreviewHost, tool: string, args: Record<string, unknown>, now: Date): Promise<{ answer: A; changes: Change[] }> {
  const v = new PreviewVault(h.vault);
  const out = await h.callOn(v, tool, args, { now });
  return { answer: JSON.parse(out.answer) as A, changes: await v.changes() };
}
