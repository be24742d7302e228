// A note longer than the search index's bound (4 MiB) on the plugin's
// host: the core asks for its head alone (a "heads" need, src/host/answer.ts),
// and every search and recall answers, within a call bound a whole read of
// the note would pass.

import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import type { App as ObsidianApp } from "obsidian";
import { headLen, headOf, maxHeadBytes } from "../../src/host/answer";
import { call } from "../../src/host/call";
import { ObsidianVault } from "../../src/obsidian/vault-port";
import { App } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { mainJs } from "../node";

const opts = { now: "2026-11-30T10:15:00+01:00", tz: "Europe/Paris", lang: "en" };

/** hugeLog is an export of more than 4 MiB: "headword" in its first line, "tailword" past its first 4 MiB, a 3-byte character across the mark. */
function hugeLog(): string {
  const head = "# Export\n\nheadword in the first line\n";
  return head + "x".repeat(maxHeadBytes - head.length - 1) + "€ then more\n" + "log line\n".repeat(1 << 17) + "tailword at the end\n";
}

describe("heads", () => {
  test("a head is cut back to the character the cut falls in, as Go's utf8.FullRune tells it", () => {
    const enc = new TextEncoder();
    for (let pad = 0; pad < 4; pad++) {
      const bytes = enc.encode("a".repeat(maxHeadBytes - pad) + "€€€€");
      const want = maxHeadBytes - pad + Math.floor(pad / 3) * 3;
      assert.equal(headLen(bytes.subarray(0, maxHeadBytes)), want, `pad ${pad}`);
      const h = headOf(bytes);
      assert.equal(h.size, bytes.length);
      assert.equal(enc.encode(h.text).length, want, `pad ${pad}`);
    }
    // Bytes that can be no character count whole (Go: FullRune is true): kept, and the head is not UTF-8.
    const bad = new Uint8Array(maxHeadBytes + 10).fill(0x61);
    bad[maxHeadBytes - 2] = 0xe2;
    bad[maxHeadBytes - 1] = 0x41;
    assert.equal(headLen(bad.subarray(0, maxHeadBytes)), maxHeadBytes);
    assert.deepEqual(headOf(bad), { not_utf8: true, size: bad.length });
    assert.deepEqual(headOf(enc.encode("small")), { text: "small", size: 5 });
  });

  const app = new App();
  const port = new ObsidianVault(app as unknown as ObsidianApp);
  let plugin: LoadedPlugin;
  before(async () => {
    plugin = await loadPlugin(mainJs(), app);
  });

  test("a huge note is searched and recalled by its head, and named in a warning", async () => {
    app.vault.reset({
      "20-knowledge/log.md": hugeLog(),
      "20-knowledge/plain.md": "a plain note about headword\n",
      "40-principles/huge.md": "See [[alpha]].\n" + hugeLog(),
      "10-episodes/projects/alpha/context.md": "---\nkind: project\nphase: build\n---\n# Alpha\n\nWe export [[log]].\n",
    });
    const bound = { ...opts, maxBytes: maxHeadBytes + maxHeadBytes / 8 };
    for (const round of [1, 2]) {
      const out = await call(port, plugin.engine, "mem_search", '{"query":"headword"}', bound);
      const r = JSON.parse(out.answer) as { ok: boolean; result: { hits: { path: string; line: string }[]; warnings: string[] } };
      assert.ok(r.ok, `round ${round}: ${out.answer.slice(0, 300)}`);
      const lines = Object.fromEntries(r.result.hits.map((h) => [h.path, h.line]));
      assert.equal(lines["20-knowledge/log.md"], "headword in the first line", `round ${round}`);
      assert.equal(r.result.hits.length, 3);
      assert.equal(r.result.warnings.length, 1);
      assert.match(r.result.warnings[0]!, /2 notes are longer than 4 MiB.*20-knowledge\/log\.md/);
      const tail = JSON.parse((await call(port, plugin.engine, "mem_search", '{"query":"tailword"}', bound)).answer) as { result: { total: number } };
      assert.equal(tail.result.total, 0, "found past the head");
    }
    const recall = JSON.parse((await call(port, plugin.engine, "mem_recall", '{"slug":"alpha"}', bound)).answer) as {
      ok: boolean;
      result: { linked: { path: string; text: string }[]; warnings: string[] };
    };
    assert.ok(recall.ok);
    assert.ok(recall.result.linked.some((l) => l.path === "40-principles/huge.md" && l.text.startsWith("See [[alpha]].")));
    assert.match(recall.result.warnings.join("\n"), /40-principles\/huge\.md/);
  });
});
