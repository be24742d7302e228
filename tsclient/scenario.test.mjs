// The two-week agent scenario (scenario.mjs) as a test: the budgets of
// what a model reads hold on every call. Run by `make test-mcp-clients`
// (KESSHO_BIN).

import { test } from "node:test";
import assert from "node:assert/strict";

import { run, tally } from "./scenario.mjs";

// before is what the model read of the same 91 calls with the answers of
// commit ebbf825 (the whole answer, summary_md included, as text and as
// structuredContent): 173,832 characters. The scenario must read at
// least 30 % less.
const before = 173_832;

test("the two-week scenario reads within its budgets", { timeout: 10 * 60_000 }, async () => {
  const calls = await run(process.env.KESSHO_BIN);
  assert.ok(calls.length >= 90, `${calls.length} calls`);
  for (const c of calls) {
    const what = `${c.day} ${c.tool} ${JSON.stringify(c.args).slice(0, 80)}`;
    const sc = c.result.structuredContent;
    assert.equal(c.result.content.length, 1, `${what}: one text content`);
    assert.deepEqual(JSON.parse(c.result.content[0].text), sc, `${what}: the text is the structuredContent's JSON`);
    assert.equal(sc.summary_md, undefined, `${what}: summary_md is not read`);
    switch (c.tool) {
      case "mem_recall": {
        const max = c.args.max_chars ?? 12000;
        assert.ok(c.read <= max * 1.1, `${what}: ${c.read} characters read; max_chars ${max}`);
        assert.ok(sc.chars >= c.read, `${what}: chars ${sc.chars} < ${c.read} read`);
        for (const a of sc.archives) assert.match(a.uri, /^kessho:\/\/project\/[^/]+\/archive\/[^/]+\.md$/, `${what}: archive link`);
        break;
      }
      case "mem_search":
        if (sc.hits.length === 10) assert.ok(c.read <= 3500, `${what}: ${c.read} characters for 10 hits`);
        for (const h of sc.hits) {
          assert.ok((h.uri === undefined) !== (h.path === undefined), `${what}: a hit has a uri or a path`);
          if (h.kind !== "atom") assert.match(h.uri, /^kessho:\/\/(project|domain)\//, `${what}: hit link`);
        }
        break;
      case "mem_list":
        assert.ok(c.read <= 3000, `${what}: ${c.read} characters`);
        break;
    }
  }
  assert.ok(calls.some((c) => c.tool === "mem_search" && c.result.structuredContent.hits.length === 10), "a 10-hit search");
  const t = tally(calls);
  assert.ok(t.read <= before * 0.7, `${t.read} characters read; at most 70 % of ${before}`);
});
