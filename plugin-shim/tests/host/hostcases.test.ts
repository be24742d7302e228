// The host conformance cases (testdata/hostcases, see its README.md) run
// through the plugin's apply and recovery on the fake Obsidian vault, the
// outside edit made from its onCall hook; the Go host runs the same files
// (host/vaultfs/hostcases_test.go). Cases marked "hosts: go" need what
// Obsidian's Vault API cannot show (a symbolic link) and are left out here.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { App as ObsidianApp } from "obsidian";
import { decodeSection, diffTrees, parseTxtar } from "../cases";
import { App } from "../fake/obsidian";
import { repoDir } from "../node";
import type { Plan } from "../../src/host/plan";
import { ObsidianVault } from "../../src/obsidian/vault-port";
import { applyPlan, Refused } from "./helpers";

const dir = join(repoDir, "testdata", "hostcases");
const dec = new TextDecoder();
const nowMs = () => Date.UTC(2026, 10, 30, 9, 15, 7);

for (const name of readdirSync(dir).filter((n) => n.endsWith(".txtar")).sort()) {
  const { comment, files } = parseTxtar(readFileSync(join(dir, name), "utf8"));
  if (/^hosts: go/m.test(comment)) continue;
  test(name, async () => {
    const at = /^at: (.*)$/m.exec(comment)?.[1] ?? "start";
    const s: { [where: string]: Map<string, Uint8Array> } = { vault: new Map(), edit: new Map(), want: new Map() };
    let plan: Plan | null = null;
    let answer = "";
    for (const f of files) {
      const [n, data] = decodeSection(f.name, f.data);
      const slash = n.indexOf("/");
      if (n === "plan.json") plan = JSON.parse(dec.decode(data)) as Plan;
      else if (n === "answer.json") answer = dec.decode(data).trim();
      else s[n.slice(0, slash)]!.set(n.slice(slash + 1), data);
    }
    const a = new App({});
    a.vault.reset(s["vault"]!);
    let edits: Map<string, Uint8Array> | null = s["edit"]!;
    const edit = () => {
      for (const [p, d] of edits ?? []) a.vault.put(p, d);
      edits = null;
    };
    if (at === "start") edit();
    const k = Number(/^op (\d+)$/.exec(at)?.[1] ?? -1);
    let dones = 0;
    a.vault.hooks.onCall = (entry) => {
      // op 0: as the journal is renamed into place; op k: as op k-1 is recorded done.
      if (k === 0 && /^adapter\.rename \.kessho\/journal\/\.kessho-tmp-/.test(entry)) edit();
      if (/^adapter\.(append|write) \.kessho\/journal\/.*\.done$/.test(entry) && ++dones === k) edit();
    };
    const port = new ObsidianVault(a as unknown as ObsidianApp);
    let got = '{"ok":true}';
    try {
      await applyPlan(port, plan, { nowMs });
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      got = err.printed;
    }
    assert.equal(edits, null, "the outside edit was made");
    assert.equal(got, answer);
    const after = new Map([...a.vault.files].filter(([p, d]) => !(p.endsWith(".done") && d.length === 0)));
    assert.equal(diffTrees(after, s["want"]!), "", "the vault after");
  });
}
