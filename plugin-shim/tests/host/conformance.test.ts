// Every conformance case of testdata/cases through the real main.js and the
// plugin's TypeScript host: the printed answer must equal answer.json byte
// for byte (the Go host's printed answer), and the vault after the call
// must equal the case's expected vault byte for byte.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { diffTrees } from "../cases";
import { App } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { loadCases, mainJs } from "../node";

const cases = loadCases();

describe("conformance", () => {
  const app = new App();
  let plugin: LoadedPlugin;
  before(async () => {
    plugin = await loadPlugin(mainJs(), app);
  });

  test("there are cases", () => {
    assert.ok(cases.length > 0, "no case found in testdata/cases");
  });

  for (const c of cases) {
    test(c.name, async () => {
      app.vault.reset(c.vault);
      const answer = await plugin.api.callText(c.tool, c.args, { now: c.now, tz: c.tz, lang: c.lang });
      assert.equal(answer, c.answer, `${c.name}: answer`);
      const diff = diffTrees(app.vault.snapshot(), c.want);
      assert.equal(diff, "", `${c.name}: the vault after the call differs from the expected one`);
      assert.ok(!app.vault.calls.some((k) => k.includes("processFrontMatter")));
      const journal = [...app.vault.files.keys()].filter((p) => p.startsWith(".kessho/journal/"));
      assert.deepEqual(journal, [], "a journal was left behind");
    });
  }
});
