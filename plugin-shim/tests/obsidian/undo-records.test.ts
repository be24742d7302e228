// Kessho's undo records (.kessho/undo/, docs/HOSTS.md "Undo records") as
// the plugin reaches them on desktop: never through a symbolic link. A
// link planted on the way to a record (git and sync clients carry links)
// makes the call a CONFLICT naming it, as the Go host's, and nothing is
// read or written through it: no note changes, nothing appears where the
// link points.

import assert from "node:assert/strict";
import * as fs from "node:fs";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { App as ObsidianApp } from "obsidian";
import { call } from "../../src/host/call";
import { ObsidianVault, type NodeFS } from "../../src/obsidian/vault-port";
import { DiskVault } from "../fake/disk-vault";
import { App } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { caseNamed } from "../host/helpers";
import { mainJs } from "../node";

const dec = new TextDecoder();

describe("the plugin's undo records", () => {
  let plugin: LoadedPlugin;
  const disks: DiskVault[] = [];
  const outside = mkdtempSync(join(tmpdir(), "kessho-outside-"));
  before(async () => {
    plugin = await loadPlugin(mainJs(), new App());
  });
  after(() => {
    for (const d of disks) d.remove();
    rmSync(outside, { recursive: true, force: true });
  });

  const c = caseNamed("rollback-repeated");
  const archive = JSON.stringify({ slug: "alpha", mode: "full", archive_subject: "Troisième jet", archive_body_md: "Troisième jet.", no_derived_because: "routine" });
  const plants: { link: string; target: (out: string) => string; tool: string; args: string; at: string }[] = [
    { link: ".kessho/undo", target: (out) => out, tool: "mem_archive", args: archive, at: ".kessho/undo" },
    { link: ".kessho/undo/alpha", target: () => "../../10-episodes/projects/alpha", tool: "mem_archive", args: archive, at: ".kessho/undo/alpha" },
    { link: ".kessho/undo/alpha/rollback.json", target: () => "../../../10-episodes/projects/alpha/context.md", tool: "mem_rollback_archive", args: '{"slug":"alpha"}', at: ".kessho/undo/alpha/rollback.json" },
  ];
  for (const p of plants) {
    test(`a link at ${p.link}: ${p.tool} answers CONFLICT naming it, and nothing is written through it`, async () => {
      const files: Record<string, string> = {};
      for (const [path, data] of c.vault) if (!path.startsWith(".kessho/")) files[path] = dec.decode(data);
      const d = new DiskVault(files);
      disks.push(d);
      const out = mkdtempSync(join(outside, "t-"));
      d.link(p.link, p.target(out));
      const port = new ObsidianVault(d.app as unknown as ObsidianApp, fs as unknown as NodeFS);
      const o = await call(port, plugin.engine, p.tool, p.args, { now: c.now, tz: c.tz, lang: "en" });
      const a = JSON.parse(o.answer) as { ok: boolean; error?: { code: string; message: string; details: { path: string } } };
      assert.equal(a.ok, false, o.answer);
      assert.equal(a.error?.code, "CONFLICT", o.answer);
      assert.equal(a.error?.details.path, p.at);
      assert.match(a.error?.message ?? "", /is a symbolic link/);
      for (const [path, text] of Object.entries(files)) assert.equal(d.read(path), text, `${path} changed`);
      assert.deepEqual(readdirSync(out), [], "written through the link");
      assert.ok(fs.lstatSync(d.full(p.link)).isSymbolicLink(), "the link itself was replaced");
    });
  }
});
