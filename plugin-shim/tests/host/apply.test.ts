// Applying plans through the Vault API (src/host/apply.ts): every
// precondition checked before any op, each write re-checked inside
// vault.process, refusals rendered as the Go host renders them.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { diffTrees, parseTxtar } from "../cases";
import { App, FakeVault } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { mainJs, repoDir } from "../node";
import { callCase, caseNamed, cleanRun, journalFiles } from "./helpers";

const enc = new TextEncoder();

function conflictAnswer(p: string): string {
  return `{"ok":false,"error":{"code":"CONFLICT","message":"${p} changed since Kessho read it (another program or person wrote it); nothing was written, run the call again","details":{"path":"${p}"}}}`;
}

describe("apply", () => {
  const app = new App();
  let plugin: LoadedPlugin;
  before(async () => {
    plugin = await loadPlugin(mainJs(), app);
  });

  test("a file changed after the core read it: CONFLICT, nothing written", async () => {
    const c = caseNamed("phase-keeps-every-other-byte");
    const p = [...c.vault.keys()].find((k) => k.endsWith("context.md"))!;
    app.vault.reset(c.vault);
    const theirs = enc.encode("---\nphase: theirs\n---\n");
    app.vault.hooks.afterRead = (path, n) => {
      if (path === p && n === 1) app.vault.put(p, theirs); // an editor saves right after Kessho read the file
    };
    assert.equal(await callCase(plugin, c), conflictAnswer(p));
    const want = new Map(c.vault);
    want.set(p, theirs);
    assert.equal(diffTrees(app.vault.snapshot(), want), "");
    assert.ok(!app.vault.calls.some((k) => k.startsWith("vault.process")), "nothing may be written");
    assert.deepEqual(journalFiles(app), []);
  });

  test("a file changed between the check and vault.process: CONFLICT inside the callback, nothing written", async () => {
    const c = caseNamed("phase-keeps-every-other-byte");
    const p = [...c.vault.keys()].find((k) => k.endsWith("context.md"))!;
    app.vault.reset(c.vault);
    const theirs = enc.encode("---\nphase: theirs\n---\n");
    app.vault.hooks.beforeProcess = (path) => {
      if (path === p) app.vault.put(p, theirs);
    };
    assert.equal(await callCase(plugin, c), conflictAnswer(p));
    const want = new Map(c.vault);
    want.set(p, theirs);
    assert.equal(diffTrees(app.vault.snapshot(), want), "");
    assert.ok(app.vault.calls.includes(`vault.process ${p}`), "the write went through vault.process");
    assert.deepEqual(journalFiles(app), [], "the journal of a plan refused before any write is removed");
  });

  test("a multi-op plan whose last precondition fails writes none of its ops", async () => {
    const c = caseNamed("archive-full");
    const clean = await cleanRun(plugin, c);
    assert.match(clean.answer, /^\{"ok":true/);
    const written = [...clean.vault.keys()].filter((p) => diffTrees(new Map([[p, clean.vault.get(p)!]]), new Map([[p, c.vault.get(p) ?? new Uint8Array()]])) !== "");
    assert.ok(written.length >= 3, `archive-full should write several files, wrote ${written.join(", ")}`);
    const ctx = [...c.vault.keys()].find((k) => k.endsWith("/context.md"))!;
    app.vault.reset(c.vault);
    const theirs = enc.encode(new TextDecoder().decode(c.vault.get(ctx)!) + "\nedited meanwhile\n");
    app.vault.hooks.afterRead = (path, n) => {
      if (path === ctx && n === 1) app.vault.put(ctx, theirs);
    };
    assert.equal(await callCase(plugin, c), conflictAnswer(ctx));
    const want = new Map(c.vault);
    want.set(ctx, theirs);
    assert.equal(diffTrees(app.vault.snapshot(), want), "");
    assert.ok(!app.vault.calls.some((k) => /^(vault\.(create|process|createFolder)|fileManager)/.test(k)), app.vault.calls.join("\n"));
  });

  test("writes go through vault.create and vault.process, moves through fileManager.renameFile", async () => {
    await cleanRun(plugin, caseNamed("archive-full"));
    const calls = app.vault.calls.join("\n");
    assert.match(calls, /^vault\.create 10-episodes\/projects\/alpha\/archives\//m);
    assert.match(calls, /^vault\.process 10-episodes\/projects\/alpha\/context\.md$/m);
    await cleanRun(plugin, caseNamed("historize"));
    assert.match(app.vault.calls.join("\n"), /^fileManager\.renameFile 10-episodes\/projects\/alpha -> 10-episodes\/archived\/alpha$/m);
  });
});

// The Go host's conflict table (host/internal/conformance/conflict_test.go): a file
// the tool read changes right after the engine's final answer, before the
// plan is applied. CONFLICT naming it (or the tool's own conflict code), and
// nothing written but the meddler's bytes.
describe("conflict table", () => {
  const app = new App();
  let plugin: LoadedPlugin;
  let kit: Map<string, Uint8Array>;
  before(async () => {
    plugin = await loadPlugin(mainJs(), app);
    kit = new Map();
    for (const f of parseTxtar(readFileSync(join(repoDir, "testdata", "vaults", "memory-kit.txtar"), "utf8")).files) kit.set(f.name, enc.encode(f.data));
  });

  const table: { tool: string; args: string; changed: string; code?: string; vault?: string }[] = [
    { tool: "mem_update_phase", args: '{"slug":"site-perso","phase":"relecture"}', changed: "10-episodes/projects/site-perso/context.md" },
    { tool: "mem_archive", args: '{"slug":"site-perso","mode":"full","archive_subject":"S","archive_body_md":"B","no_derived_because":"x"}', changed: "10-episodes/projects/site-perso/history.md" },
    { tool: "mem_rollback_archive", args: '{"slug":"site-perso"}', changed: "10-episodes/projects/site-perso/archives/2026-11-26-18h20-site-perso-migration-des-articles.md" },
    { tool: "mem_historize", args: '{"slug":"site-perso"}', changed: "10-episodes/projects/site-perso/context.md" },
    { tool: "mem_context_hygiene", args: '{"action":"trim"}', changed: "memory/SESSION_LOG.md", code: "CONTEXT_HYGIENE_RACE", vault: "hygiene-trim" },
  ];
  for (const tt of table) {
    test(tt.tool, async (t) => {
      if (!plugin.api.catalog.tools.some((x) => x.name === tt.tool)) return t.skip(`${tt.tool} is not in this core`);
      const before = tt.vault ? caseNamed(tt.vault).vault : kit;
      app.vault.reset(before);
      const theirs = enc.encode("changed by someone else\n");
      // Once the core answered with its plan (a step that ran the last round hands back the answer to print), before the apply's check.
      const step = plugin.engine.step.bind(plugin.engine);
      plugin.engine.step = async (input, r) => {
        const got = await step(input, r);
        if ((got.printed ?? "") !== "") app.vault.put(tt.changed, theirs);
        return got;
      };
      try {
        const out = JSON.parse(await plugin.api.callText(tt.tool, tt.args, { now: "2026-11-30T09:00:00Z", tz: "Europe/Paris", lang: "" })) as {
          ok: boolean;
          error?: { code: string; details: { path?: string } };
        };
        assert.equal(out.ok, false);
        assert.equal(out.error?.code, tt.code ?? "CONFLICT");
        assert.equal(out.error?.details.path, tt.changed);
      } finally {
        plugin.engine.step = step;
      }
      const want = new FakeVault(Object.fromEntries(before));
      want.put(tt.changed, theirs);
      assert.equal(diffTrees(app.vault.snapshot(), want.snapshot()), "", "the vault changed beyond the meddler's write");
      assert.deepEqual(journalFiles(app), []);
    });
  }
});
