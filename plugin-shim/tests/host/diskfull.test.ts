// Issue 24 item 9: a full disk answers DISK_FULL, a code a person can act
// on, not INTERNAL. The journal's write found the disk full: nothing was
// written, and the call is safe to run again. An op's write found it full:
// Obsidian writes a file in place, so the write may have left part of it,
// and the answer says the change is half-way and that the next call
// finishes it, which it does.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { App as ObsidianApp } from "obsidian";
import { diffTrees } from "../cases";
import { App } from "../fake/obsidian";
import type { Plan } from "../../src/host/plan";
import { sha256Hex } from "../../src/host/port";
import { ObsidianVault } from "../../src/obsidian/vault-port";
import { applyPlan, journalFiles, recoverJournals, Refused, type ErrorBody } from "./helpers";

const enc = new TextEncoder();
const h = (s: string) => "sha256:" + sha256Hex(enc.encode(s));
const initial = { "a.md": "a0\n", "b.md": "b0\n" };
const plan: Plan = [
  { op: "write", path: "a.md", expect: h("a0\n"), text: "a1\n" },
  { op: "write", path: "b.md", expect: h("b0\n"), text: "b1\n" },
];

/** enospc is the error Obsidian's desktop adapter throws on a full disk (Node's). */
function enospc(code: string, p: string): Error {
  return Object.assign(new Error(`${code}: no space left on device, write '${p}'`), { code });
}

/** refusal returns the refusal p ended with. */
async function refusal(p: Promise<void>): Promise<ErrorBody> {
  try {
    await p;
  } catch (err) {
    if (err instanceof Refused) return err.error;
    throw err;
  }
  assert.fail("apply succeeded");
}

describe("a full disk", () => {
  for (const code of ["ENOSPC", "EDQUOT"]) {
    test(`the journal's write (${code}): DISK_FULL naming it, nothing written, safe to run again`, async () => {
      const a = new App(initial);
      const port = new ObsidianVault(a as unknown as ObsidianApp);
      a.vault.hooks.onCall = (entry) => {
        if (/^adapter\.write \.kessho\/journal\/\.kessho-tmp-/.test(entry)) throw enospc(code, entry);
      };
      const err = await refusal(applyPlan(port, plan));
      assert.equal(err.code, "DISK_FULL");
      const p = String(err.details["path"]);
      assert.match(p, /^\.kessho\/journal\/\S+\.json$/);
      assert.equal(
        err.message,
        `the disk is full (no space left, or the quota used up): Kessho could not write ${p}; nothing was written: free some space, then run the call again (it is safe to retry)`,
      );
      assert.equal(diffTrees(a.vault.snapshot(), new App(initial).vault.snapshot()), "");
      assert.deepEqual(journalFiles(a), []);
      a.vault.hooks = {};
      await applyPlan(port, plan);
      assert.equal(diffTrees(a.vault.snapshot(), new App({ "a.md": "a1\n", "b.md": "b1\n" }).vault.snapshot()), "");
    });
  }

  test("an op's write: DISK_FULL saying the change is half-way, and the next call finishes it", async () => {
    const a = new App(initial);
    const port = new ObsidianVault(a as unknown as ObsidianApp);
    a.vault.hooks.beforeChange = (what, p) => {
      if (p === "b.md") throw enospc("ENOSPC", p);
    };
    const fr = await refusal(applyPlan(port, plan, { lang: "fr" }));
    assert.equal(fr.code, "DISK_FULL");
    assert.deepEqual(fr.details, { path: "b.md" });
    assert.match(fr.message, /^le disque est plein .* Kessho n'a pas pu écrire b\.md, et sa modification est à mi-chemin ; libérez de la place : le prochain appel termine la modification/);
    assert.equal(journalFiles(a).length, 2, "the journal and its progress stay");
    a.vault.hooks = {};
    await recoverJournals(port);
    assert.equal(diffTrees(a.vault.snapshot(), new App({ "a.md": "a1\n", "b.md": "b1\n" }).vault.snapshot()), "");
    assert.deepEqual(journalFiles(a), []);
  });
});
