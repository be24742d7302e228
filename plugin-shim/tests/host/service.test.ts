// The host service (src/host/service.ts): the call's time, zone and
// language as given, or from its surroundings.

import assert from "node:assert/strict";
import { test } from "node:test";
import type { App as ObsidianApp } from "obsidian";
import type { RoundRequest } from "../../src/host/call";
import { Host } from "../../src/host/service";
import { ObsidianVault } from "../../src/obsidian/vault-port";
import { App } from "../fake/obsidian";

test("the time goes to the core as given (the core writes it as Go's time.RFC3339), the clock's as its ISO text", async () => {
  const sent: string[] = [];
  const tails: string[] = [];
  const engine = {
    step(_input: string, round?: RoundRequest) {
      sent.push(round!.now);
      tails.push(round!.tail);
      return Promise.resolve({ out: '{"end":{"ok":true}}', printed: '{"ok":true,"result":null}', index: "" });
    },
  };
  const clock = () => new Date(Date.UTC(2026, 10, 30, 9, 15, 0, 999));
  const host = new Host(engine, new ObsidianVault(new App({}) as unknown as ObsidianApp), { clock, tz: () => "Europe/Paris", lang: () => "fr" });
  for (const now of ["2026-11-30T10:15:00.123456+01:00", "yesterday"]) {
    assert.deepEqual(await host.call("mem_x", undefined, { now, tz: "", lang: "en" }), { answer: '{"ok":true,"result":null}', ok: true });
  }
  await host.call("mem_x");
  assert.deepEqual(sent, ["2026-11-30T10:15:00.123456+01:00", "yesterday", "2026-11-30T09:15:00.999Z"]);
  assert.deepEqual(tails, [',"lang":"en"}', ',"lang":"en"}', ',"tz":"Europe/Paris","lang":"fr"}']);
});
