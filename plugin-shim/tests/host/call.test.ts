// The call loop (src/host/call.ts): rounds, bounds, and answers copied
// verbatim from the core.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import type { App as ObsidianApp } from "obsidian";
import { call, type Engine } from "../../src/host/call";
import type { HostCore } from "../../src/host/core";
import { ObsidianVault } from "../../src/obsidian/vault-port";
import { App } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { mainJs } from "../node";

const opts = { now: "2026-11-30T10:15:00+01:00", tz: "Europe/Paris", lang: "en" };

describe("call", () => {
  const app = new App({ "10-episodes/projects/alpha/context.md": "---\nphase: draft\n---\nBody\n" });
  const port = new ObsidianVault(app as unknown as ObsidianApp);
  let plugin: LoadedPlugin;
  before(async () => {
    plugin = await loadPlugin(mainJs(), app);
  });

  test("a core that keeps asking is stopped after 8 rounds with LIMIT_EXCEEDED", async () => {
    let calls = 0;
    const eng: Engine = {
      async call() {
        calls++;
        return '{"need":{"dirs":["10-episodes"]}}';
      },
    };
    const out = await call(port, eng, "mem_x", "{}", { ...opts, core: plugin.engine as unknown as HostCore });
    assert.equal(calls, 8);
    assert.equal(out.answer, '{"ok":false,"error":{"code":"LIMIT_EXCEEDED","message":"mem_x still needed more of the vault after 8 rounds","details":{"rounds":8}}}');
    const fr = await call(port, eng, "mem_x", "{}", { ...opts, lang: "fr", core: plugin.engine as unknown as HostCore });
    assert.equal(fr.answer, '{"ok":false,"error":{"code":"LIMIT_EXCEEDED","message":"mem_x demandait encore des fichiers après 8 tours","details":{"rounds":8}}}');
  });

  test("file text past the bound gives LIMIT_EXCEEDED naming the file", async () => {
    const out = await call(port, plugin.engine, "mem_update_phase", '{"slug":"alpha","phase":"x"}', { ...opts, maxBytes: 10 });
    assert.equal(
      out.answer,
      '{"ok":false,"error":{"code":"LIMIT_EXCEEDED","message":"reading 10-episodes/projects/alpha/context.md would take the call over its bound of 10 bytes of file text; ask for less of the vault or raise the host\'s bound","details":{"max_bytes":10,"path":"10-episodes/projects/alpha/context.md"}}}',
    );
  });

  test("a module asking for a dot-path is refused before anything is read", async () => {
    const eng: Engine = { call: async () => '{"need":{"files":[".obsidian/app.json"]}}' };
    const out = await call(port, eng, "mem_x", "{}", { ...opts, core: plugin.engine as unknown as HostCore });
    assert.equal(
      out.answer,
      '{"ok":false,"error":{"code":"INTERNAL","message":"internal error: the module asked to read a path Kessho never reads: path \\".obsidian/app.json\\" enters a dot-folder","details":{"path":".obsidian/app.json"}}}',
    );
  });

  test("an invalid plan is refused with INTERNAL and nothing is written", async () => {
    const eng: Engine = { call: async () => '{"ok":true,"result":{"x":1},"plan":[{"op":"write","path":"../evil.md","expect":"absent","text":"x"}]}' };
    const out = await call(port, eng, "mem_x", "{}", { ...opts, core: plugin.engine as unknown as HostCore });
    assert.equal(
      out.answer,
      '{"ok":false,"error":{"code":"INTERNAL","message":"internal error: the module returned an invalid plan: plan op 0 (write): path \\"../evil.md\\" is not clean","details":{}}}',
    );
    assert.equal(app.vault.kindOf("../evil.md"), null);
  });

  test("the result and error are copied byte for byte, whatever their spacing and escapes", async () => {
    const eng: Engine = { call: async () => '{"ok":true,"result":{"b":"\\u003c","a":1.50}}' };
    assert.equal((await call(port, eng, "mem_x", undefined, { ...opts, core: plugin.engine as unknown as HostCore })).answer, '{"ok":true,"result":{"b":"\\u003c","a":1.50}}');
    const bad: Engine = { call: async () => '{"ok":false,"error":{"code":"X","message":"m","details":{}}}' };
    assert.equal((await call(port, bad, "mem_x", undefined, { ...opts, core: plugin.engine as unknown as HostCore })).answer, '{"ok":false,"error":{"code":"X","message":"m","details":{}}}');
  });

  test("the request carries the arguments as written, and now, tz and lang", async () => {
    const seen: string[] = [];
    const eng: Engine = {
      async call(req) {
        seen.push(req);
        return '{"ok":true,"result":null}';
      },
    };
    await call(port, eng, "mem_x", '{"a": 1.0}', { ...opts, core: plugin.engine as unknown as HostCore });
    await call(port, eng, "mem_x", undefined, { now: opts.now, tz: "", lang: "", core: plugin.engine as unknown as HostCore });
    assert.deepEqual(seen, [
      '{"tool":"mem_x","args":{"a": 1.0},"now":"2026-11-30T10:15:00+01:00","tz":"Europe/Paris","lang":"en"}',
      '{"tool":"mem_x","now":"2026-11-30T10:15:00+01:00"}',
    ]);
  });

  test("api.call returns the parsed answer; a Date now is sent in RFC 3339", async () => {
    const a = (await plugin.api.call("mem_update_phase", { slug: "alpha", phase: "review" }, { now: new Date(Date.UTC(2026, 10, 30, 9, 15, 0, 456)), tz: "Europe/Paris", lang: "en" })) as {
      ok: boolean;
      result: { phase: string; summary_md: string };
    };
    assert.equal(a.ok, true);
    assert.equal(a.result.phase, "review");
    assert.equal(new TextDecoder().decode(app.vault.files.get("10-episodes/projects/alpha/context.md")), "---\nphase: review\n---\nBody\n");
  });
});
