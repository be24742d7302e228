// Issue 31, item 5's status bar item: long work (a first search index
// build, a big dry run) shows how far it got, and a click stops the call
// at its next batch, which says how far it got; nothing is written but
// the batches of the index stored, which the next search goes on from.
// In the fake DOM, through the built main.js.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import type { App as ObsidianApp } from "obsidian";
import { call, type Engine, type Watch, type WorkProgress } from "../../src/host/call";
import { indexFile } from "../../src/host/search";
import { showAfterReads } from "../../src/obsidian/status";
import { ObsidianVault } from "../../src/obsidian/vault-port";
import { diffTrees } from "../cases";
import { App, type FakeEl } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { mainJs } from "../node";
import { notes } from "./helpers";

const opts = { now: "2026-11-30T10:15:00+01:00", tz: "Europe/Paris", lang: "en" };
const args = '{"query":"webhook retries","limit":5}';

/** A vault's files but the search index's (.kessho/index), which a cancelled build keeps. */
function withoutIndex(m: Map<string, Uint8Array>): Map<string, Uint8Array> {
  return new Map([...m].filter(([p]) => !p.startsWith(".kessho/index/")));
}

describe("long work in the status bar, cancellable", () => {
  const app = new App();
  const port = new ObsidianVault(app as unknown as ObsidianApp);
  let plugin: LoadedPlugin;
  let item: FakeEl;
  before(async () => {
    plugin = await loadPlugin(mainJs(), app);
    item = (plugin as unknown as { statusBarItems: FakeEl[] }).statusBarItems[0]!;
  });

  test("a cancelled index build stops at its next batch, says how far it got, and the next search goes on from there", async () => {
    app.vault.reset(notes(200));
    const whole = await call(port, plugin.engine, "mem_search", args, opts);
    app.vault.reset(notes(200));
    const untouched = app.vault.snapshot();
    const seen: WorkProgress[] = [];
    const watch: Watch = { progress: (p) => seen.push(p), cancelled: () => seen.some((p) => (p.indexed ?? 0) > 0) };
    const stopped = await call(port, plugin.engine, "mem_search", args, { ...opts, indexBatch: 4000, watch });
    const err = (JSON.parse(stopped.answer) as { error: { code: string; message: string; details: { indexed: number; left: number; read: number; tool: string } } }).error;
    assert.equal(err.code, "CANCELLED");
    const at = seen.find((p) => (p.indexed ?? 0) > 0)!;
    assert.equal(err.details.indexed, at.indexed, "it stopped at the batch after the one it was cancelled at");
    assert.equal(err.details.left, at.left);
    assert.equal(err.details.indexed + err.details.left, 200);
    assert.ok(err.details.left > 0);
    assert.equal(err.details.tool, "mem_search");
    assert.equal(err.message, `Stopped at your request after ${err.details.read} files read. Nothing was written. Its search index is stored with ${at.indexed} of 200 notes: the next call goes on from there.`);
    assert.equal(diffTrees(withoutIndex(app.vault.snapshot()), withoutIndex(untouched)), "", "nothing written but the index");
    assert.ok(app.vault.files.has(indexFile), "the batches built are stored");
    // The next search goes on from the stored batches: it reads the notes left (and the hits), not all 200.
    const reads0 = [...app.vault.reads.values()].reduce((a, b) => a + b, 0);
    const next = await call(port, plugin.engine, "mem_search", args, opts);
    assert.equal(next.answer, whole.answer);
    const reads = [...app.vault.reads.values()].reduce((a, b) => a + b, 0) - reads0;
    assert.ok(reads < 200, `the next search read ${reads} notes`);
  });

  test("a cancel while a batch is being built stores that batch first", async () => {
    app.vault.reset(notes(200));
    let cancel = false;
    // Cancelled while the core builds the first batch's index from the notes the round carries.
    const eng: Engine = {
      raw: true,
      step: (input, round) => {
        if ((round?.raw?.paths.length ?? 0) > 0) cancel = true;
        return plugin.engine.step(input, round);
      },
    };
    const stopped = await call(port, eng, "mem_search", args, { ...opts, indexBatch: 4000, watch: { progress: () => undefined, cancelled: () => cancel } });
    const err = (JSON.parse(stopped.answer) as { error: { code: string; details: { indexed?: number; left?: number } } }).error;
    assert.equal(err.code, "CANCELLED");
    assert.ok((err.details.indexed ?? 0) > 0, `the batch built is stored: ${JSON.stringify(err.details)}`);
    assert.ok(app.vault.files.has(indexFile));
  });

  test("the status bar item shows a long call's progress; a click stops it at its next batch; a short call never shows it", async () => {
    assert.ok(item.hasClass("kessho-status") && item.hasClass("kessho-idle"), "hidden when no call runs");
    // A short call (a first search of 20 notes): the item is never shown.
    app.vault.reset(notes(20));
    const texts: string[] = [];
    const setText = item.setText.bind(item);
    item.setText = (t: string) => {
      texts.push(t);
      setText(t);
    };
    assert.match(await plugin.api.callText("mem_search", { query: "webhook retries" }, opts), /^\{"ok":true/);
    assert.deepEqual([...new Set(texts)], [""], "a short call shows nothing");
    app.vault.reset(notes(600));
    const untouched = app.vault.snapshot();
    // A first search of 600 notes: shown once it read showAfterReads files; clicked there.
    let clickedAt = -1;
    let shown = "";
    app.vault.hooks.afterRead = (_p) => {
      if (clickedAt < 0 && item.getText() !== "" && !item.hasClass("kessho-idle")) {
        shown = item.getText();
        clickedAt = [...app.vault.reads.values()].reduce((a, b) => a + b, 0);
        item.dispatch("click");
      }
    };
    const answer = await plugin.api.callText("mem_search", { query: "webhook retries" }, opts);
    app.vault.hooks = {};
    assert.match(shown, /^Kessho: \d+ files read$/);
    assert.ok(Number(/(\d+)/.exec(shown)![1]) >= showAfterReads);
    const err = (JSON.parse(answer) as { ok: boolean; error: { code: string; details: { read: number } } }).error;
    assert.equal(err.code, "CANCELLED", answer.slice(0, 300));
    assert.ok(err.details.read < 600, `stopped after ${err.details.read} of 600 reads`);
    assert.ok(clickedAt > 0);
    assert.equal(diffTrees(withoutIndex(app.vault.snapshot()), withoutIndex(untouched)), "", "nothing written");
    assert.ok(item.hasClass("kessho-idle") && item.getText() === "", "hidden once the call ended");
    // Not cancelled again: the next search runs to its end.
    assert.match(await plugin.api.callText("mem_search", { query: "webhook retries" }, opts), /^\{"ok":true/);
  });

  test("the words are French when the calls are", async () => {
    app.vault.reset(notes(400));
    let shown = "";
    app.vault.hooks.afterRead = () => {
      if (shown === "" && item.getText() !== "") {
        shown = item.getText();
        item.dispatch("click");
      }
    };
    plugin.settings.lang = "fr";
    try {
      const answer = await plugin.api.callText("mem_search", { query: "webhook" }, { ...opts, lang: "fr" });
      assert.match(shown, /^Kessho : \d+ fichiers lus$/);
      assert.match(answer, /"code":"CANCELLED","message":"Arrêté à votre demande après \d+ fichiers lus\. Rien n'a été écrit\."/);
    } finally {
      plugin.settings.lang = "en";
      app.vault.hooks = {};
    }
  });
});
