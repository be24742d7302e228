// Issue 31, item 6: a plan the plugin left half-way before Obsidian was
// closed (or crashed) is finished at the plugin's start, once its core is
// ready: before any call, and with no poll of the journal's lock (timers
// are counted, not timed: each 100 ms poll of the lock's wait is a
// setTimeout of 100). A journal another host wrote is left alone at
// start: the next call leaves it to its writer for the lock's wait.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { diffTrees } from "../cases";
import { App } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { mainJs } from "../node";
import { callCase, caseNamed, cleanRun, journalFiles } from "./helpers";

/** failAt makes the n-th change through the Vault API (folders aside) throw. */
function failAt(app: App, n: number): void {
  let k = 0;
  app.vault.hooks.beforeChange = (what) => {
    if (what !== "vault.createFolder" && ++k === n) throw new Error("simulated failure");
  };
}

/** restart loads main.js again in app (a new process), the rehearsal on, and waits for its start (the core ready, the rehearsal over), counting the lock's polls meanwhile. */
async function restart(app: App): Promise<{ plugin: LoadedPlugin; polls: number }> {
  let polls = 0;
  const real = globalThis.setTimeout;
  globalThis.setTimeout = ((fn: () => void, ms?: number) => {
    if (ms === 100) polls++; // the journal's poll
    return real(fn, 0);
  }) as typeof setTimeout;
  try {
    const plugin = await loadPlugin(mainJs(), app);
    await plugin.rehearsed;
    return { plugin, polls };
  } finally {
    globalThis.setTimeout = real;
  }
}

describe("recovery at start", () => {
  test("a plan the plugin left half-way is finished at its next start, before any call, with no wait", async () => {
    const app = new App();
    let plugin = await loadPlugin(mainJs(), app);
    await plugin.rehearsed; // its start is over: what follows is the failing call's, then the restart's
    const c = caseNamed("archive-full");
    const clean = await cleanRun(plugin, c);
    app.vault.reset(c.vault);
    failAt(app, 2);
    assert.match(await callCase(plugin, c), /"code":"INTERNAL"/);
    app.vault.hooks = {};
    assert.equal(journalFiles(app).length, 2, "the journal and its progress stay");
    plugin.unload();
    const calls: string[] = [];
    app.vault.hooks.onCall = (e) => calls.push(e);
    const r = await restart(app);
    plugin = r.plugin;
    app.vault.hooks = {};
    assert.deepEqual(journalFiles(app), [], "the journal is rolled forward at start");
    assert.equal(diffTrees(app.vault.snapshot(), clean.vault), "", "the plan is finished");
    assert.equal(r.polls, 0, "no poll of the lock");
    assert.ok(calls.length > 0, "the start itself wrote the plan's rest");
    assert.equal(app.loadLocalStorage("kessho-own-journals"), null, "nothing kept once the journal is gone");
    plugin.unload();
  });

  test("a journal another host wrote is left alone at start", async () => {
    const app = new App();
    let plugin = await loadPlugin(mainJs(), app);
    await plugin.rehearsed; // its start is over: what follows is the failing call's, then the restart's
    const c = caseNamed("archive-full");
    app.vault.reset(c.vault);
    failAt(app, 2);
    assert.match(await callCase(plugin, c), /"code":"INTERNAL"/);
    app.vault.hooks = {};
    plugin.unload();
    // Not this plugin's: another device's, or a Go host's.
    app.saveLocalStorage("kessho-own-journals", null);
    const before = journalFiles(app);
    const r = await restart(app);
    plugin = r.plugin;
    assert.deepEqual(journalFiles(app), before, "left to the next call");
    assert.equal(r.polls, 0, "the start waits on no other host's journal");
    plugin.unload();
  });
});
