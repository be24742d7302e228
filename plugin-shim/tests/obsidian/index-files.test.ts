// The plugin's search index files (.kessho/index/obsidian.idx and
// obsidian.id) as the state port keeps them (src/obsidian/vault-port.ts,
// src/host/search.ts): never written through a link, read only when they
// are regular files, and read only as far as an index of the vault can
// go. On a real temp folder (desktop: Node's fs) and on the in-memory
// fake (mobile: the adapter alone).

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { App as ObsidianApp } from "obsidian";
import { call, type Engine, type Outcome, type RoundRequest, type Stepped } from "../../src/host/call";
import { indexBound, indexFile, indexIDFile, storedLength } from "../../src/host/search";
import { ObsidianVault, type NodeFS } from "../../src/obsidian/vault-port";
import { DiskVault } from "../fake/disk-vault";
import { App } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { mainJs } from "../node";
import { notes } from "../host/helpers";

const opts = { now: "2026-11-30T10:15:00+01:00", tz: "Europe/Paris", lang: "en" };
const args = '{"query":"webhook retries","limit":5}';

/** Tails is an engine that records the length of what follows each round's request: the stored index sent to the core (a NUL, then its base64). */
class Tails implements Engine {
  sent: number[] = [];
  constructor(private eng: Engine) {}
  step(input: string, round?: RoundRequest): Promise<Stepped> {
    if (round !== undefined) this.sent.push(Math.max(0, (round.after ?? "").length - 1));
    return this.eng.step(input, round);
  }
}

/** A project's context, each a note a link may point to. */
function contexts(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of ["alpha", "beta", "gamma", "delta"]) out[`10-episodes/projects/${s}/context.md`] = `---\nslug: ${s}\nkind: project\n---\n# ${s}\n\nDecisions of ${s}.\n`;
  return out;
}

type Hits = { ok: boolean; result: { hits: { path: string }[]; warnings: string[] } };

/** unkept is the core's warning (core/tools/search.yaml) when folder keeps the index from being kept, as the Go host gets it. */
function unkept(lang: "en" | "fr", folder: string): string {
  return lang === "fr"
    ? `l'index de recherche n'est pas gardé : ${folder} est un lien symbolique ou n'est pas un dossier, et Kessho n'écrit jamais à travers ; chaque recherche reconstruit l'index (plus lent) : supprimez ${folder} et Kessho recrée le dossier`
    : `the search index is not kept: ${folder} is a symbolic link or not a folder, and Kessho never writes through one; every search rebuilds the index (slower): remove ${folder} and Kessho makes the folder again`;
}

function parsed(o: Outcome): Hits {
  return JSON.parse(o.answer) as Hits;
}

describe("the plugin's search index files", () => {
  const app = new App();
  let plugin: LoadedPlugin;
  const disks: DiskVault[] = [];
  const outside = mkdtempSync(join(tmpdir(), "kessho-outside-"));
  before(async () => {
    plugin = await loadPlugin(mainJs(), app);
  });
  after(() => {
    for (const d of disks) d.remove();
    rmSync(outside, { recursive: true, force: true });
  });
  const stop = () => (plugin.engine as unknown as { stop(): void }).stop(); // a new worker holds no index
  const disk = (files: Record<string, string>) => {
    const d = new DiskVault(files);
    disks.push(d);
    return d;
  };
  /** desktop is the port of a DiskVault with Node's fs, fsys when given (a spy). */
  const desktop = (d: DiskVault, fsys: NodeFS = fs as unknown as NodeFS) => new ObsidianVault(d.app as unknown as ObsidianApp, fsys);
  const search = (port: ObsidianVault, eng: Engine = plugin.engine, tool = "mem_search", a = args) => call(port, eng, tool, a, opts);
  const files = () => ({ ...notes(20), ...contexts() });
  let clean: Outcome;
  before(async () => {
    clean = await search(desktop(disk(files())));
    assert.equal(parsed(clean).result.hits.length, 5);
    assert.deepEqual(parsed(clean).result.warnings, []);
  });

  test("links planted at the index, its id and their temporary names are never written through", async () => {
    const d = disk(files());
    const links = {
      [indexFile]: "alpha",
      [indexIDFile]: "beta",
      [indexFile + ".tmp"]: "gamma",
      [indexIDFile + ".tmp"]: "delta",
    };
    for (const [p, s] of Object.entries(links)) d.link(p, `../../10-episodes/projects/${s}/context.md`);
    const out = await search(desktop(d));
    assert.equal(out.answer, clean.answer);
    for (const [p, text] of Object.entries(contexts())) assert.equal(d.read(p), text, `${p} written through a link`);
    // The index and its id replaced the links they found; the others stay links.
    for (const p of [indexFile, indexIDFile]) assert.ok(fs.lstatSync(d.full(p)).isFile(), `${p} is no regular file`);
    for (const p of [indexFile + ".tmp", indexIDFile + ".tmp"]) assert.ok(fs.lstatSync(d.full(p)).isSymbolicLink(), `${p} removed`);
    // What was stored is the index: a fresh worker is sent it and needs nothing more.
    stop();
    const again = new Tails(plugin.engine);
    assert.equal((await search(desktop(d), again)).answer, clean.answer);
    assert.ok(again.sent.some((n) => n === fs.statSync(d.full(indexFile)).size), `sent ${again.sent.join(", ")}`);
  });

  test("a temporary file a stopped store left beside the index is removed by the next store; a link of that name, not what it points to", async () => {
    const d = disk(files());
    const left = `${indexFile}.0123456789abcdef.tmp`;
    const linked = `${indexIDFile}.fedcba9876543210.tmp`;
    const other = `${indexFile}.kept`;
    d.put(left, "half an index");
    d.put(other, "not a temporary name");
    d.link(linked, "../../10-episodes/projects/alpha/context.md");
    const out = await search(desktop(d));
    assert.equal(out.answer, clean.answer);
    assert.deepEqual(readdirSync(d.full(".kessho/index")).sort(), ["obsidian.id", "obsidian.idx", "obsidian.idx.kept"]);
    assert.equal(d.read("10-episodes/projects/alpha/context.md"), contexts()["10-episodes/projects/alpha/context.md"]);
  });

  /** The folders in the index's way that must stay untouched: each a link to outside the vault, or a file. */
  const ways: { name: string; folder: string; plant: (d: DiskVault, target: string) => void }[] = [
    { name: ".kessho/index a link", folder: ".kessho/index", plant: (d, t) => d.link(".kessho/index", t) },
    { name: ".kessho a link", folder: ".kessho", plant: (d, t) => d.link(".kessho", t) },
    { name: ".kessho a file", folder: ".kessho", plant: (d) => d.put(".kessho", "not a folder\n") },
    { name: ".kessho/index a file", folder: ".kessho/index", plant: (d) => d.put(".kessho/index", "not a folder\n") },
  ];
  for (const w of ways) {
    test(`${w.name}: nothing is written through it, the search answers, and says so in a warning`, async () => {
      const target = mkdtempSync(join(outside, "t-"));
      const d = disk(files());
      w.plant(d, target);
      const kept = fs.lstatSync(d.full(w.folder)).isFile() ? d.read(w.folder) : null;
      for (const lang of ["en", "fr"] as const) {
        const out = await call(desktop(d), plugin.engine, "mem_search", args, { ...opts, lang });
        const a = parsed(out);
        assert.ok(a.ok, out.answer);
        assert.deepEqual(a.result.hits, parsed(clean).result.hits);
        assert.deepEqual(a.result.warnings, [unkept(lang, w.folder)]);
      }
      // mem_recall keeps the index too: the same warning.
      const recall = parsed(await search(desktop(d), plugin.engine, "mem_recall", '{"slug":"alpha"}'));
      assert.ok(recall.ok);
      assert.deepEqual(recall.result.warnings, [unkept("en", w.folder)]);
      assert.deepEqual(readdirSync(target), [], "written through the link");
      if (kept !== null) assert.equal(d.read(w.folder), kept);
    });
  }

  test("through main.js, on desktop, a .kessho/index that links out of the vault is not written through", async () => {
    const target = mkdtempSync(join(outside, "main-"));
    const d = disk(files());
    d.link(".kessho/index", target);
    const p = await loadPlugin(mainJs(), d.app, { modules: { fs } });
    const out = JSON.parse(await p.api.callText("mem_search", { query: "webhook retries", limit: 5 }, opts)) as Hits;
    assert.deepEqual(out.result.hits, parsed(clean).result.hits);
    assert.deepEqual(out.result.warnings, [unkept("en", ".kessho/index")]);
    assert.deepEqual(readdirSync(target), [], "written through the link");
  });

  test("a FIFO at the index is never opened: the index is rebuilt, stored in its place, and the search answers", async () => {
    const d = disk(files());
    await search(desktop(d));
    fs.unlinkSync(d.full(indexFile));
    execFileSync("mkfifo", [d.full(indexFile)]);
    const opened: string[] = [];
    const spy = { ...fs, promises: { ...fs.promises, open: (p: string, ...rest: [number, number?]) => (opened.push(p), fs.promises.open(p, ...rest)) } };
    stop();
    const out = await search(desktop(d, spy as unknown as NodeFS));
    assert.equal(out.answer, clean.answer);
    assert.deepEqual(d.adapter.blocked, []);
    assert.ok(!opened.includes(d.full(indexFile)), "the FIFO was opened");
    assert.ok(fs.lstatSync(d.full(indexFile)).isFile(), "the FIFO is still there");
  });

  /** The two ports: desktop (a temp folder, Node's fs), mobile (the in-memory fake, the adapter alone). */
  const ports: { name: string; make: () => { port: ObsidianVault; read: (p: string) => string; write: (p: string, text: string) => void } }[] = [
    {
      name: "desktop",
      make: () => {
        const d = disk(files());
        return { port: desktop(d), read: (p) => d.read(p), write: (p, text) => d.put(p, text) };
      },
    },
    {
      name: "mobile",
      make: () => {
        app.vault.reset(files());
        return {
          port: new ObsidianVault(app as unknown as ObsidianApp, null),
          read: (p) => new TextDecoder().decode(app.vault.files.get(p)),
          write: (p, text) => app.vault.put(p, text),
        };
      },
    },
  ];
  for (const k of ports) {
    test(`${k.name}: an index file larger than its id says is never read: rebuilt, stored again, and the search answers`, async () => {
      const { port, read, write } = k.make();
      await search(port);
      const stored = read(indexFile);
      assert.equal(stored.length, 4 * Math.ceil(storedLength(read(indexIDFile)) / 3));
      write(indexFile, stored + "A".repeat(3 * stored.length + 1));
      stop();
      const w = new Tails(plugin.engine);
      const out = await search(port, w);
      assert.equal(out.answer, clean.answer);
      assert.ok(Math.max(...w.sent) <= stored.length, `sent ${w.sent.join(", ")}: the damaged index was read`);
      assert.equal(read(indexFile), stored);
    });

    test(`${k.name}: an index file of its id's length that is no base64 is no error: rebuilt, stored again, and the search answers`, async () => {
      const { port, read, write } = k.make();
      await search(port);
      const stored = read(indexFile);
      write(indexFile, "#" + stored.slice(1));
      stop();
      const out = await search(port);
      assert.equal(out.answer, clean.answer);
      assert.equal(read(indexFile), stored);
    });

    test(`${k.name}: an id whose length no index of this vault can have is not sent, its index not read`, async () => {
      const { port, read, write } = k.make();
      await search(port);
      const id = read(indexIDFile);
      const bound = indexBound(Object.entries(files()).map(([path, t]) => ({ path, size: new TextEncoder().encode(t).length, mtime: 0 })));
      const big = bound + 1;
      write(indexIDFile, id.replace(/-[0-9]+/, `-${big}`));
      write(indexFile, "A".repeat(4 * Math.ceil(big / 3)));
      stop();
      const w = new Tails(plugin.engine);
      const out = await search(port, w);
      assert.equal(out.answer, clean.answer);
      assert.deepEqual(w.sent.filter((n) => n > 0), [], "the index was read");
      assert.equal(read(indexIDFile), id, "the index built again is not the one stored");
    });
  }

  test("mobile: .kessho as a file is told, as the adapter can (a file, not a folder): the search answers with the warning", async () => {
    app.vault.reset({ ...files(), ".kessho": "not a folder\n" });
    const out = parsed(await search(new ObsidianVault(app as unknown as ObsidianApp, null)));
    assert.deepEqual(out.result.hits, parsed(clean).result.hits);
    assert.deepEqual(out.result.warnings, [unkept("en", ".kessho")]);
    assert.equal(new TextDecoder().decode(app.vault.files.get(".kessho")), "not a folder\n");
  });
});
