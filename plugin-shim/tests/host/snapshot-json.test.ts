// The request's snapshot members (src/host/answer.ts, snapshotJSON): the
// files' members are written as each file is read and joined in pieces,
// and the whole must be the JSON of the snapshot as one JSON.stringify
// of it would read.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { newSnapshot, putFile, snapshotJSON } from "../../src/host/answer";

describe("snapshotJSON", () => {
  test("is the snapshot's JSON, whatever the number of pieces its files were joined in", () => {
    for (const n of [0, 1, 3, 700]) {
      const snap = newSnapshot();
      const files: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) {
        const p = `10-episodes/projects/big/archives/2026-01-0${i % 9} "quoted" \\ é ${i}.md`;
        const f = i % 5 === 4 ? { sha256: "0".repeat(64), not_utf8: true } : { sha256: String(i).padStart(64, "0"), text: `---\nsubject: "S ${i}"\n---\n\u2028tab\there — ${"x".repeat(200)}\n` };
        putFile(snap, p, f);
        files[p] = f;
      }
      snap.missing.add("a/missing.md");
      snap.dirs["10-episodes/projects"] = ["big/"];
      const rest = { tz: "Europe/Paris", lang: undefined, search: undefined };
      const got = snapshotJSON(snap, rest);
      const want = { tz: "Europe/Paris", ...(n > 0 ? { files } : {}), missing: ["a/missing.md"], dirs: { "10-episodes/projects": ["big/"] } };
      assert.deepEqual(JSON.parse(got), want, `${n} files`);
      if (n === 700) assert.ok(snap.filesJSON.length > 1, "700 files make more than one piece");
    }
    assert.equal(snapshotJSON(newSnapshot(), {}), "{}");
  });
});
