// The rehearsal after start (src/host/rehearsal.ts): its vault in memory
// keeps the Vault API's rules, it never touches the user's vault, a
// user's call made meanwhile is answered as usual, and it can be turned
// off or stopped.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { diffTrees } from "../cases";
import { App } from "../fake/obsidian";
import { loadPlugin } from "../fake/plugin";
import { mainJs } from "../node";
import { Stale, textHash } from "../../src/host/port";
import { MemoryVault, rehearsalCalls, rehearsalTurn, rehearse, rehearsalVault } from "../../src/host/rehearsal";
import { deviceZone, mergeSettings } from "../../src/settings";

const js = mainJs();
const context = "10-episodes/projects/alpha/context.md";
const alpha = { [context]: "---\nslug: alpha\nkind: project\nphase: build\n---\n# Alpha\n\n- A decision line, as the rehearsal's context has them.\n" };

describe("MemoryVault", () => {
  test("keeps the rules the call loop relies on: a before-state checked, a taken path refused, a folder removed only when empty", async () => {
    const v = new MemoryVault({ "a/b/note.md": "one" });
    assert.equal(await v.kind("a"), "folder");
    assert.equal(await v.kind("a/b/note.md"), "file");
    assert.equal(await v.kind("a/none.md"), null);
    assert.deepEqual(await v.list("a"), { files: [], folders: ["b"] });
    assert.deepEqual(await v.list("a/b"), { files: ["note.md"], folders: [] });
    await assert.rejects(v.modify("a/b/note.md", textHash("other"), "two"), (e: unknown) => e instanceof Stale && e.why === "changed");
    assert.equal(await v.modify("a/b/note.md", textHash("one"), "two"), "one");
    assert.equal(new TextDecoder().decode(await v.readBytes("a/b/note.md")), "two");
    await assert.rejects(v.create("a/b/note.md", "x"), (e: unknown) => e instanceof Stale && e.why === "exists");
    assert.deepEqual(await v.mkdir("a/c/d"), ["a/c", "a/c/d"]);
    await v.rmdir("a/b");
    assert.equal(await v.kind("a/b"), "folder", "a folder with a note stays");
    await v.move("a/b/note.md", "a/c/d/note.md");
    await v.rmdir("a/b");
    assert.equal(await v.kind("a/b"), null);
    assert.equal(await v.state.list(".kessho/journal"), null);
    await v.state.write(".kessho/journal/x.json", "{}");
    await v.state.append(".kessho/journal/x.done", "0\n");
    assert.deepEqual(await v.state.list(".kessho/journal"), ["x.json", "x.done"]);
    // Its listing for mem_search: each note's size in bytes, and a time that moves with each write.
    const [before] = await v.notes();
    assert.deepEqual(before, { path: "a/c/d/note.md", size: 3, mtime: before!.mtime });
    await v.modify("a/c/d/note.md", null, "été");
    const [after] = await v.notes();
    assert.equal(after!.size, 5);
    assert.ok(after!.mtime > before!.mtime);
  });
});

describe("rehearse", () => {
  test("makes every call of its turns on its own vault, each after an idle moment, and stops when told", async () => {
    const seen: string[] = [];
    let idles = 0;
    const n = await rehearse(
      {
        call: (v, tool) => {
          assert.ok(v instanceof MemoryVault);
          seen.push(tool);
          return Promise.resolve('{"ok":true,"result":{}}');
        },
        idle: () => Promise.resolve(void idles++),
        stopped: () => seen.length >= 7,
      },
      5,
    );
    assert.equal(n, 7);
    assert.equal(idles, 8, "an idle moment before each call, and before the one it did not make");
    assert.deepEqual(seen.slice(0, 4), rehearsalTurn(0).map((c) => c.tool));
  });

  test("a refused call ends it with the refusal", async () => {
    await assert.rejects(
      rehearse({ call: () => Promise.resolve('{"ok":false,"error":{"code":"X"}}'), idle: () => Promise.resolve(), stopped: () => false }),
      /the rehearsal's mem_update_phase was refused: \{"ok":false/,
    );
  });

  test("its project is one the tools accept: a context with frontmatter, a history and an archive", async () => {
    const v = rehearsalVault();
    assert.deepEqual((await v.list("10-episodes/projects/kessho-rehearsal")).files.sort(), ["context.md", "history.md"]);
  });
});

describe("the plugin's rehearsal", () => {
  test("after the core is ready it makes its calls on its own project; the vault is untouched, and a user's call meanwhile is answered", async () => {
    const app = new App(alpha);
    const before = app.vault.snapshot();
    const plugin = await loadPlugin(js, app, { rehearse: true });
    plugin.clock = () => new Date(Date.UTC(2026, 10, 30, 9, 15, 0));
    await plugin.engine.warm();
    const a = (await plugin.api.call("mem_update_phase", { slug: "alpha", phase: "review" })) as { ok: boolean };
    assert.equal(a.ok, true);
    assert.equal(await plugin.rehearsed, rehearsalCalls, "every rehearsal call was made, and succeeded");
    const after = app.vault.snapshot();
    const changed = [...after.keys()].filter((p) => before.get(p)?.toString() !== after.get(p)?.toString());
    assert.deepEqual(changed, [context], "only the user's call wrote, and only its note");
    assert.match(new TextDecoder().decode(after.get(context)), /phase: review/);
    const all = app.vault as unknown as { files: Map<string, Uint8Array>; folders: Set<string> };
    const paths = [...all.files.keys(), ...all.folders];
    assert.deepEqual(paths.filter((p) => p.includes("rehearsal")), [], "nothing of the rehearsal's is in the vault");
    assert.deepEqual([...all.files.keys()].filter((p) => p.startsWith(".kessho/")), [], "no journal left");
    // The worker searched the rehearsal's notes, whose words these are too; a search of the user's finds the user's alone.
    const found = (await plugin.api.call("mem_search", { query: "decision line" })) as { ok: boolean; result: { hits: { path: string }[] } };
    assert.equal(found.ok, true);
    assert.deepEqual(
      found.result.hits.map((h) => h.path),
      [context],
    );
  });

  test("off in the settings, or the plugin unloaded, it makes no call", async () => {
    const off = await loadPlugin(js, new App(alpha), { rehearse: false });
    await off.engine.warm();
    assert.equal(await off.rehearsed, 0);
    assert.equal(off.engine.workerCalls, 0, "the worker answered nothing");

    const app = new App(alpha);
    const before = app.vault.snapshot();
    const gone = await loadPlugin(js, app, { rehearse: true });
    gone.unload();
    assert.ok((await gone.rehearsed) < rehearsalCalls);
    assert.equal(diffTrees(app.vault.snapshot(), before), "");
  });
});

describe("the rehearsal's setting", () => {
  test("on by default on a desktop, off on a phone or tablet, and what was saved wins", () => {
    assert.equal(mergeSettings(null).rehearse, true);
    assert.equal(mergeSettings(null, true).rehearse, false);
    assert.equal(mergeSettings({ rehearse: true }, true).rehearse, true);
    assert.equal(mergeSettings({ rehearse: false }).rehearse, false);
    assert.equal(mergeSettings({ rehearse: "yes" }, true).rehearse, false, "a value that is not a boolean is not taken");
  });
});

describe("deviceZone", () => {
  test("asks Intl at most once a minute", () => {
    const real = Intl.DateTimeFormat;
    let made = 0;
    const counting = function (this: unknown, ...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
      made++;
      return new real(...args);
    } as unknown as typeof Intl.DateTimeFormat;
    Intl.DateTimeFormat = counting;
    try {
      const t = Date.now() + 10 * 365 * 86_400_000; // later than any lookup the process made
      const z = deviceZone(t + 120_000);
      assert.equal(z, new real().resolvedOptions().timeZone || "UTC");
      assert.equal(deviceZone(t + 150_000), z);
      assert.equal(made, 1, "the second ask within the minute is answered from memory");
      deviceZone(t + 181_000);
      assert.equal(made, 2, "past the minute it asks again");
    } finally {
      Intl.DateTimeFormat = real;
    }
  });
});
