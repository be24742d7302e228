// The host service (src/host/service.ts): time as the Go host writes it.

import assert from "node:assert/strict";
import { test } from "node:test";
import type { App as ObsidianApp } from "obsidian";
import { Host } from "../../src/host/service";
import { ObsidianVault } from "../../src/obsidian/vault-port";
import { App } from "../fake/obsidian";
import { hostCore } from "./helpers";

test("now is written as Go's time.RFC3339 writes it", async () => {
  const core = await hostCore();
  const sent: string[] = [];
  const engine = {
    host: (req: string) => core.host(req),
    async call(req: string) {
      sent.push((JSON.parse(req) as { now: string }).now);
      return '{"ok":true,"result":null}';
    },
  };
  const clock = () => new Date(Date.UTC(2026, 10, 30, 9, 15, 0, 999));
  const host = new Host(engine, new ObsidianVault(new App({}) as unknown as ObsidianApp), { clock, tz: () => "", lang: () => "en" });
  for (const now of ["2026-11-30T10:15:00+01:00", "2026-11-30T10:15:00.123456+01:00", "2026-11-30T09:15:00+00:00", "yesterday"]) {
    await host.call("mem_x", undefined, { now });
  }
  await host.call("mem_x");
  assert.deepEqual(sent, ["2026-11-30T10:15:00+01:00", "2026-11-30T10:15:00+01:00", "2026-11-30T09:15:00Z", "yesterday", "2026-11-30T09:15:00Z"]);
});
