// The call loop (src/host/call.ts): its rounds' requests and the host's
// bound on file text, on the plugin's core. What the core decides of a
// call's rounds (its bound on rounds, the needs it refuses, an invalid
// plan, the answer copied byte for byte) is core/hostlogic's, tested
// there (call_test.go, need_test.go) on answers a test writes.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import type { App as ObsidianApp } from "obsidian";
import { call, type Engine } from "../../src/host/call";
import type { StepIn, StepOut } from "../../src/host/step";
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

  test("file text past the bound gives LIMIT_EXCEEDED naming the file", async () => {
    const out = await call(port, plugin.engine, "mem_update_phase", '{"slug":"alpha","phase":"x"}', { ...opts, maxBytes: 10 });
    assert.equal(
      out.answer,
      '{"ok":false,"error":{"code":"LIMIT_EXCEEDED","message":"reading 10-episodes/projects/alpha/context.md would take the call over its bound of 10 bytes of file text; ask for less of the vault or raise the host\'s bound","details":{"max_bytes":10,"path":"10-episodes/projects/alpha/context.md"}}}',
    );
  });

  test("each round's request carries the arguments as written, and now, tz and lang; the first goes with the start", async () => {
    const seen: string[] = [];
    const starts: boolean[] = [];
    const eng: Engine = {
      step(input, round) {
        if (round !== undefined) seen.push(round.head + JSON.stringify(round.now) + round.tail);
        starts.push((JSON.parse(input) as StepIn).start !== undefined);
        return plugin.engine.step(input, round);
      },
    };
    const a = await call(port, eng, "mem_x", '{"a": 1.0}', opts);
    await call(port, eng, "mem_x", undefined, { now: opts.now, tz: "", lang: "" });
    assert.match(a.answer, /^\{"ok":false,"error":\{"code":"INVALID_ARGUMENT","message":"unknown tool \\"mem_x\\"/);
    assert.deepEqual(seen, [
      '{"tool":"mem_x","args":{"a": 1.0},"now":"2026-11-30T10:15:00+01:00","tz":"Europe/Paris","lang":"en"}',
      '{"tool":"mem_x","now":"2026-11-30T10:15:00+01:00"}',
    ]);
    assert.deepEqual(starts, [true, true], "one step a call: its start, with its round");
  });

  test("a call whose need lists small folders crosses twice: its round with the start, then the next round with the need's results, the listings held raw", async () => {
    const eng = counted(plugin.engine);
    const read = await call(port, eng, "mem_read_context", '{"slug":"alpha"}', opts);
    assert.match(read.answer, /^\{"ok":true/);
    assert.deepEqual(eng.steps, ["round", "round"]);
    const write = await call(port, eng, "mem_update_phase", '{"slug":"alpha","phase":"draft"}', opts);
    assert.match(write.answer, /^\{"ok":true/);
    assert.deepEqual(eng.steps, ["round", "round", "round", "round"], "a write too: the plan's ops go with the second's answer");
  });

  test("a listing past the bound on raw listings goes back to the core, which has it put: one crossing more", async () => {
    const files: Record<string, string> = { "10-episodes/projects/alpha/context.md": "---\nphase: draft\n---\nBody\n" };
    for (let i = 0; i < 300; i++) files[`10-episodes/projects/p${i}/context.md`] = "x\n";
    const big = new App(files);
    const eng = counted(plugin.engine);
    const read = await call(new ObsidianVault(big as unknown as ObsidianApp), eng, "mem_read_context", '{"slug":"alpha"}', opts);
    assert.match(read.answer, /^\{"ok":true/);
    assert.deepEqual(eng.steps, ["round", "put", "round"]);
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

/** counted relays steps to eng and records each: "round" when a round's request goes with it, "put" when the core had a listing put; else "step". */
function counted(eng: Engine): Engine & { steps: string[] } {
  const steps: string[] = [];
  return {
    steps,
    async step(input, round) {
      const got = await eng.step(input, round);
      const io = (JSON.parse(got.out) as StepOut).io ?? [];
      steps.push(round !== undefined ? "round" : io.some((x) => x.op === "need_put") ? "put" : "step");
      return got;
    },
  };
}
