// mem_search's index on the plugin's host (src/host/search.ts): the
// listing from the vault's index, the index kept under .kessho/index, a
// first build in batches, and a build cut short resumed.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import type { App as ObsidianApp } from "obsidian";
import { call, type Engine, type RoundRequest, type Stepped } from "../../src/host/call";
import type { StepOut } from "../../src/host/step";
import { indexFile } from "../../src/host/search";
import { ObsidianVault } from "../../src/obsidian/vault-port";
import { App } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { mainJs } from "../node";
import { notes } from "./helpers";

const opts = { now: "2026-11-30T10:15:00+01:00", tz: "Europe/Paris", lang: "en" };

/** Watch is an engine that counts, from the ops of the steps it relays, the batches stored and the files read; with cut, it fails (a lost worker) once that many batches were stored. */
class Watch implements Engine {
  batches = 0;
  files: string[] = [];
  /** the needs' "search" (index_read), in order, and the requests that carried the notes' versions */
  searches: string[] = [];
  versions = 0;
  /** the folders listed */
  lists: string[] = [];
  /** files as they were at the last batch that handed the index back: the notes the stored index holds */
  stored: string[] = [];
  constructor(
    private eng: Engine,
    private cut = 0,
  ) {}
  async step(input: string, round?: RoundRequest): Promise<Stepped> {
    if (this.cut > 0 && this.batches >= this.cut) throw new Error("cut");
    // The request's text: its tail, the files' pieces (bytes) and what follows them (close).
    const text = (round?.tail ?? "") + (round?.bytes !== undefined ? new TextDecoder().decode(round.bytes) : "") + (round?.close ?? "");
    if (text.includes('"notes":{')) this.versions++;
    const got = await this.eng.step(input, round);
    const out = JSON.parse(got.out) as StepOut;
    const io = out.io ?? [];
    for (const [i, op] of io.entries()) {
      if (op.op === "need_file") this.files.push(op.path!);
      if (op.op === "need_list") this.lists.push(op.path!);
      if (op.op === "index_read") this.searches.push(op.what!);
      // A batch: its index kept, the snapshot emptied.
      if (op.op === "index_store" && io[i + 1]?.op === "snapshot_reset") {
        this.batches++;
        if ((got.index ?? "") !== "") this.stored = [...this.files];
      }
    }
    return got;
  }
}

describe("search index", () => {
  const app = new App();
  const port = new ObsidianVault(app as unknown as ObsidianApp);
  let plugin: LoadedPlugin;
  before(async () => {
    plugin = await loadPlugin(mainJs(), app);
  });
  const args = '{"query":"webhook retries","limit":5}';

  test("a first build reads the notes in batches, stores the index, and answers as a build in one round", async () => {
    app.vault.reset(notes(200));
    const whole = await call(port, plugin.engine, "mem_search", args, opts);
    app.vault.reset(notes(200));
    const w = new Watch(plugin.engine);
    const out = await call(port, w, "mem_search", args, { ...opts, indexBatch: 4000 });
    assert.equal(out.answer, whole.answer);
    assert.ok(w.batches >= 15, `${w.batches} batches`);
    assert.ok(app.vault.files.has(indexFile), "no index stored");
    // Up to date: the next search reads the hits alone.
    const again = new Watch(plugin.engine);
    const next = await call(port, again, "mem_search", args, opts);
    assert.equal(next.answer, whole.answer);
    assert.deepEqual(new Set(again.files), new Set((JSON.parse(next.answer) as { result: { hits: { path: string }[] } }).result.hits.map((h) => h.path)));
  });

  test("an edit of the same size is seen: its mtime changed", async () => {
    app.vault.reset(notes(20));
    await call(port, plugin.engine, "mem_search", args, opts);
    const p = "20-knowledge/n001.md"; // about budget
    const before = app.vault.files.get(p)!;
    const edited = new TextEncoder().encode(new TextDecoder().decode(before).replace("budget", "zzzzzz"));
    assert.equal(edited.length, before.length);
    app.vault.files.set(p, edited);
    const out = await call(port, plugin.engine, "mem_search", '{"query":"zzzzzz"}', opts);
    assert.match(out.answer, /n001\.md/);
  });

  test("a note removed, or one added in its place, changes the listing: the next search sees it", async () => {
    app.vault.reset(notes(20));
    const first = await call(port, plugin.engine, "mem_search", '{"query":"budget"}', opts);
    assert.match(first.answer, /n001\.md/);
    app.vault.files.delete("20-knowledge/n001.md");
    const gone = await call(port, plugin.engine, "mem_search", '{"query":"budget"}', opts);
    assert.doesNotMatch(gone.answer, /n001\.md/);
    // As many notes as before, one path new: not the same listing either.
    app.vault.files.set("20-knowledge/zzz.md", new TextEncoder().encode("---\nsubject: budget\n---\nbudget and other words.\n"));
    const added = await call(port, plugin.engine, "mem_search", '{"query":"budget"}', opts);
    assert.match(added.answer, /zzz\.md/);
  });

  test("an unchanged listing sends the stored index alone, without the versions; an edit is still seen", async () => {
    app.vault.reset(notes(20));
    const first = await call(port, plugin.engine, "mem_search", args, opts);
    const stop = () => (plugin.engine as unknown as { stop(): void }).stop(); // a new worker holds no index
    stop();
    const w = new Watch(plugin.engine);
    const out = await call(port, w, "mem_search", args, opts);
    assert.equal(out.answer, first.answer);
    assert.deepEqual(w.searches, ["stored"]);
    assert.equal(w.versions, 0, "versions sent");
    const p = "20-knowledge/n001.md";
    app.vault.files.set(p, new TextEncoder().encode(new TextDecoder().decode(app.vault.files.get(p)!).replace("budget", "zzzzzz")));
    stop();
    const edited = new Watch(plugin.engine);
    const after = await call(port, edited, "mem_search", '{"query":"zzzzzz"}', opts);
    assert.match(after.answer, /n001\.md/);
    assert.deepEqual(edited.searches, ["index"]);
    assert.equal(edited.versions, 1);
  });

  test("mem_recall keeps the index too: warm, it reads the notes it shows and no other principle", async () => {
    const files = notes(20);
    files["10-episodes/projects/alpha/context.md"] = "---\nslug: alpha\nkind: project\n---\n# Alpha\n";
    files["40-principles/Linked.md"] = "Learned on [[alpha]].\n";
    files["40-principles/Unrelated.md"] = "Learned on [[beta]].\n";
    app.vault.reset(files);
    const first = await call(port, plugin.engine, "mem_recall", '{"slug":"alpha"}', opts);
    assert.match(first.answer, /Linked\.md/);
    assert.ok(app.vault.files.has(indexFile), "no index stored");
    const w = new Watch(plugin.engine);
    const again = await call(port, w, "mem_recall", '{"slug":"alpha"}', opts);
    assert.equal(again.answer, first.answer);
    assert.ok(w.files.includes("40-principles/Linked.md") && !w.files.includes("40-principles/Unrelated.md"), `read ${w.files.join(", ")}`);
    assert.ok(!w.lists.some((p) => p.startsWith("40-principles")), `listed ${w.lists.join(", ")}`);
  });

  test("a build cut after a few batches resumes from the stored index", async () => {
    app.vault.reset(notes(120));
    const whole = await call(port, plugin.engine, "mem_search", args, opts);
    app.vault.reset(notes(120));
    const cut = new Watch(plugin.engine, 5);
    await assert.rejects(call(port, cut, "mem_search", args, { ...opts, indexBatch: 3000 }), /cut/);
    const read = new Set(cut.files);
    const stored = new Set(cut.stored);
    // The worker lost: the next request starts another, which holds no index.
    const started = plugin.engine.started;
    (plugin.engine as unknown as { stop(): void }).stop();
    const next = new Watch(plugin.engine);
    const out = await call(port, next, "mem_search", args, { ...opts, indexBatch: 3000 });
    assert.equal(out.answer, whole.answer);
    assert.equal(plugin.engine.started, started + 1, "no new worker");
    // Read again of the notes the stored index holds: the hits alone.
    const again = next.files.filter((p) => stored.has(p));
    for (const p of next.files) read.add(p);
    assert.equal(read.size, 120);
    assert.ok(cut.files.length >= 30 && stored.size >= 20 && again.length <= 5, `cut call read ${cut.files.length}, stored ${stored.size}, the next ${next.files.length} (${again.length} of the stored again)`);
  });
});
