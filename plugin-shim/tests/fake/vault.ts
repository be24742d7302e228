// An in-memory vault behind a faithful fake of the parts of Obsidian's Vault,
// DataAdapter and FileManager that the plugin uses. Pure JavaScript (no Node
// built-ins), so the same fake runs in Node and in the browser smoke test.
//
// Strict where Obsidian may be: creating a file or a folder needs its parent
// folder, create and createFolder refuse an existing path, rename refuses an
// existing target. The vault index (getAbstractFileByPath) leaves
// dot-folders out, as Obsidian's does; the adapter reaches everything.

const enc = new TextEncoder();
/** The adapter's reads keep a leading BOM. */
const dec = new TextDecoder("utf-8", { ignoreBOM: true });
/** Vault.read, cachedRead and process drop it, as Obsidian's do. */
const vaultDec = new TextDecoder("utf-8");

export class TAbstractFile {
  constructor(
    public vault: FakeVault,
    public path: string,
  ) {}
  get name(): string {
    return this.path.slice(this.path.lastIndexOf("/") + 1);
  }
  get parent(): TFolder | null {
    if (this.path === "") return null;
    const i = this.path.lastIndexOf("/");
    return new TFolder(this.vault, i < 0 ? "" : this.path.slice(0, i));
  }
}

export class TFile extends TAbstractFile {
  get basename(): string {
    const n = this.name;
    const i = n.lastIndexOf(".");
    return i <= 0 ? n : n.slice(0, i);
  }
  get extension(): string {
    const n = this.name;
    const i = n.lastIndexOf(".");
    return i <= 0 ? "" : n.slice(i + 1);
  }
  get stat() {
    return { ctime: 0, mtime: this.vault.files.mtime(this.path), size: this.vault.files.get(this.path)?.length ?? 0 };
  }
}

export class TFolder extends TAbstractFile {
  get children(): TAbstractFile[] {
    return this.vault.childrenOf(this.path).map((p) => this.vault.getAbstractFileByPath(p)!);
  }
  isRoot(): boolean {
    return this.path === "";
  }
}

/** Hooks let a test act at given instants: change a file mid-call, or crash. */
export interface Hooks {
  /** after every readBinary of path (n: how many times it was read so far) */
  afterRead?: (path: string, n: number) => void;
  /** in vault.process, before the file is read */
  beforeProcess?: (path: string) => void;
  /** before every change through the Vault API or FileManager; throwing simulates a crash */
  beforeChange?: (what: string, path: string) => void;
  /** at every call logged in calls (changes through the adapter too), before it acts */
  onCall?: (entry: string) => void;
}

function norm(p: string): string {
  let s = p.replace(/\\/g, "/");
  while (s.startsWith("/")) s = s.slice(1);
  while (s.endsWith("/")) s = s.slice(0, -1);
  return s === "." ? "" : s;
}

function parentOf(p: string): string {
  const i = p.lastIndexOf("/");
  return i < 0 ? "" : p.slice(0, i);
}

function fsError(code: string, p: string): Error {
  const e = new Error(`${code}: ${p}`) as Error & { code: string };
  e.code = code;
  return e;
}

/** The mtimes StampedFiles give: one clock for every fake vault, so that no two writes ever share one. */
let clock = 0;

/**
 * StampedFiles are a vault's files, each stamped with a new mtime (ms) on
 * every write: mem_search keys notes by size and mtime, and a fake vault
 * whose mtimes repeated (a reset, a rewrite of the same size) would let an
 * index answer from content the vault no longer holds.
 */
class StampedFiles extends Map<string, Uint8Array> {
  private stamps = new Map<string, number>();

  override set(p: string, data: Uint8Array): this {
    // The Map constructor may call set before the fields exist.
    (this.stamps ??= new Map()).set(p, ++clock);
    return super.set(p, data);
  }

  mtime(p: string): number {
    return this.stamps.get(p) ?? 0;
  }
}

export class FakeVault {
  files = new StampedFiles();
  folders = new Set<string>([""]);
  hooks: Hooks = {};
  /** Every call the plugin made, in order: "vault.process path", "adapter.write path", … */
  calls: string[] = [];
  reads = new Map<string, number>();
  adapter: FakeAdapter;
  /**
   * io, when set, runs before every adapter read, stat and list, which
   * answer once it resolves: a page sets it to answer in a task of its
   * own, as Obsidian's adapter does (Node's fs on desktop, Capacitor's
   * bridge on mobile). Unset, they answer at once (in microtasks).
   */
  io: (() => Promise<void>) | null = null;

  constructor(files: Record<string, Uint8Array | string> = {}) {
    this.adapter = new FakeAdapter(this);
    this.reset(files);
  }

  /** reset replaces the whole vault. */
  reset(files: Record<string, Uint8Array | string> | Map<string, Uint8Array>): void {
    this.files.clear();
    this.folders = new Set([""]);
    this.calls = [];
    this.reads.clear();
    this.hooks = {};
    const entries = files instanceof Map ? [...files] : Object.entries(files);
    for (const [p, d] of entries) this.put(p, d);
  }

  /** put writes a file, making its folders (as a test sets a vault up, not as the plugin writes). */
  put(p: string, data: Uint8Array | string): void {
    p = norm(p);
    for (let d = parentOf(p); ; d = parentOf(d)) {
      this.folders.add(d);
      if (d === "") break;
    }
    this.files.set(p, typeof data === "string" ? enc.encode(data) : new Uint8Array(data));
  }

  /** snapshot returns every file, leaving out what is inside dot-folders but for Kessho's undo records, .kessho/undo/ (as the Go tests' ReadTree). */
  snapshot(): Map<string, Uint8Array> {
    const out = new Map<string, Uint8Array>();
    for (const [p, d] of this.files) {
      const segs = p.split("/");
      if (segs.slice(0, -1).some((s) => s.startsWith(".")) && !p.startsWith(".kessho/undo/")) continue;
      out.set(p, d);
    }
    return out;
  }

  kindOf(p: string): "file" | "folder" | null {
    p = norm(p);
    if (this.files.has(p)) return "file";
    if (this.folders.has(p)) return "folder";
    return null;
  }

  childrenOf(dir: string): string[] {
    dir = norm(dir);
    const out: string[] = [];
    const prefix = dir === "" ? "" : dir + "/";
    for (const p of [...this.folders, ...this.files.keys()]) {
      if (p !== "" && p.startsWith(prefix) && !p.slice(prefix.length).includes("/")) out.push(p);
    }
    return out.sort();
  }

  /** log records a call the plugin made, then lets the test act. */
  log(entry: string): void {
    this.calls.push(entry);
    this.hooks.onCall?.(entry);
  }

  private change(what: string, p: string): void {
    this.log(`${what} ${p}`);
    this.hooks.beforeChange?.(what, p);
  }

  /**
   * refuseHidden throws for a path the vault index leaves out: what the
   * plugin keeps in dot-folders goes through the adapter, never through
   * the Vault API (whose files there Obsidian would not know).
   */
  private refuseHidden(p: string): void {
    if (!this.indexed(p)) throw new Error(`the vault index leaves ${p} out: use the adapter`);
  }

  /** indexed: no segment of p starts with a dot (Obsidian's index leaves dot-folders out). */
  private indexed(p: string): boolean {
    return !p.startsWith(".") && !p.includes("/.");
  }

  getAbstractFileByPath(path: string): TAbstractFile | null {
    const p = norm(path);
    if (!this.indexed(p)) return null;
    const k = this.kindOf(p);
    if (k === "file") return new TFile(this, p);
    if (k === "folder") return new TFolder(this, p);
    return null;
  }

  /** getMarkdownFiles lists the indexed .md files, as Obsidian's does. */
  getMarkdownFiles(): TFile[] {
    return [...this.files.keys()].filter((p) => p.endsWith(".md") && this.indexed(p)).map((p) => new TFile(this, p));
  }

  getFileByPath(path: string): TFile | null {
    const f = this.getAbstractFileByPath(path);
    return f instanceof TFile ? f : null;
  }

  getRoot(): TFolder {
    return new TFolder(this, "");
  }

  async read(file: TFile): Promise<string> {
    return vaultDec.decode(this.files.get(norm(file.path)) ?? new Uint8Array());
  }

  async cachedRead(file: TFile): Promise<string> {
    return this.read(file);
  }

  async process(file: TFile, fn: (data: string) => string): Promise<string> {
    const p = norm(file.path);
    this.change("vault.process", p);
    this.hooks.beforeProcess?.(p);
    const cur = this.files.get(p);
    if (cur === undefined) throw fsError("ENOENT", p);
    const next = fn(vaultDec.decode(cur));
    this.files.set(p, enc.encode(next));
    return next;
  }

  async modify(file: TFile, data: string): Promise<void> {
    const p = norm(file.path);
    this.change("vault.modify", p);
    if (!this.files.has(p)) throw fsError("ENOENT", p);
    this.files.set(p, enc.encode(data));
  }

  async create(path: string, data: string): Promise<TFile> {
    const p = norm(path);
    this.change("vault.create", p);
    this.refuseHidden(p);
    if (this.kindOf(p) !== null) throw new Error("File already exists.");
    if (this.kindOf(parentOf(p)) !== "folder") throw fsError("ENOENT", p);
    this.files.set(p, enc.encode(data));
    return new TFile(this, p);
  }

  async createBinary(path: string, data: ArrayBuffer): Promise<TFile> {
    const p = norm(path);
    this.change("vault.createBinary", p);
    this.refuseHidden(p);
    if (this.kindOf(p) !== null) throw new Error("File already exists.");
    if (this.kindOf(parentOf(p)) !== "folder") throw fsError("ENOENT", p);
    this.files.set(p, new Uint8Array(data.slice(0)));
    return new TFile(this, p);
  }

  async createFolder(path: string): Promise<TFolder> {
    const p = norm(path);
    this.change("vault.createFolder", p);
    this.refuseHidden(p);
    if (this.kindOf(p) !== null) throw new Error("Folder already exists.");
    if (this.kindOf(parentOf(p)) !== "folder") throw fsError("ENOENT", p);
    this.folders.add(p);
    return new TFolder(this, p);
  }

  async delete(file: TAbstractFile, _force?: boolean): Promise<void> {
    const p = norm(file.path);
    this.change("vault.delete", p);
    this.removeAt(p);
  }

  async trash(file: TAbstractFile): Promise<void> {
    await this.delete(file);
  }

  async rename(file: TAbstractFile, newPath: string): Promise<void> {
    const from = norm(file.path);
    this.change("vault.rename", from);
    this.moveAt(from, norm(newPath));
  }

  removeAt(p: string): void {
    if (this.files.delete(p)) return;
    if (!this.folders.has(p) || p === "") throw fsError("ENOENT", p);
    for (const q of [...this.files.keys()]) if (q.startsWith(p + "/")) this.files.delete(q);
    for (const q of [...this.folders]) if (q === p || q.startsWith(p + "/")) this.folders.delete(q);
  }

  moveAt(from: string, to: string): void {
    const k = this.kindOf(from);
    if (k === null) throw fsError("ENOENT", from);
    if (this.kindOf(to) !== null) throw fsError("EEXIST", to);
    if (this.kindOf(parentOf(to)) !== "folder") throw fsError("ENOENT", to);
    if (k === "file") {
      this.files.set(to, this.files.get(from)!);
      this.files.delete(from);
      return;
    }
    const re = (q: string) => to + q.slice(from.length);
    for (const q of [...this.files.keys()]) {
      if (q.startsWith(from + "/")) {
        this.files.set(re(q), this.files.get(q)!);
        this.files.delete(q);
      }
    }
    for (const q of [...this.folders]) {
      if (q === from || q.startsWith(from + "/")) {
        this.folders.delete(q);
        this.folders.add(re(q));
      }
    }
  }
}

export class FakeAdapter {
  constructor(private v: FakeVault) {}

  getName(): string {
    return "fake";
  }

  async exists(path: string): Promise<boolean> {
    return this.v.kindOf(path) !== null;
  }

  async stat(path: string): Promise<{ type: "file" | "folder"; ctime: number; mtime: number; size: number } | null> {
    await this.v.io?.();
    const k = this.v.kindOf(path);
    if (k === null) return null;
    return { type: k, ctime: 0, mtime: 0, size: k === "file" ? this.v.files.get(norm(path))!.length : 0 };
  }

  async list(path: string): Promise<{ files: string[]; folders: string[] }> {
    await this.v.io?.();
    const p = norm(path);
    if (this.v.kindOf(p) !== "folder") throw fsError("ENOENT", p);
    const files: string[] = [];
    const folders: string[] = [];
    for (const c of this.v.childrenOf(p)) (this.v.files.has(c) ? files : folders).push(c);
    return { files, folders };
  }

  async read(path: string): Promise<string> {
    return dec.decode(await this.readBytes(path));
  }

  async readBinary(path: string): Promise<ArrayBuffer> {
    const b = await this.readBytes(path);
    const p = norm(path);
    const n = (this.v.reads.get(p) ?? 0) + 1;
    this.v.reads.set(p, n);
    const copy = b.slice().buffer;
    this.v.hooks.afterRead?.(p, n);
    return copy;
  }

  private async readBytes(path: string): Promise<Uint8Array> {
    await this.v.io?.();
    const b = this.v.files.get(norm(path));
    if (b === undefined) throw fsError("ENOENT", path);
    return b;
  }

  async write(path: string, data: string): Promise<void> {
    const p = norm(path);
    this.v.log(`adapter.write ${p}`);
    if (this.v.kindOf(parentOf(p)) !== "folder") throw fsError("ENOENT", p);
    if (this.v.kindOf(p) === "folder") throw fsError("EISDIR", p);
    this.v.files.set(p, enc.encode(data));
  }

  async writeBinary(path: string, data: ArrayBuffer): Promise<void> {
    const p = norm(path);
    this.v.log(`adapter.writeBinary ${p}`);
    if (this.v.kindOf(parentOf(p)) !== "folder") throw fsError("ENOENT", p);
    if (this.v.kindOf(p) === "folder") throw fsError("EISDIR", p);
    this.v.files.set(p, new Uint8Array(data.slice(0)));
  }

  async append(path: string, data: string): Promise<void> {
    const p = norm(path);
    this.v.log(`adapter.append ${p}`);
    if (this.v.kindOf(parentOf(p)) !== "folder") throw fsError("ENOENT", p);
    const cur = this.v.files.get(p) ?? new Uint8Array();
    const add = enc.encode(data);
    const out = new Uint8Array(cur.length + add.length);
    out.set(cur);
    out.set(add, cur.length);
    this.v.files.set(p, out);
  }

  async process(path: string, fn: (data: string) => string): Promise<string> {
    const p = norm(path);
    this.v.log(`adapter.process ${p}`);
    const next = fn(await this.read(p));
    this.v.files.set(p, enc.encode(next));
    return next;
  }

  async mkdir(path: string): Promise<void> {
    const p = norm(path);
    this.v.log(`adapter.mkdir ${p}`);
    if (this.v.kindOf(p) === "folder") return;
    if (this.v.kindOf(p) === "file") throw fsError("EEXIST", p);
    if (this.v.kindOf(parentOf(p)) !== "folder") throw fsError("ENOENT", p);
    this.v.folders.add(p);
  }

  async remove(path: string): Promise<void> {
    const p = norm(path);
    this.v.log(`adapter.remove ${p}`);
    if (!this.v.files.delete(p)) throw fsError("ENOENT", p);
  }

  async rmdir(path: string, _recursive: boolean): Promise<void> {
    const p = norm(path);
    this.v.log(`adapter.rmdir ${p}`);
    this.v.removeAt(p);
  }

  async rename(from: string, to: string): Promise<void> {
    this.v.log(`adapter.rename ${norm(from)}`);
    this.v.moveAt(norm(from), norm(to));
  }
}
