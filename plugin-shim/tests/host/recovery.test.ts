// Issue 10 item 3: recovery never overwrites an edit made after a crash.
// Journal version 2 records each op's before and after states; rolling
// forward lands an op only when its target holds its before-state, records
// it done when it holds its after-state, and otherwise keeps the user's
// file, writes the plan's version beside it as a conflict copy, and answers
// RECOVERY_CONFLICT on every call until the copy is deleted.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import type { App as ObsidianApp } from "obsidian";
import { diffTrees } from "../cases";
import { App } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { mainJs } from "../node";
import type { Plan } from "../../src/host/plan";
import { sha256Hex, textHash } from "../../src/host/port";
import { ObsidianVault } from "../../src/obsidian/vault-port";
import { journalFiles, opJSON, recoverJournals, Refused, type ErrorBody } from "./helpers";

const enc = new TextEncoder();
const dec = new TextDecoder();
const h = (s: string) => "sha256:" + sha256Hex(enc.encode(s));

const id = "20200101T000000.000000000Z-0badf00d";
const jpath = `.kessho/journal/${id}.json`;
// 2026-11-30T09:15:07Z: the conflict copies' time.
const t = Date.UTC(2026, 10, 30, 9, 15, 7);
const stamp = "20261130T091507Z";

/** states as journal-v2's table gives them. */
function states(p: Plan): string {
  return (
    "[" +
    p
      .map((op) => {
        const [b, a] =
          op.op === "write"
            ? [op.expect!, textHash(op.text!)]
            : op.op === "delete"
              ? [op.expect!, "absent"]
              : op.op === "check"
                ? [op.expect!, op.expect!]
                : ["absent", "present"];
        return `{"before":"${b}","after":"${a}"}`;
      })
      .join(",") +
    "]"
  );
}

function journal(p: Plan, version = 2): string {
  const head = `{"version":${version},"id":"${id}","created":"2020-01-01T00:00:00Z","plan":[${p.map(opJSON).join(",")}]`;
  return version === 1 ? head + "}" : head + `,"states":${states(p)}}`;
}

function note(what: string): string {
  return `Kessho's interrupted change (journal ${id}) was to ${what}; it was changed since, so it was kept as it is. Delete this note once you have decided; Kessho then goes on with the rest of that change.`;
}

/** en is a write's RECOVERY_CONFLICT: what to copy from the copy (the lines yours lacks) before deleting it. */
function en(p: string, copy: string): string {
  return `an interrupted change could not be finished: ${p} was changed after it began; your version is kept and Kessho's is in ${copy}; copy into ${p} every line of Kessho's version that yours lacks (the change's other files may need them: a history line names its archive, an index its notes), then delete ${copy} and run the call again`;
}

function fr(p: string, copy: string): string {
  return `une modification interrompue n'a pas pu être terminée : ${p} a été modifié depuis son début ; votre version est gardée et celle de Kessho est dans ${copy} ; reportez dans ${p} chaque ligne de la version de Kessho qui manque à la vôtre (les autres fichiers de la modification peuvent en avoir besoin : une ligne d'historique nomme son archive, un index ses notes), puis supprimez ${copy} et relancez l'appel`;
}

/** recover runs recovery on a, at time t; it returns the refusal (in lang), or null. */
async function recover(a: App, lang = "en"): Promise<ErrorBody | null> {
  try {
    await recoverJournals(new ObsidianVault(a as unknown as ObsidianApp), { nowMs: () => t, lang });
  } catch (err) {
    if (err instanceof Refused) return err.error;
    throw err;
  }
  return null;
}

function text(a: App, p: string): string | undefined {
  const b = a.vault.files.get(p);
  return b === undefined ? undefined : dec.decode(b);
}

describe("recovery", () => {
  test("an op whose target holds its after-state is done, one holding its before-state lands", async () => {
    const plan: Plan = [
      { op: "write", path: "a.md", expect: h("a0\n"), text: "a1 < b & c\n" },
      { op: "write", path: "n/b.md", expect: "absent", text: "b\n" },
      { op: "delete", path: "c.md", expect: h("c0\n") },
      { op: "move", from: "d", to: "e/d", expect: "absent" },
      { op: "check", path: "k.md", expect: h("k\n") },
    ];
    // As Go writes it: HTML-safe escapes.
    const goJournal = journal(plan).replace(/</g, "\\u003c").replace(/&/g, "\\u0026");
    const a = new App({ [jpath]: goJournal, "a.md": "a1 < b & c\n", "c.md": "c0\n", "d/x.md": "x\n", "k.md": "k\n" });
    assert.equal(await recover(a), null);
    const want = new App({ "a.md": "a1 < b & c\n", "n/b.md": "b\n", "e/d/x.md": "x\n", "k.md": "k\n" });
    assert.equal(diffTrees(a.vault.snapshot(), want.vault.snapshot()), "");
    assert.ok(!a.vault.calls.includes("vault.process a.md"), "a.md already held the after-state: not written again");
    assert.deepEqual(journalFiles(a), []);
  });

  test("a version 1 journal is read, its states derived from its plan", async () => {
    const plan: Plan = [{ op: "write", path: "a.md", expect: h("a0\n"), text: "a1\n" }];
    const a = new App({ [jpath]: journal(plan, 1), "a.md": "a0\n" });
    assert.equal(await recover(a), null);
    assert.equal(text(a, "a.md"), "a1\n");
    // and its rule too: an edit made since is not overwritten
    const b = new App({ [jpath]: journal(plan, 1), "a.md": "theirs\n" });
    assert.equal((await recover(b))?.code, "RECOVERY_CONFLICT");
    assert.equal(text(b, "a.md"), "theirs\n");
  });

  test("version 2 states that are not the plan's: the bad-journal INTERNAL, nothing touched", async () => {
    const plan: Plan = [{ op: "write", path: "a.md", expect: h("a0\n"), text: "a1\n" }];
    const j = journal(plan).replace(`"before":"${h("a0\n")}"`, `"before":"absent"`);
    const a = new App({ [jpath]: j, "a.md": "a0\n" });
    const err = await recover(a);
    assert.equal(err?.code, "INTERNAL");
    assert.equal(
      err?.message,
      `internal error: the journal ${jpath} of an interrupted change holds states that do not match its plan; the vault may be half-way: look at the journal, finish or undo the change by hand, then delete the journal`,
    );
    assert.equal(text(a, "a.md"), "a0\n");
    const v1 = new App({ [jpath]: journal(plan).replace('"version":2', '"version":1'), "a.md": "a0\n" });
    assert.match((await recover(v1))?.message ?? "", /of an interrupted change has version 1 and states;/);
    const missing = new App({ [jpath]: journal(plan).replace(/,"states":.*\}$/, "}"), "a.md": "a0\n" });
    assert.match((await recover(missing))?.message ?? "", /holds states that do not match its plan/);
  });

  test("a write over a file edited after the crash: kept; Kessho's text beside it; RECOVERY_CONFLICT until the copy is deleted", async () => {
    const plan: Plan = [
      { op: "write", path: "notes/a.md", expect: h("a0\n"), text: "kessho's a\n" },
      { op: "write", path: "notes/b.md", expect: "absent", text: "b\n" },
    ];
    const a = new App({ [jpath]: journal(plan), [`.kessho/journal/${id}.done`]: "", "notes/a.md": "theirs\n" });
    const copy = `notes/a.kessho-conflict-${stamp}.md`;
    for (let i = 0; i < 2; i++) {
      // Each time, in English then in French.
      const err = await recover(a, i === 0 ? "en" : "fr");
      assert.equal(err?.code, "RECOVERY_CONFLICT");
      assert.equal(err?.message, (i === 0 ? en : fr)("notes/a.md", copy));
      assert.deepEqual(err?.details, { path: "notes/a.md", copy, journal: jpath });
      assert.equal(text(a, "notes/a.md"), "theirs\n", "the user's version is kept");
      assert.equal(text(a, copy), "kessho's a\n", "Kessho's version is beside it");
      assert.equal(text(a, "notes/b.md"), undefined, "the rest of the plan waits");
      assert.equal(text(a, `.kessho/journal/${id}.conflict`), `{"op":0,"path":"notes/a.md","copy":"${copy}"}`);
    }
    assert.equal([...a.vault.files.keys()].filter((p) => p.includes("kessho-conflict")).length, 1, "one copy, however many calls");
    // A person copies what they need, then deletes the copy: the rest goes on.
    a.vault.put("notes/a.md", "theirs, merged\n");
    a.vault.files.delete(copy);
    assert.equal(await recover(a), null);
    assert.equal(text(a, "notes/a.md"), "theirs, merged\n");
    assert.equal(text(a, "notes/b.md"), "b\n");
    assert.deepEqual(journalFiles(a), []);
  });

  test("a conflict record that does not match the journal: the bad-journal INTERNAL; one already recorded done is removed", async () => {
    const plan: Plan = [
      { op: "write", path: "a.md", expect: h("a0\n"), text: "a1\n" },
      { op: "write", path: "b.md", expect: h("b0\n"), text: "b1\n" },
    ];
    const rec = `.kessho/journal/${id}.conflict`;
    const a = new App({ [jpath]: journal(plan), [rec]: '{"op":0,"path":"b.md","copy":"b.kessho-conflict-x.md"}', "a.md": "a0\n", "b.md": "b0\n" });
    assert.equal(
      (await recover(a))?.message,
      `internal error: the journal ${jpath} of an interrupted change has a conflict record that does not match its progress (op 0, path "b.md", copy "b.kessho-conflict-x.md"); the vault may be half-way: look at the journal, finish or undo the change by hand, then delete the journal`,
    );
    assert.equal(text(a, "a.md"), "a0\n");
    const b = new App({ [jpath]: journal(plan), [`.kessho/journal/${id}.done`]: "0\n", [rec]: '{"op":0,"path":"a.md","copy":"a.kessho-conflict-x.md"}', "a.md": "theirs\n", "a.kessho-conflict-x.md": "a1\n", "b.md": "b0\n" });
    assert.equal(await recover(b), null);
    assert.equal(text(b, "a.md"), "theirs\n");
    assert.equal(text(b, "b.md"), "b1\n");
    assert.deepEqual(journalFiles(b), []);
  });

  test("a hand-made journal deleting a file whose hash differs never deletes it", async () => {
    const plan: Plan = [{ op: "delete", path: "notes/keep.md", expect: h("something else\n") }];
    const a = new App({ [jpath]: journal(plan, 1), "notes/keep.md": "precious\n" });
    const copy = `notes/keep.kessho-conflict-${stamp}.md`;
    const err = await recover(a);
    assert.equal(err?.code, "RECOVERY_CONFLICT");
    assert.deepEqual(err?.details, { path: "notes/keep.md", copy, journal: jpath });
    assert.equal(text(a, "notes/keep.md"), "precious\n");
    assert.equal(text(a, copy), note("delete notes/keep.md"));
    a.vault.files.delete(copy);
    assert.equal(await recover(a), null);
    assert.equal(text(a, "notes/keep.md"), "precious\n", "the user's version wins");
    assert.deepEqual(journalFiles(a), []);
  });

  test("a write of a file a person deleted after the crash: Kessho's text goes to the copy, nothing at the target", async () => {
    const plan: Plan = [{ op: "write", path: "a.md", expect: h("a0\n"), text: "kessho\n" }];
    const a = new App({ [jpath]: journal(plan) });
    const copy = `a.kessho-conflict-${stamp}.md`;
    assert.equal((await recover(a))?.code, "RECOVERY_CONFLICT");
    assert.equal(text(a, "a.md"), undefined);
    assert.equal(text(a, copy), "kessho\n");
  });

  test("a move whose source is gone: a note beside the source; a taken copy name gets -2", async () => {
    const plan: Plan = [{ op: "move", from: "p/alpha", to: "q/alpha", expect: "absent" }];
    const taken = `p/alpha.kessho-conflict-${stamp}.md`;
    const a = new App({ [jpath]: journal(plan), [taken]: "someone's\n" });
    const copy = `p/alpha.kessho-conflict-${stamp}-2.md`;
    const err = await recover(a);
    assert.deepEqual(err?.details, { path: "p/alpha", copy, journal: jpath });
    assert.equal(text(a, copy), note("move p/alpha to q/alpha"));
    assert.equal(text(a, taken), "someone's\n");
  });

  test("a journal naming mkdir (no longer an op) is a bad journal: refused, nothing touched", async () => {
    const a = new App({ [jpath]: journal([{ op: "mkdir" as "write", path: "made" }]), made: "a file\n" });
    const err = await recover(a);
    assert.equal(err?.code, "INTERNAL");
    assert.match(err?.message ?? "", /holds an invalid plan \(plan op 0 \(mkdir\): unknown op "mkdir"\)/);
    assert.equal(text(a, "made"), "a file\n");
    assert.deepEqual(journalFiles(a), [jpath]);
  });

  test("a file edited between recovery's look and its write: the edit is caught inside vault.process and kept", async () => {
    const plan: Plan = [{ op: "write", path: "a.md", expect: h("a0\n"), text: "kessho\n" }];
    const a = new App({ [jpath]: journal(plan), "a.md": "a0\n" });
    a.vault.hooks.beforeProcess = (p) => {
      if (p === "a.md") a.vault.put("a.md", "theirs\n");
    };
    const err = await recover(a);
    assert.equal(err?.code, "RECOVERY_CONFLICT");
    assert.equal(text(a, "a.md"), "theirs\n");
    assert.equal(text(a, `a.kessho-conflict-${stamp}.md`), "kessho\n");
  });
});

describe("recovery through the plugin", () => {
  const app = new App();
  let plugin: LoadedPlugin;
  before(async () => {
    plugin = await loadPlugin(mainJs(), app);
  });

  test("every call, read-only ones too, answers RECOVERY_CONFLICT (en and fr) until the copy is deleted, then goes on", async () => {
    const plan: Plan = [
      { op: "write", path: "10-episodes/projects/alpha/context.md", expect: h("---\nphase: a\n---\n"), text: "---\nphase: b\n---\n" },
      { op: "write", path: "10-episodes/projects/alpha/notes.md", expect: "absent", text: "n\n" },
    ];
    const ctx = "10-episodes/projects/alpha/context.md";
    app.vault.reset({ [jpath]: journal(plan), [ctx]: "---\nphase: theirs\n---\n" });
    const o = { now: "2026-11-30T10:15:00+01:00", tz: "Europe/Paris" };
    const first = await plugin.api.callText("mem_list", {}, { ...o, lang: "en" });
    const copies = [...app.vault.files.keys()].filter((p) => p.includes(".kessho-conflict-"));
    assert.equal(copies.length, 1);
    const copy = copies[0]!;
    assert.match(copy, /^10-episodes\/projects\/alpha\/context\.kessho-conflict-\d{8}T\d{6}Z\.md$/);
    const details = `"details":{"copy":"${copy}","journal":"${jpath}","path":"${ctx}"}`;
    assert.equal(first, `{"ok":false,"error":{"code":"RECOVERY_CONFLICT","message":"${en(ctx, copy)}",${details}}}`);
    const second = await plugin.api.callText("mem_update_phase", { slug: "alpha", phase: "c" }, { ...o, lang: "fr" });
    assert.equal(second, `{"ok":false,"error":{"code":"RECOVERY_CONFLICT","message":"${fr(ctx, copy)}",${details}}}`);
    assert.equal(text(app, ctx), "---\nphase: theirs\n---\n");
    app.vault.files.delete(copy);
    const third = await plugin.api.callText("mem_list", {}, { ...o, lang: "en" });
    assert.match(third, /^\{"ok":true/);
    assert.equal(text(app, ctx), "---\nphase: theirs\n---\n");
    assert.equal(text(app, "10-episodes/projects/alpha/notes.md"), "n\n");
    assert.deepEqual(journalFiles(app), []);
  });
});
