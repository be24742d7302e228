// A vault on a real folder (Node only), behind a fake of Obsidian's
// desktop adapter (FileSystemAdapter): what the in-memory fake cannot
// hold, symbolic links and FIFOs, planted by a test in a temp folder.
//
// The adapter does what Obsidian's does over Node's fs: write is
// writeFile (it follows a link and truncates what it points to), read is
// readFile, stat and exists follow links, rename is fs.rename. One
// difference: a read of anything but a regular file (a FIFO, a device)
// fails at once, recorded in blocked, where Obsidian's readFile would wait
// for a writer, or read a device, forever: a test sees it, and ends.

import * as fs from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, FileSystemAdapter } from "./obsidian";

function walk(base: string, dir: string, out: string[]): void {
  for (const e of fs.readdirSync(join(base, dir), { withFileTypes: true })) {
    if (e.name.startsWith(".")) continue;
    const p = dir === "" ? e.name : `${dir}/${e.name}`;
    const st = fs.statSync(join(base, p), { throwIfNoEntry: false });
    if (st?.isDirectory()) walk(base, p, out);
    else if (st?.isFile()) out.push(p);
  }
}

export class DiskAdapter extends FileSystemAdapter {
  /** every path read through the adapter, in order */
  reads: string[] = [];
  /** the paths whose read would never have ended (not a regular file) */
  blocked: string[] = [];
  /** every path written through the adapter (write, append), in order */
  writes: string[] = [];

  constructor(readonly base: string) {
    super();
  }

  getName(): string {
    return "disk";
  }
  getBasePath(): string {
    return this.base;
  }
  getFullPath(p: string): string {
    return p === "/" || p === "" ? this.base : join(this.base, p);
  }

  async exists(p: string): Promise<boolean> {
    return fs.existsSync(this.getFullPath(p));
  }

  async stat(p: string): Promise<{ type: "file" | "folder"; ctime: number; mtime: number; size: number } | null> {
    const st = await fs.promises.stat(this.getFullPath(p)).catch(() => null);
    if (st === null) return null;
    return { type: st.isDirectory() ? "folder" : "file", ctime: st.ctimeMs, mtime: Math.floor(st.mtimeMs), size: st.size };
  }

  async list(p: string): Promise<{ files: string[]; folders: string[] }> {
    const files: string[] = [];
    const folders: string[] = [];
    const dir = p === "/" ? "" : p;
    for (const n of await fs.promises.readdir(this.getFullPath(p))) {
      const q = dir === "" ? n : `${dir}/${n}`;
      ((await fs.promises.stat(this.getFullPath(q)).catch(() => null))?.isDirectory() ? folders : files).push(q);
    }
    return { files, folders };
  }

  private async bytes(p: string): Promise<Buffer> {
    this.reads.push(p);
    const full = this.getFullPath(p);
    if (!(await fs.promises.stat(full)).isFile()) {
      this.blocked.push(p);
      throw new Error(`read ${p}: not a regular file (Obsidian's read would never end)`);
    }
    return fs.promises.readFile(full);
  }

  async read(p: string): Promise<string> {
    return (await this.bytes(p)).toString("utf8");
  }

  async readBinary(p: string): Promise<ArrayBuffer> {
    const b = await this.bytes(p);
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }

  async write(p: string, data: string): Promise<void> {
    this.writes.push(p);
    await fs.promises.writeFile(this.getFullPath(p), data);
  }

  async writeBinary(p: string, data: ArrayBuffer): Promise<void> {
    this.writes.push(p);
    await fs.promises.writeFile(this.getFullPath(p), new Uint8Array(data));
  }

  async append(p: string, data: string): Promise<void> {
    this.writes.push(p);
    await fs.promises.appendFile(this.getFullPath(p), data);
  }

  async process(p: string, fn: (data: string) => string): Promise<string> {
    const next = fn(await this.read(p));
    await this.write(p, next);
    return next;
  }

  async mkdir(p: string): Promise<void> {
    await fs.promises.mkdir(this.getFullPath(p), { recursive: true });
  }

  async remove(p: string): Promise<void> {
    await fs.promises.unlink(this.getFullPath(p));
  }

  async rmdir(p: string, recursive: boolean): Promise<void> {
    await fs.promises.rm(this.getFullPath(p), { recursive });
  }

  async rename(from: string, to: string): Promise<void> {
    await fs.promises.rename(this.getFullPath(from), this.getFullPath(to));
  }
}

/** DiskVault is a temp folder holding a vault, and an App whose vault lists and reads it through a DiskAdapter. */
export class DiskVault {
  readonly base = mkdtempSync(join(tmpdir(), "kessho-disk-vault-"));
  readonly adapter = new DiskAdapter(this.base);
  readonly app = new App();

  constructor(files: Record<string, string>) {
    for (const [p, text] of Object.entries(files)) this.put(p, text);
    const v = this.app.vault as unknown as { adapter: unknown; getMarkdownFiles(): unknown[] };
    v.adapter = this.adapter;
    // Obsidian's index of the notes, from the disk (it follows links, as Obsidian's does).
    v.getMarkdownFiles = () => {
      const out: string[] = [];
      walk(this.base, "", out);
      return out
        .filter((p) => p.endsWith(".md"))
        .map((p) => {
          const st = fs.statSync(this.full(p));
          return { path: p, stat: { size: st.size, mtime: Math.floor(st.mtimeMs), ctime: 0 } };
        });
    };
  }

  full(p: string): string {
    return join(this.base, p);
  }

  /** put writes a file, making its folders. */
  put(p: string, text: string | Uint8Array): void {
    const full = this.full(p);
    fs.mkdirSync(join(full, ".."), { recursive: true });
    fs.writeFileSync(full, text);
  }

  read(p: string): string {
    return fs.readFileSync(this.full(p), "utf8");
  }

  /** link plants a symbolic link at p, to target (relative to p's folder, as git and sync clients carry them). */
  link(p: string, target: string): void {
    fs.mkdirSync(join(this.full(p), ".."), { recursive: true });
    fs.symlinkSync(target, this.full(p));
  }

  remove(): void {
    rmSync(this.base, { recursive: true, force: true });
  }
}
