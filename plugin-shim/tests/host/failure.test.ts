// Issue 10 items 9 and 4: the plugin after a failure. A plan the plugin's
// own apply left half-way is finished by the next call at once (no wait
// for a host that might still be applying it: the plugin is that host);
// when another host finished the plan meanwhile, the answer is ok; and the
// same call run again after a half-way failure gives the same answer,
// never a second session.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import type { App as ObsidianApp } from "obsidian";
import { diffTrees } from "../cases";
import { App } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { mainJs } from "../node";
import { call } from "../../src/host/call";
import { ObsidianVault } from "../../src/obsidian/vault-port";
import { callCase, caseNamed, cleanRun, journalFiles } from "./helpers";

/** failAt makes the n-th change through the Vault API (folders aside) run then() and throw. */
function failAt(app: App, n: number, then: () => void = () => undefined): void {
  let k = 0;
  app.vault.hooks.beforeChange = (what) => {
    if (what === "vault.createFolder") return;
    if (++k === n) {
      then();
      throw new Error("simulated failure");
    }
  };
}

/** listCountingPolls runs mem_list through plugin's API (timers made immediate) and counts the journal's polls it waited on. */
async function listCountingPolls(plugin: LoadedPlugin, c: { now: string; tz: string; lang: string }): Promise<{ list: string; waits: number[] }> {
  const waits: number[] = [];
  const real = globalThis.setTimeout;
  globalThis.setTimeout = ((fn: () => void, ms?: number) => {
    if (ms === 100) waits.push(ms); // the journal's poll
    return real(fn, 0);
  }) as typeof setTimeout;
  try {
    return { list: await plugin.api.callText("mem_list", {}, { now: c.now, tz: c.tz, lang: c.lang }), waits };
  } finally {
    globalThis.setTimeout = real;
  }
}

describe("the plugin after a failure", () => {
  const app = new App();
  const port = new ObsidianVault(app as unknown as ObsidianApp);
  let plugin: LoadedPlugin;
  before(async () => {
    plugin = await loadPlugin(mainJs(), app);
  });

  test("a write that throws half-way: the next call finishes the plan at once, without waiting", async () => {
    const c = caseNamed("archive-full");
    const clean = await cleanRun(plugin, c);
    app.vault.reset(c.vault);
    failAt(app, 2);
    const opts = { now: c.now, tz: c.tz, lang: c.lang };
    const first = await call(port, plugin.engine, c.tool, c.args, opts);
    assert.match(first.answer, /^\{"ok":false,"error":\{"code":"INTERNAL","message":"internal error: applying op 1 \(write\) of plan [^ ]+: simulated failure; the vault is half-way and the next call finishes the plan"/);
    assert.equal(journalFiles(app).length, 2, "the journal and its progress stay");
    app.vault.hooks = {};
    const slept: number[] = [];
    let t = Date.now();
    const next = await call(port, plugin.engine, "mem_list", "{}", {
      ...opts,
      nowMs: () => t,
      sleep: async (ms) => {
        slept.push(ms);
        t += ms;
      },
    });
    assert.match(next.answer, /^\{"ok":true/);
    assert.deepEqual(slept, [], "the plugin's own journal is not waited on");
    assert.equal(diffTrees(app.vault.snapshot(), clean.vault), "", "the plan is finished");
    assert.deepEqual(journalFiles(app), []);
  });

  test("a journal the plugin left is finished at once by the plugin's next call, through its API", async () => {
    const c = caseNamed("archive-full");
    const clean = await cleanRun(plugin, c);
    app.vault.reset(c.vault);
    failAt(app, 2);
    assert.match(await callCase(plugin, c), /"code":"INTERNAL"/);
    app.vault.hooks = {};
    const { list, waits } = await listCountingPolls(plugin, c);
    assert.match(list, /^\{"ok":true/);
    assert.deepEqual(waits, []);
    assert.equal(diffTrees(app.vault.snapshot(), clean.vault), "");
  });

  // Issue 31 item 6: Obsidian closed (or crashed) after a half-way
  // failure. The next start's first call finishes the plan at once: the
  // journal's id was kept in the vault's localStorage on this device, so
  // the new process knows the journal is its own and does not leave it,
  // as another host's, to its writer for the lock's wait.
  test("after a restart, the first call finishes the plugin's half-way plan at once", async () => {
    const c = caseNamed("archive-full");
    const clean = await cleanRun(plugin, c);
    app.vault.reset(c.vault);
    failAt(app, 2);
    assert.match(await callCase(plugin, c), /"code":"INTERNAL"/);
    app.vault.hooks = {};
    const ids = journalFiles(app).filter((p) => p.endsWith(".json")).map((p) => p.slice(".kessho/journal/".length, -".json".length));
    assert.equal(ids.length, 1);
    assert.deepEqual(app.loadLocalStorage("kessho-own-journals"), ids, "the journal's id is kept for the next start");
    plugin.unload();
    plugin = await loadPlugin(mainJs(), app); // a new process: main.js evaluated again, nothing in memory
    const { list, waits } = await listCountingPolls(plugin, c);
    assert.match(list, /^\{"ok":true/);
    assert.deepEqual(waits, [], "the journal the plugin wrote before its restart is not waited on");
    assert.equal(diffTrees(app.vault.snapshot(), clean.vault), "", "the plan is finished");
    assert.deepEqual(journalFiles(app), []);
    assert.equal(app.loadLocalStorage("kessho-own-journals"), null, "nothing kept once the journal is gone");
  });

  // Another host (the Go host rolls forward any journal it finds) finishes
  // the plan while the plugin is applying it: the journal is gone and every
  // target holds the plan's after-state. The change is made: ok.
  const finishElsewhere = (clean: Map<string, Uint8Array>) => () => {
    for (const [p, d] of clean) app.vault.put(p, d);
    for (const p of journalFiles(app)) app.vault.files.delete(p);
  };

  test("a write that throws after another host finished the plan: ok, not half-way", async () => {
    const c = caseNamed("archive-full");
    const clean = await cleanRun(plugin, c);
    app.vault.reset(c.vault);
    failAt(app, 2, finishElsewhere(clean.vault));
    assert.equal(await callCase(plugin, c), clean.answer);
    assert.equal(diffTrees(app.vault.snapshot(), clean.vault), "");
    assert.deepEqual(journalFiles(app), []);
  });

  test("a re-check that finds the plan finished by another host: ok, nothing undone", async () => {
    const c = caseNamed("archive-full");
    const clean = await cleanRun(plugin, c);
    app.vault.reset(c.vault);
    let k = 0;
    const finish = finishElsewhere(clean.vault);
    app.vault.hooks.beforeChange = (what) => {
      if (what !== "vault.createFolder" && ++k === 2) finish();
    };
    assert.equal(await callCase(plugin, c), clean.answer);
    assert.equal(diffTrees(app.vault.snapshot(), clean.vault), "");
    assert.deepEqual(journalFiles(app), []);
  });

  test("another host finished the plan and a target changed since: CONFLICT saying so, nothing undone", async () => {
    const c = caseNamed("archive-full");
    const clean = await cleanRun(plugin, c);
    const ctx = [...c.vault.keys()].find((k) => k.endsWith("/context.md"))!;
    app.vault.reset(c.vault);
    failAt(app, 2, () => {
      finishElsewhere(clean.vault)();
      app.vault.put(ctx, "edited after\n");
    });
    const out = JSON.parse(await callCase(plugin, c)) as { ok: boolean; error: { code: string; message: string; details: { path: string } } };
    assert.equal(out.ok, false);
    assert.equal(out.error.code, "CONFLICT");
    assert.equal(out.error.details.path, ctx);
    const esc = ctx.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    assert.match(out.error.message, new RegExp(`^\\S+ changed while Kessho was applying its plan, and another Kessho finished the plan meanwhile; ${esc} has changed since: look at it, then run the call again if it is still needed$`));
    const want = new Map(clean.vault);
    want.set(ctx, new TextEncoder().encode("edited after\n"));
    assert.equal(diffTrees(app.vault.snapshot(), want), "", "nothing undone");
    assert.deepEqual(journalFiles(app), []);
  });

  // Item 4 (needs the core's already_archived, made on another branch): the
  // same full archive run again after its apply failed half-way answers ok
  // with the archive recovery finished, and writes no second one.
  test("mem_archive full failing half-way, then run again: one archive, one history line, already_archived", async () => {
    const c = caseNamed("archive-full");
    const clean = await cleanRun(plugin, c);
    app.vault.reset(c.vault);
    failAt(app, 2);
    assert.match(await callCase(plugin, c), /"code":"INTERNAL"/);
    app.vault.hooks = {};
    const again = JSON.parse(await callCase(plugin, c)) as { ok: boolean; result?: { already_archived?: boolean } };
    assert.equal(again.ok, true);
    assert.equal(again.result?.already_archived, true);
    assert.equal(diffTrees(app.vault.snapshot(), clean.vault), "", "exactly the first call's archive and history line");
    assert.deepEqual(journalFiles(app), []);
  });
});
