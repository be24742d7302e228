// Issue 10 item 2: another program's edit is never overwritten. Each op's
// target is checked again right before the op lands; when another program
// changed it after the preconditions were checked, the plan stops there,
// the ops already landed are undone, and the call answers CONFLICT (the
// tool's own code where it has one). Journal-v2, "Applying a plan".

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import type { App as ObsidianApp } from "obsidian";
import { diffTrees } from "../cases";
import { App } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { mainJs } from "../node";
import type { Plan } from "../../src/host/plan";
import { sha256Hex } from "../../src/host/port";
import { ObsidianVault } from "../../src/obsidian/vault-port";
import { applyPlan, callCase, caseNamed, journalFiles, recoverJournals, Refused } from "./helpers";

const enc = new TextEncoder();
const h = (b: Uint8Array | string) => "sha256:" + sha256Hex(typeof b === "string" ? enc.encode(b) : b);

// The vault before: b.md starts with a BOM (Obsidian's reads drop it; the
// undo must put it back), c.md is not valid UTF-8 (its undo writes bytes).
const initial: Record<string, Uint8Array> = {
  "b.md": enc.encode("\ufeffb0\n"),
  "c.md": new Uint8Array([0x63, 0xff, 0x0a]),
  "d.md": enc.encode("d0\n"),
  "h.md": enc.encode("h0\n"),
  "last.md": enc.encode("l0\n"),
};

// One op of each kind, each (but the first) with ops before it to undo.
const plan: Plan = [
  { op: "write", path: "f/first.md", expect: "absent", text: "first\n" },
  { op: "write", path: "f/new.md", expect: "absent", text: "new\n" },
  { op: "write", path: "b.md", expect: h(initial["b.md"]!), text: "b1\n" },
  { op: "delete", path: "c.md", expect: h(initial["c.md"]!) },
  { op: "move", from: "d.md", to: "g/sub/d.md", expect: "absent" },
  { op: "check", path: "h.md", expect: h(initial["h.md"]!) },
  { op: "write", path: "last.md", expect: h(initial["last.md"]!), text: "l1\n" },
];

// What another program does to op k's target.
const edits: { k: number; path: string; edit: (a: App) => void; exists?: true }[] = [
  { k: 1, path: "f/new.md", exists: true, edit: (a) => a.vault.put("f/new.md", "theirs\n") },
  { k: 2, path: "b.md", edit: (a) => a.vault.put("b.md", "theirs\n") },
  { k: 3, path: "c.md", edit: (a) => a.vault.put("c.md", "theirs\n") },
  { k: 4, path: "g/sub/d.md", exists: true, edit: (a) => a.vault.put("g/sub/d.md", "theirs\n") },
  { k: 5, path: "h.md", edit: (a) => a.vault.put("h.md", "theirs\n") },
  { k: 6, path: "last.md", edit: (a) => a.vault.put("last.md", "theirs\n") },
];

function existsMessage(p: string): string {
  return p + " already exists, where Kessho expected nothing; nothing was written, run the call again";
}

function changedMessage(p: string): string {
  return p + " changed since Kessho read it (another program or person wrote it); nothing was written, run the call again";
}

/** refusal returns the refusal p ended with, as the host prints it (in English). */
async function refusal(p: Promise<void>): Promise<{ code: string; en: string; details: { [key: string]: unknown } }> {
  try {
    await p;
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    return { ...err.error, en: err.error.message };
  }
  assert.fail("apply succeeded");
}

/** folders lists the vault's folders outside dot-folders. */
function folders(a: App): string[] {
  return [...a.vault.folders].filter((f) => f !== "" && !f.split("/").some((s) => s.startsWith("."))).sort();
}

/** atUndoOfB makes last.md change as the journal lands (the plan stops at its op), and runs then inside the undo's vault.process of b.md (op 2's). */
function atUndoOfB(a: App, then: () => void): void {
  let processes = 0;
  a.vault.hooks.onCall = (entry) => {
    if (/^adapter\.rename \.kessho\/journal\/\.kessho-tmp-/.test(entry)) a.vault.put("last.md", "theirs\n");
  };
  a.vault.hooks.beforeProcess = (p) => {
    if (p === "b.md" && ++processes === 2) then();
  };
}

describe("re-check before each op", () => {
  // The instants: right after the journal is in place (every precondition
  // checked), and right after op k-1 is recorded done (just before op k).
  const instants: { name: string; at: (entry: string, k: number, dones: number) => boolean }[] = [
    { name: "after the preconditions", at: (e) => /^adapter\.rename \.kessho\/journal\/\.kessho-tmp-/.test(e) },
    { name: "right before it lands", at: (e, k, dones) => /^adapter\.(append|write) \.kessho\/journal\/.*\.done$/.test(e) && dones === k },
  ];
  for (const when of instants) {
    for (const e of edits) {
      test(`${plan[e.k]!.op} ${e.path}: edited ${when.name}: CONFLICT, the ops before it undone, theirs kept`, async () => {
        const a = new App(initial);
        const port = new ObsidianVault(a as unknown as ObsidianApp);
        let dones = 0;
        let edited = false;
        a.vault.hooks.onCall = (entry) => {
          if (/\.done$/.test(entry)) dones++;
          if (!edited && when.at(entry, e.k, dones)) {
            edited = true;
            e.edit(a);
          }
        };
        const err = await refusal(applyPlan(port, plan));
        assert.ok(edited, "the edit was made");
        assert.equal(err.code, "CONFLICT");
        assert.equal(err.en, e.exists ? existsMessage(e.path) : changedMessage(e.path));
        assert.deepEqual(err.details, { path: e.path });
        const want = new App(initial);
        e.edit(want);
        assert.equal(diffTrees(a.vault.snapshot(), want.vault.snapshot()), "", "the vault is as before, with their edit");
        assert.deepEqual(folders(a), folders(want), "the folders the plan made are gone");
        assert.deepEqual(journalFiles(a), []);
      });
    }
  }

  test("an undo whose target was edited since leaves it: theirs is kept, and so are the files the plan made, which it may name", async () => {
    const a = new App(initial);
    const port = new ObsidianVault(a as unknown as ObsidianApp);
    let dones = 0;
    a.vault.hooks.onCall = (entry) => {
      if (/\.done$/.test(entry) && ++dones === 3) {
        // ops 0, 1 and 2 landed: someone edits Kessho's new file and its rewrite of b.md, then last.md
        a.vault.put("f/new.md", "edited new\n");
        a.vault.put("b.md", "edited b\n");
        a.vault.put("last.md", "theirs\n");
      }
    };
    const err = await refusal(applyPlan(port, plan));
    assert.equal(err.code, "CONFLICT");
    assert.deepEqual(err.details, { path: "last.md", edited: ["f/new.md", "b.md"], kept: ["f/first.md"] });
    assert.equal(
      err.en,
      "Kessho stopped its change at last.md (another program or person wrote it after Kessho read it) and undid what it had written, except f/new.md, b.md: changed since Kessho wrote it, and kept as it is; and f/first.md: files Kessho made, kept because a changed file may name them; look at them before you run the call again",
    );
    const want = new App(initial);
    want.vault.put("f/first.md", "first\n");
    want.vault.put("f/new.md", "edited new\n");
    want.vault.put("b.md", "edited b\n");
    want.vault.put("last.md", "theirs\n");
    assert.equal(diffTrees(a.vault.snapshot(), want.vault.snapshot()), "");
    assert.deepEqual(journalFiles(a), []);
  });

  test("a restore that loses its race keeps that file, and the files the ops left to undo made", async () => {
    const a = new App(initial);
    const port = new ObsidianVault(a as unknown as ObsidianApp);
    atUndoOfB(a, () => a.vault.put("b.md", "their b\n")); // in the undo's own re-check
    const err = await refusal(applyPlan(port, plan));
    assert.equal(err.code, "CONFLICT");
    assert.deepEqual(err.details, { path: "last.md", edited: ["b.md"], kept: ["f/first.md", "f/new.md"] });
    const want = new App(initial);
    want.vault.put("f/first.md", "first\n");
    want.vault.put("f/new.md", "new\n");
    want.vault.put("b.md", "their b\n");
    want.vault.put("last.md", "theirs\n");
    assert.equal(diffTrees(a.vault.snapshot(), want.vault.snapshot()), "", "c.md and d.md put back, b.md theirs, the new files kept");
    assert.deepEqual(journalFiles(a), []);
  });

  test("a failure while undoing leaves the journal without its progress: recovery looks at every op again", async () => {
    const a = new App(initial);
    const port = new ObsidianVault(a as unknown as ObsidianApp);
    atUndoOfB(a, () => {
      throw new Error("disk gone");
    });
    const err = await refusal(applyPlan(port, plan));
    assert.equal(err.code, "INTERNAL");
    assert.match(err.en, /^internal error: undoing plan \S+ after last\.md changed: disk gone; the vault is half-way and the next call finishes the plan$/);
    const files = journalFiles(a);
    assert.equal(files.length, 1, files.join(", "));
    assert.match(files[0]!, /\.json$/, "the progress is gone");
    // ops 4 and 3 were undone, 2 was not: recovery lands 3 and 4 again, and
    // keeps the editor's last.md (a conflict copy beside it).
    a.vault.hooks = {};
    const stop = await refusal(recoverJournals(port));
    assert.equal(stop.code, "RECOVERY_CONFLICT");
    assert.equal(stop.details["path"], "last.md");
    a.vault.files.delete(String(stop.details["copy"]));
    await recoverJournals(port);
    const want = new App({ "b.md": "b1\n", "f/first.md": "first\n", "f/new.md": "new\n", "g/sub/d.md": "d0\n", "h.md": "h0\n", "last.md": "theirs\n" });
    assert.equal(diffTrees(a.vault.snapshot(), want.vault.snapshot()), "", "the whole plan but the editor's file");
    assert.deepEqual(journalFiles(a), []);
  });

  test("with nobody meddling, the plan lands whole", async () => {
    const a = new App(initial);
    await applyPlan(new ObsidianVault(a as unknown as ObsidianApp), plan);
    const want = new App({ "b.md": "b1\n", "f/first.md": "first\n", "f/new.md": "new\n", "g/sub/d.md": "d0\n", "h.md": "h0\n", "last.md": "l1\n" });
    assert.equal(diffTrees(a.vault.snapshot(), want.vault.snapshot()), "");
    assert.deepEqual(journalFiles(a), []);
  });
});

describe("re-check through the plugin", () => {
  const app = new App();
  let plugin: LoadedPlugin;
  before(async () => {
    plugin = await loadPlugin(mainJs(), app);
  });

  test("hygiene trim: SESSION_LOG.md edited after the archive was written: CONTEXT_HYGIENE_RACE, the archive write undone", async () => {
    const c = caseNamed("hygiene-trim");
    const log = "memory/SESSION_LOG.md";
    const archive = "memory/SESSION_LOG_ARCHIVE_2026-11-30.md";
    app.vault.reset(c.vault);
    const theirs = new TextDecoder().decode(c.vault.get(log)!).replace("# Session log\n", "# Session log\nAn editor's line.\n");
    app.vault.hooks.onCall = (entry) => {
      if (entry === `vault.create ${archive}`) app.vault.put(log, theirs);
    };
    const answer = await callCase(plugin, c);
    assert.equal(
      answer,
      `{"ok":false,"error":{"code":"CONTEXT_HYGIENE_RACE","message":"${changedMessage(log)}","details":{"path":"${log}"}}}`,
    );
    assert.ok(app.vault.calls.includes(`vault.create ${archive}`), "the archive was written first");
    const want = new Map(c.vault);
    want.set(log, enc.encode(theirs));
    assert.equal(diffTrees(app.vault.snapshot(), want), "", "the archive is removed and the editor's line kept");
    assert.deepEqual(journalFiles(app), []);
  });
});
