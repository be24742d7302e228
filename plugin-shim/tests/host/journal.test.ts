// The journal (src/host/journal.ts): the Go host's format, so that either
// host finishes what the other began.

import assert from "node:assert/strict";
import { readdirSync, readFileSync, rmSync, statSync, unlinkSync } from "node:fs";
import { join as joinPath } from "node:path";
import { before, describe, test } from "node:test";
import { diffTrees } from "../cases";
import { App } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { mainJs } from "../node";
import { sha256Hex, textHash } from "../../src/host/port";
import type { Plan } from "../../src/host/plan";
import { ObsidianVault } from "../../src/obsidian/vault-port";
import type { App as ObsidianApp } from "obsidian";
import { callCase, caseNamed, cleanRun, goCall, journalFiles, kesshoBin, readTree, tempDir, writeTree, opJSON, recoverJournals } from "./helpers";

const dec = new TextDecoder();

/** crashAt makes the n-th change through the Vault API throw, as if the app died there. */
function crashAt(app: App, n: number): void {
  let k = 0;
  app.vault.hooks.beforeChange = (what) => {
    if (what === "vault.createFolder") return;
    if (++k === n) throw new Error("simulated crash");
  };
}

describe("journal", () => {
  const app = new App();
  let plugin: LoadedPlugin;
  before(async () => {
    plugin = await loadPlugin(mainJs(), app);
  });

  test("a plan cut short leaves a journal in the Go host's format, and the next call finishes it", async () => {
    const c = caseNamed("archive-full");
    const clean = await cleanRun(plugin, c);
    app.vault.reset(c.vault);
    crashAt(app, 2);
    const answer = await callCase(plugin, c);
    assert.match(answer, /^\{"ok":false,"error":\{"code":"INTERNAL","message":"internal error: applying op 1 \(write\) of plan \d{8}T\d{6}\.\d{9}Z-[0-9a-f]{8}: simulated crash; the vault is half-way and the next call finishes the plan","details":\{\}\}\}$/);
    const files = journalFiles(app);
    assert.equal(files.length, 2, files.join(", "));
    const [done, json] = files as [string, string];
    assert.match(json, /^\.kessho\/journal\/\d{8}T\d{6}\.\d{9}Z-[0-9a-f]{8}\.json$/);
    assert.equal(done, json.replace(/\.json$/, ".done"));
    assert.equal(dec.decode(app.vault.files.get(done)!), "0\n");
    const j = JSON.parse(dec.decode(app.vault.files.get(json)!)) as {
      version: number;
      id: string;
      created: string;
      plan: { op: string; expect?: string; text?: string }[];
      states: { before: string; after: string }[];
    };
    assert.equal(j.version, 2);
    assert.equal(".kessho/journal/" + j.id + ".json", json);
    assert.ok(!Number.isNaN(Date.parse(j.created)));
    assert.ok(j.plan.length >= 3);
    assert.deepEqual(Object.keys(JSON.parse(dec.decode(app.vault.files.get(json)!))), ["version", "id", "created", "plan", "states"]);
    assert.deepEqual(
      j.states,
      j.plan.map((op) => {
        switch (op.op) {
          case "write":
            return { before: op.expect, after: textHash(op.text!) };
          case "delete":
            return { before: op.expect, after: "absent" };
          case "check":
            return { before: op.expect, after: op.expect };
          case "move":
            return { before: "absent", after: "present" };
          default:
            return { before: "absent", after: "folder" };
        }
      }),
    );
    assert.match(dec.decode(app.vault.files.get(json)!), /,"states":\[\{"before":"(absent|sha256:[0-9a-f]{64})","after":"/);

    app.vault.hooks = {};
    const list = await plugin.api.callText("mem_list", {}, { now: c.now, tz: c.tz, lang: c.lang });
    assert.match(list, /^\{"ok":true/);
    assert.equal(diffTrees(app.vault.snapshot(), clean.vault), "", "the next call rolls the plan forward");
    assert.deepEqual(journalFiles(app), []);
  });

  test("a journal the Go host left is finished by the plugin", async () => {
    const c = caseNamed("phase-keeps-every-other-byte");
    const clean = await cleanRun(plugin, c);
    const p = [...c.vault.keys()].find((k) => k.endsWith("context.md"))!;
    const text = dec.decode(clean.vault.get(p)!);
    // As Go's encoding/json writes it: HTML-safe escapes, fields in struct order.
    const goText = JSON.stringify(text).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
    const id = "20261130T091500.123456789Z-0badf00d";
    const journal =
      `{"version":1,"id":"${id}","created":"2026-11-30T10:15:00.123456789+01:00","plan":[` +
      `{"op":"write","path":"notes/new/a.md","expect":"absent","text":"a \\u003c b \\u0026 c\\n"},` +
      `{"op":"write","path":"${p}","expect":"sha256:${sha256Hex(c.vault.get(p)!)}","text":${goText}}]}`;
    app.vault.reset(c.vault);
    app.vault.put(`.kessho/journal/${id}.json`, journal);
    app.vault.put("notes/new/a.md", "a < b & c\n"); // op 0 landed
    app.vault.put(`.kessho/journal/${id}.done`, "0\n1"); // op 1's line torn by the crash
    app.vault.put(`.kessho/journal/20200101T000000.000000000Z-00000000.done`, "0\n"); // progress without its journal
    app.vault.put(`.kessho/journal/.kessho-tmp-0011223344556677`, "{");
    app.vault.put(p.replace(/context\.md$/, ".kessho-tmp-8899aabbccddeeff"), "half a write");
    const list = await plugin.api.callText("mem_list", {}, { now: c.now, tz: c.tz, lang: c.lang });
    assert.match(list, /^\{"ok":true/);
    const want = new Map(clean.vault);
    want.set("notes/new/a.md", new TextEncoder().encode("a < b & c\n"));
    assert.equal(diffTrees(app.vault.snapshot(), want), "");
    assert.deepEqual(journalFiles(app), []);
  });

  test("a journal that is not valid is refused, as the Go host refuses it", async () => {
    const id = "20261130T091500.123456789Z-0badf00d";
    app.vault.reset({ [`.kessho/journal/${id}.json`]: `{"version":3,"id":"${id}","plan":[]}` });
    const answer = await plugin.api.callText("mem_list", {}, { now: "2026-11-30T10:15:00+01:00", tz: "Europe/Paris", lang: "en" });
    assert.equal(
      answer,
      `{"ok":false,"error":{"code":"INTERNAL","message":"internal error: the journal .kessho/journal/${id}.json of an interrupted change has version 3, and this Kessho reads versions 1 and 2; the vault may be half-way: look at the journal, finish or undo the change by hand, then delete the journal","details":{"path":".kessho/journal/${id}.json"}}}`,
    );
  });

  test("a journal younger than the lock wait is left to the host applying it", async () => {
    const id = "20261130T091500.000000000Z-00000001";
    const t = Date.UTC(2026, 10, 30, 9, 15, 0);
    const a = new App({ [`.kessho/journal/${id}.json`]: `{"version":1,"id":"${id}","created":"x","plan":[{"op":"write","path":"made","expect":"absent","text":"m"}]}` });
    const port = new ObsidianVault(a as unknown as ObsidianApp);
    let slept = 0;
    // The other host finishes while we wait.
    await recoverJournals(port, {
      nowMs: () => t + 500 + slept,
      sleep: async (ms) => {
        slept += ms;
        if (slept >= 300) a.vault.files.delete(`.kessho/journal/${id}.json`);
      },
    });
    assert.equal(slept, 300);
    assert.equal(a.vault.kindOf("made"), null, "the other host's plan is not replayed");
    // A journal that stays past the wait is a crash's: rolled forward.
    a.vault.put(`.kessho/journal/${id}.json`, `{"version":1,"id":"${id}","created":"x","plan":[{"op":"write","path":"made","expect":"absent","text":"m"}]}`);
    slept = 0;
    await recoverJournals(port, { nowMs: () => t + 500 + slept, sleep: async (ms) => void (slept += ms) });
    assert.equal(slept, 9_500);
    assert.equal(a.vault.kindOf("made"), "file");
    assert.deepEqual(journalFiles(a), []);
    // A journal from the future (a clock set wrong) is waited for no longer than the lock wait.
    a.vault.put(`.kessho/journal/${id}.json`, `{"version":1,"id":"${id}","created":"x","plan":[{"op":"write","path":"made2","expect":"absent","text":"m"}]}`);
    slept = 0;
    await recoverJournals(port, { nowMs: () => t - 3_600_000 + slept, sleep: async (ms) => void (slept += ms) });
    assert.equal(slept, 10_000);
    assert.equal(a.vault.kindOf("made2"), "file");
  });

  test("the Go host finishes a plan the plugin left half-way", { skip: kesshoBin === null ? "bin/kessho not built (make build)" : false }, async () => {
    const c = caseNamed("archive-full");
    const clean = await cleanRun(plugin, c);
    app.vault.reset(c.vault);
    crashAt(app, 2);
    assert.match(await callCase(plugin, c), /"code":"INTERNAL"/);
    assert.equal(journalFiles(app).length, 2);
    const dir = tempDir();
    try {
      writeTree(dir, app.vault.files);
      const out = goCall(dir, "mem_list", "{}", c);
      assert.match(out, /^\{"ok":true/);
      assert.equal(diffTrees(readTree(dir), clean.vault), "");
      assert.deepEqual(readTree(dir + "/.kessho/journal").size, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Journal-v2 between hosts (these need bin/kessho built with journal v2:
  // the host-journal branch). A recovery conflict either host stops on is
  // answered alike by the other, and resolved by it once the copy is gone.
  const goPlan = (ctxHash: string): Plan => [
    { op: "write", path: "10-episodes/projects/alpha/context.md", expect: ctxHash, text: "---\nphase: kessho\n---\n" },
    { op: "write", path: "10-episodes/projects/alpha/notes.md", expect: "absent", text: "n\n" },
  ];
  const v2 = (id: string, p: Plan) =>
    `{"version":2,"id":"${id}","created":"2026-11-30T10:15:00+01:00","plan":[${p.map(opJSON).join(",")}],"states":[` +
    p.map((op) => `{"before":"${op.expect}","after":"${textHash(op.text!)}"}`).join(",") +
    "]}";
  const ctx = "10-episodes/projects/alpha/context.md";
  const o = { now: "2026-11-30T10:15:00+01:00", tz: "Europe/Paris", lang: "en" };
  /** allFiles reads every file under dir, dot-folders included. */
  const allFiles = (dir: string): Map<string, Uint8Array> => {
    const out = new Map<string, Uint8Array>();
    const walk = (d: string, rel: string) => {
      for (const n of readdirSync(d)) {
        const full = joinPath(d, n);
        const r = rel === "" ? n : rel + "/" + n;
        if (statSync(full).isDirectory()) walk(full, r);
        else out.set(r, new Uint8Array(readFileSync(full)));
      }
    };
    walk(dir, "");
    return out;
  };

  test("a recovery conflict the plugin stopped on: the Go host answers it alike, and finishes once the copy is deleted", { skip: kesshoBin === null ? "bin/kessho not built (make build)" : false }, async () => {
    const id = "20261130T091500.000000000Z-0000c0f1";
    app.vault.reset({ [`.kessho/journal/${id}.json`]: v2(id, goPlan("sha256:" + sha256Hex(new TextEncoder().encode("---\nphase: a\n---\n")))), [ctx]: "---\nphase: theirs\n---\n" });
    const theirs = await plugin.api.callText("mem_list", {}, o);
    assert.match(theirs, /^\{"ok":false,"error":\{"code":"RECOVERY_CONFLICT"/);
    const copy = [...app.vault.files.keys()].find((p) => p.includes(".kessho-conflict-"))!;
    const dir = tempDir();
    try {
      writeTree(dir, app.vault.files);
      assert.equal(goCall(dir, "mem_list", "{}", o), theirs, "the Go host refuses with the same words");
      unlinkSync(joinPath(dir, ...copy.split("/")));
      assert.match(goCall(dir, "mem_list", "{}", o), /^\{"ok":true/);
      const after = readTree(dir);
      assert.equal(dec.decode(after.get(ctx)!), "---\nphase: theirs\n---\n");
      assert.equal(dec.decode(after.get("10-episodes/projects/alpha/notes.md")!), "n\n");
      assert.deepEqual(readdirSync(joinPath(dir, ".kessho", "journal")), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a recovery conflict the Go host stopped on: the plugin answers it alike, and finishes once the copy is deleted", { skip: kesshoBin === null ? "bin/kessho not built (make build)" : false }, async () => {
    const id = "20261130T091500.000000000Z-0000c0f2";
    const dir = tempDir();
    try {
      writeTree(
        dir,
        new Map([
          [`.kessho/journal/${id}.json`, new TextEncoder().encode(v2(id, goPlan("sha256:" + sha256Hex(new TextEncoder().encode("---\nphase: a\n---\n")))))],
          [ctx, new TextEncoder().encode("---\nphase: theirs\n---\n")],
        ]),
      );
      const goAnswer = goCall(dir, "mem_list", "{}", o);
      assert.match(goAnswer, /^\{"ok":false,"error":\{"code":"RECOVERY_CONFLICT"/);
      const files = allFiles(dir);
      assert.ok(files.has(`.kessho/journal/${id}.conflict`), "the Go host wrote its conflict marker");
      app.vault.reset(files);
      assert.equal(await plugin.api.callText("mem_list", {}, o), goAnswer, "the plugin refuses with the same words");
      const copy = [...app.vault.files.keys()].find((p) => p.includes(".kessho-conflict-"))!;
      assert.equal(dec.decode(app.vault.files.get(copy)!), "---\nphase: kessho\n---\n");
      app.vault.files.delete(copy);
      assert.match(await plugin.api.callText("mem_list", {}, o), /^\{"ok":true/);
      assert.equal(dec.decode(app.vault.files.get(ctx)!), "---\nphase: theirs\n---\n");
      assert.equal(dec.decode(app.vault.files.get("10-episodes/projects/alpha/notes.md")!), "n\n");
      assert.deepEqual(journalFiles(app), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
