// The host's vault (src/host/port.ts) through Obsidian's Vault API:
// reads through the adapter (exact bytes: readBinary), writes through
// vault.process (the text re-checked inside the callback), vault.create,
// vault.createFolder, fileManager.trashFile (the user's choice of trash)
// and fileManager.renameFile, so that Obsidian's index, open editors and
// link updates follow. Never
// processFrontMatter: it re-serialises the whole YAML. Kessho's own files
// go through the adapter too (ObsidianState), but for the search index, a
// cache kept on desktop with Node's fs so that no link is written through
// (keepCache, readCache; RATIONALE.md, "Why does the plugin keep its
// search index with Node's fs on desktop?").

import { FileSystemAdapter, Platform, TFile, type App } from "obsidian";
import { randomHex, Stale, textHash, Unsafe, type Kind, type NoteStat, type StatePort, type VaultPort } from "../host/port";

/** adapterPath turns a vault path into the adapter's: the root is "/". */
function adapterPath(p: string): string {
  return p === "." || p === "" ? "/" : p;
}

function baseName(p: string): string {
  const trimmed = p.endsWith("/") ? p.slice(0, -1) : p;
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/**
 * hidden tells whether p is in a dot-folder, which Obsidian's vault index
 * leaves out: the one such place plans name is Kessho's undo records
 * (.kessho/undo/, core/plan.UndoDir), reached through the adapter alone.
 */
function hidden(p: string): boolean {
  return p.startsWith(".") || p.includes("/.");
}

/** Thrown inside vault.process to abandon the edit. */
class Mismatch extends Error {}

export class ObsidianVault implements VaultPort {
  readonly state: StatePort;

  /** disk is Node's fs, which Obsidian's desktop app has (desktopFS); null on mobile, where the state port keeps its cache files through the adapter alone. */
  constructor(
    private app: App,
    disk: NodeFS | null = desktopFS(),
  ) {
    this.own = new ObsidianState(app, disk);
    this.state = this.own;
  }

  private own: ObsidianState;

  /** undoWay looks at each place on the way to p (VaultPort.undoWay): with lstat on desktop, which tells a link; with the adapter's stat on mobile, which follows links and tells a file from a folder alone. */
  undoWay(p: string, dir: boolean): Promise<{ at: string; folder: boolean } | null> {
    return this.own.undoWay(p, dir);
  }

  async kind(p: string): Promise<Kind> {
    try {
      const st = await this.app.vault.adapter.stat(adapterPath(p));
      if (st === null || st === undefined) return null;
      return st.type === "folder" ? "folder" : "file";
    } catch {
      return null; // a parent is a file, or the path vanished
    }
  }

  /**
   * notes lists the Markdown files of Obsidian's vault index with their
   * stats (size, mtime in ms), which Obsidian keeps up to date with the
   * disk: mem_search's listing, without a read or a stat per note.
   */
  notes(): Promise<NoteStat[]> {
    return Promise.resolve(this.app.vault.getMarkdownFiles().map((f) => ({ path: f.path, size: f.stat.size, mtime: f.stat.mtime })));
  }

  /**
   * readFile reads a file Obsidian's vault index knows with no stat first
   * (VaultPort.readFile): a read that fails asks the adapter what is
   * there (gone, a folder now), as kind then readBytes would have. A path
   * the index leaves out (a dot-folder) is looked at first.
   */
  async readFile(p: string): Promise<Uint8Array | "folder" | null> {
    if (this.app.vault.getAbstractFileByPath(p) instanceof TFile) {
      try {
        return await this.readBytes(p);
      } catch (err) {
        const k = await this.kind(p);
        if (k === "file") throw err;
        return k;
      }
    }
    const k = await this.kind(p);
    return k === "file" ? this.readBytes(p) : k;
  }

  async readBytes(p: string): Promise<Uint8Array> {
    return new Uint8Array(await this.app.vault.adapter.readBinary(adapterPath(p)));
  }

  async list(p: string): Promise<{ files: string[]; folders: string[] }> {
    const l = await this.app.vault.adapter.list(adapterPath(p));
    return { files: l.files.map(baseName), folders: l.folders.map(baseName) };
  }

  async modify(p: string, expect: string | null, text: string): Promise<string> {
    // The text, as vault.process hands it, must have the hash Kessho relied
    // on. Obsidian's Vault reads drop a leading BOM, so the text with one
    // put back counts too.
    let prior = "";
    const edit = (data: string): string => {
      if (expect === null || textHash(data) === expect) prior = data;
      else if (textHash("\ufeff" + data) === expect) prior = "\ufeff" + data;
      else throw new Mismatch();
      return text;
    };
    try {
      const f = this.app.vault.getAbstractFileByPath(p);
      if (f instanceof TFile) await this.app.vault.process(f, edit);
      else await this.app.vault.adapter.process(p, edit); // not in the index yet
    } catch (err) {
      if (err instanceof Mismatch) throw new Stale("changed", p);
      throw err;
    }
    return prior;
  }

  async create(p: string, data: string | Uint8Array): Promise<void> {
    if (hidden(p)) {
      if ((await this.kind(p)) !== null) throw new Stale("exists", p);
      if (typeof data === "string") await this.app.vault.adapter.write(p, data);
      else await this.app.vault.adapter.writeBinary(p, data.slice().buffer);
      return;
    }
    try {
      if (typeof data === "string") await this.app.vault.create(p, data);
      else await this.app.vault.createBinary(p, data.slice().buffer);
    } catch (err) {
      if ((await this.kind(p)) !== null) throw new Stale("exists", p);
      throw err;
    }
  }

  async remove(p: string): Promise<void> {
    const f = this.app.vault.getAbstractFileByPath(p);
    if (f !== null) await this.app.fileManager.trashFile(f);
    else await this.app.vault.adapter.remove(p);
  }

  async move(from: string, to: string): Promise<void> {
    const f = this.app.vault.getAbstractFileByPath(from);
    if (f !== null) await this.app.fileManager.renameFile(f, to);
    else await this.app.vault.adapter.rename(from, to);
  }

  async mkdir(p: string): Promise<string[]> {
    const made: string[] = [];
    if (p === "." || p === "") return made;
    const segs = p.split("/");
    for (let i = 1; i <= segs.length; i++) {
      const d = segs.slice(0, i).join("/");
      const k = await this.kind(d);
      if (k === "folder") continue;
      if (k === "file") throw new Error(`mkdir ${d}: a file is in the way`);
      try {
        if (hidden(d)) await this.app.vault.adapter.mkdir(d);
        else await this.app.vault.createFolder(d);
        made.push(d);
      } catch (err) {
        if ((await this.kind(d)) !== "folder") throw err;
      }
    }
    return made;
  }

  async rmdir(p: string): Promise<void> {
    if (p === "." || p === "" || (await this.kind(p)) !== "folder") return;
    const l = await this.app.vault.adapter.list(adapterPath(p));
    if (l.files.length > 0 || l.folders.length > 0) return;
    const f = this.app.vault.getAbstractFileByPath(p);
    if (f !== null) await this.app.fileManager.trashFile(f);
    else await this.app.vault.adapter.rmdir(p, false);
  }
}

/**
 * The part of Node's fs the state port keeps its cache files with on
 * desktop: lstat, which tells a link from what it points to, and open
 * with O_EXCL and O_NOFOLLOW, which Obsidian's adapter has no way to ask
 * for (its write and read follow links, and its write truncates). Declared
 * here: the plugin's sources are built without Node's types.
 */
export interface NodeFS {
  constants: { O_RDONLY: number; O_WRONLY: number; O_CREAT: number; O_EXCL: number; O_NOFOLLOW?: number; O_NONBLOCK?: number };
  promises: {
    lstat(p: string): Promise<NodeStats>;
    mkdir(p: string): Promise<unknown>;
    open(p: string, flags: number, mode?: number): Promise<NodeHandle>;
    rename(from: string, to: string): Promise<void>;
    unlink(p: string): Promise<void>;
  };
}

interface NodeStats {
  isFile(): boolean;
  isDirectory(): boolean;
  size: number;
}

interface NodeHandle {
  stat(): Promise<NodeStats>;
  read(buf: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  writeFile(data: string | Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** The require of main.js's module (Obsidian's: on desktop it gives Node's modules). */
declare const require: (id: string) => unknown;

/** desktopFS returns Node's fs in Obsidian's desktop app, or null (mobile, or no require). */
function desktopFS(): NodeFS | null {
  if (!Platform.isDesktop) return null;
  try {
    return require("fs") as NodeFS;
  } catch {
    return null;
  }
}

function errCode(err: unknown): string | undefined {
  return (err as { code?: string } | null)?.code;
}

/** folders returns the folders on the way to the file p, outermost first: ".kessho", ".kessho/index" for ".kessho/index/obsidian.idx". */
function folders(p: string): string[] {
  const segs = p.split("/").slice(0, -1);
  return segs.map((_, i) => segs.slice(0, i + 1).join("/"));
}

/** tempOf is a new temporary name beside p: its name, 16 random hex digits, ".tmp" (no other writer can have planted anything there). */
function tempOf(p: string): string {
  return `${p}.${randomHex(8)}.tmp`;
}

/** isTempOf tells whether name (in p's folder) is one tempOf gives for p. */
function isTempOf(p: string, name: string): boolean {
  const base = p.slice(p.lastIndexOf("/") + 1);
  return name.startsWith(base + ".") && /^\.[0-9a-f]{16}\.tmp$/.test(name.slice(base.length));
}

const utf8 = new TextDecoder();

/** Kessho's own files (.kessho/), through the adapter: the vault's index leaves dot-folders out. */
class ObsidianState implements StatePort {
  /** Node's fs and the vault's folder on disk, on desktop (a FileSystemAdapter and Node's fs): the cache files are kept with them. */
  private disk: { fs: NodeFS; base: FileSystemAdapter } | null;

  constructor(
    private app: App,
    fs: NodeFS | null,
  ) {
    const a = app.vault.adapter;
    this.disk = fs !== null && a instanceof FileSystemAdapter ? { fs, base: a } : null;
  }

  private get a() {
    return this.app.vault.adapter;
  }

  async readCache(p: string, max: number): Promise<string | null> {
    if (!(await this.way(p, false))) return null;
    if (this.disk !== null) return this.readDisk(this.disk.fs, this.disk.base.getFullPath(p), max);
    // The adapter's stat follows links and tells files from folders alone:
    // what it calls a file may be a FIFO on a phone's shared storage
    // (README: the limits on mobile).
    const st = await this.a.stat(p).catch(() => null);
    if (st?.type !== "file" || st.size > max) return null;
    return this.a.read(p);
  }

  /** readDisk reads full when it is a regular file of at most max bytes, checked before it is opened (lstat: a link is no regular file) and again on what was opened (a FIFO swapped in between opens at once with O_NONBLOCK, and is refused). */
  private async readDisk(fs: NodeFS, full: string, max: number): Promise<string | null> {
    const st = await fs.promises.lstat(full).catch((err: unknown) => {
      if (errCode(err) === "ENOENT") return null;
      throw err;
    });
    if (st === null || !st.isFile() || st.size > max) return null;
    const c = fs.constants;
    const h = await fs.promises.open(full, c.O_RDONLY | (c.O_NOFOLLOW ?? 0) | (c.O_NONBLOCK ?? 0));
    try {
      const opened = await h.stat();
      if (!opened.isFile() || opened.size > max) return null;
      const buf = new Uint8Array(opened.size);
      let n = 0;
      while (n < buf.length) {
        const { bytesRead } = await h.read(buf, n, buf.length - n, n);
        if (bytesRead === 0) break;
        n += bytesRead;
      }
      return utf8.decode(buf.subarray(0, n));
    } finally {
      await h.close();
    }
  }

  async keepCache(p: string, text: string | Uint8Array): Promise<void> {
    await this.way(p, true);
    const tmp = tempOf(p);
    if (this.disk !== null) {
      const { fs, base } = this.disk;
      const c = fs.constants;
      const full = base.getFullPath(p);
      const h = await fs.promises.open(base.getFullPath(tmp), c.O_WRONLY | c.O_CREAT | c.O_EXCL | (c.O_NOFOLLOW ?? 0), 0o644);
      try {
        try {
          await h.writeFile(text);
        } finally {
          await h.close();
        }
        // rename replaces what is at full, a link included, and never follows it.
        await fs.promises.rename(base.getFullPath(tmp), full);
      } catch (err) {
        await fs.promises.unlink(base.getFullPath(tmp)).catch(() => undefined);
        throw err;
      }
      await this.sweep(p);
      return;
    }
    // The adapter has no exclusive create: a random name nothing else
    // knows, checked free, stands for one. Its rename may refuse an
    // existing target: what is at p goes first.
    if (await this.a.exists(tmp)) throw new Error(`keep ${p}: ${tmp} exists`);
    try {
      // Bytes (an index the worker handed over) are written as they are: no text made of them here.
      if (typeof text === "string") await this.a.write(tmp, text);
      else await this.a.writeBinary(tmp, text.byteOffset === 0 && text.byteLength === text.buffer.byteLength ? (text.buffer as ArrayBuffer) : text.slice().buffer);
      if (await this.a.exists(p)) await this.a.remove(p);
      await this.a.rename(tmp, p);
    } catch (err) {
      await this.a.remove(tmp).catch(() => undefined);
      throw err;
    }
    await this.sweep(p);
  }

  /**
   * sweep removes the temporary files of p that a store stopped half-way
   * left beside it (Obsidian closed during a first build's store of
   * several MB): an unlink removes a link, never what it points to. A
   * store another window makes at the same instant may lose its temporary
   * file, and with it that store: the index is a cache.
   */
  private async sweep(p: string): Promise<void> {
    const dir = p.slice(0, p.lastIndexOf("/"));
    const names = (await this.a.list(dir).catch(() => ({ files: [] }))).files.map(baseName).filter((n) => isTempOf(p, n));
    for (const n of names) {
      const q = `${dir}/${n}`;
      await (this.disk !== null ? this.disk.fs.promises.unlink(this.disk.base.getFullPath(q)) : this.a.remove(q)).catch(() => undefined);
    }
  }

  /**
   * way checks the folders on the way to p: each one a folder, no link
   * (lstat, on desktop; the adapter's stat, which follows links, tells a
   * file from a folder alone). A missing one is made when make is set,
   * and otherwise makes way false (nothing there to read). Anything else
   * throws Unsafe.
   */
  private async way(p: string, make: boolean): Promise<boolean> {
    for (const d of folders(p)) {
      let kind = await this.folderKind(d);
      if (kind === "missing") {
        if (!make) return false;
        try {
          await (this.disk !== null ? this.disk.fs.promises.mkdir(this.disk.base.getFullPath(d)) : this.a.mkdir(d));
        } catch (err) {
          if ((await this.folderKind(d)) === "missing") throw err;
        }
        kind = await this.folderKind(d);
      }
      if (kind !== "folder") throw new Unsafe(d);
    }
    return true;
  }

  /** undoWay is ObsidianVault.undoWay: the first place on the way to p that is not a folder, p itself not a regular file (a folder when dir), or a link. */
  async undoWay(p: string, dir: boolean): Promise<{ at: string; folder: boolean } | null> {
    const segs = p.split("/");
    for (let i = 1; i <= segs.length; i++) {
      const at = segs.slice(0, i).join("/");
      const folder = i < segs.length || dir;
      const kind = await this.placeKind(at);
      if (kind === "missing") return null;
      if (kind !== (folder ? "folder" : "file")) return { at, folder };
    }
    return null;
  }

  /** placeKind is what is at p: a folder, a regular file, missing, or something else (a link, on desktop, whatever it points to). */
  private async placeKind(p: string): Promise<"folder" | "file" | "missing" | "other"> {
    if (this.disk !== null) {
      try {
        const st = await this.disk.fs.promises.lstat(this.disk.base.getFullPath(p));
        return st.isDirectory() ? "folder" : st.isFile() ? "file" : "other";
      } catch (err) {
        if (errCode(err) === "ENOENT") return "missing";
        throw err;
      }
    }
    const st = await this.a.stat(p).catch(() => null);
    return st === null || st === undefined ? "missing" : st.type === "folder" ? "folder" : "file";
  }

  private async folderKind(d: string): Promise<"folder" | "missing" | "other"> {
    const k = await this.placeKind(d);
    return k === "file" ? "other" : k;
  }

  async list(dir: string): Promise<string[] | null> {
    if (!(await this.a.exists(dir))) return null;
    return (await this.a.list(dir)).files.map(baseName);
  }

  async read(p: string): Promise<string | null> {
    if (!(await this.a.exists(p))) return null;
    return this.a.read(p);
  }

  async write(p: string, text: string): Promise<void> {
    await this.mkdirs(p.slice(0, Math.max(0, p.lastIndexOf("/"))));
    await this.a.write(p, text);
  }

  async append(p: string, text: string): Promise<void> {
    if (await this.a.exists(p)) await this.a.append(p, text);
    else await this.write(p, text);
  }

  async remove(p: string): Promise<void> {
    if (await this.a.exists(p)) await this.a.remove(p);
  }

  async rename(from: string, to: string): Promise<void> {
    await this.a.rename(from, to);
  }

  private async mkdirs(dir: string): Promise<void> {
    if (dir === "") return;
    const segs = dir.split("/");
    for (let i = 1; i <= segs.length; i++) {
      const d = segs.slice(0, i).join("/");
      if (!(await this.a.exists(d))) await this.a.mkdir(d);
    }
  }
}
