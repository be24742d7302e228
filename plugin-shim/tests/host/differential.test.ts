// The plugin against the Go CLI on vaults the conformance cases do not
// hold: host-side refusals and listings. Same answer, same vault, byte for
// byte. Runs when bin/kessho is built (make build).

import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { before, describe, test } from "node:test";
import { diffTrees } from "../cases";
import { App } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { mainJs } from "../node";
import { goCall, kesshoBin, readTree, tempDir, writeTree } from "./helpers";

const enc = new TextEncoder();
const ctx = "---\nphase: draft\nsummary: Old.\n---\nBody\n";

const scenarios: { name: string; files: Record<string, string | Uint8Array>; tool: string; args: string; lang?: string }[] = [
  {
    name: "a folder where context.md should be",
    files: { "10-episodes/projects/alpha/context.md/note.md": "x\n" },
    tool: "mem_update_phase",
    args: '{"slug":"alpha","phase":"review"}',
  },
  {
    name: "a file where the projects folder should be",
    files: { "10-episodes/projects": "not a folder\n", "10-episodes/domains/team/context.md": ctx },
    tool: "mem_update_phase",
    args: '{"slug":"team","phase":"review"}',
    lang: "fr",
  },
  {
    name: "listings leave dot-names and names Kessho cannot touch out, sorted by bytes",
    files: {
      "10-episodes/projects/alpha/context.md": ctx,
      "10-episodes/projects/Zeta/context.md": ctx,
      "10-episodes/projects/été/context.md": ctx,
      "10-episodes/projects/_x/context.md": ctx,
      "10-episodes/projects/.hidden/context.md": ctx,
      "10-episodes/projects/a:b/context.md": ctx,
      "10-episodes/domains/team/context.md": ctx,
    },
    tool: "mem_list",
    args: "{}",
  },
  {
    name: "a context.md that is not UTF-8",
    files: { "10-episodes/projects/alpha/context.md": new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xe9, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a]) },
    tool: "mem_read_context",
    args: '{"slug":"alpha"}',
    lang: "fr",
  },
  {
    name: "CRLF and a BOM kept through a summary",
    files: { "10-episodes/projects/alpha/context.md": "\ufeff" + ctx.replaceAll("\n", "\r\n") },
    tool: "mem_set_summary",
    args: '{"slug":"alpha","summary":"Écrire <le> guide & \\"tout\\"\\u2028le reste."}',
  },
];

describe("differential against the Go CLI", { skip: kesshoBin === null ? "bin/kessho not built (make build)" : false }, () => {
  const app = new App();
  let plugin: LoadedPlugin;
  before(async () => {
    plugin = await loadPlugin(mainJs(), app);
  });
  const o = { now: "2026-11-30T10:15:00+01:00", tz: "Europe/Paris" };
  for (const s of scenarios) {
    test(s.name, async () => {
      const files = new Map(Object.entries(s.files).map(([p, d]) => [p, typeof d === "string" ? enc.encode(d) : d]));
      app.vault.reset(files);
      const mine = await plugin.api.callText(s.tool, s.args, { ...o, lang: s.lang ?? "en" });
      const dir = tempDir();
      try {
        writeTree(dir, files);
        const theirs = goCall(dir, s.tool, s.args, { ...o, lang: s.lang ?? "en" });
        assert.equal(mine, theirs, "answer");
        assert.equal(diffTrees(app.vault.snapshot(), readTree(dir)), "", "vault");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
