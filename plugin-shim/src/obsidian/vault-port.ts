// The host's vault (src/host/port.ts) through Obsidian's Vault API:
// reads through the adapter (exact bytes: readBinary), writes through
// vault.process (the text re-checked inside the callback), vault.create,
// vault.createFolder, fileManager.trashFile (the user's choice of trash)
// and fileManager.renameFile, so that Obsidian's index, open editors and
// link updates follow. Never
// processFrontMatter: it re-serialises the whole YAML.

import { TFile, type App } from "obsidian";
import { Stale, textHash, type Kind, type NoteStat, type StatePort, type VaultPort } from "../host/port";

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

  constructor(private app: App) {
    this.state = new ObsidianState(app);
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

/** Kessho's own files (.kessho/), through the adapter: the vault's index leaves dot-folders out. */
class ObsidianState implements StatePort {
  constructor(private app: App) {}

  private get a() {
    return this.app.vault.adapter;
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
