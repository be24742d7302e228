// The request's snapshot members (src/host/answer.ts, snapshotJSON): the
// files' members are written as each file is read and joined in pieces,
// and the whole must be the JSON of the snapshot as one JSON.stringify
// of it would read.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { newSnapshot, putFile, snapshotJSON } from "../../src/host/answer";
import { hashPiece, sha256Hex, sha256HexInTasks } from "../../src/host/port";

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

describe("sha256HexInTasks", () => {
  test("is sha256Hex, whatever the number of pieces", async () => {
    for (const n of [0, 1, hashPiece - 1, hashPiece, hashPiece + 1, 5 * hashPiece + 7]) {
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i++) bytes[i] = (i * 31 + 7) & 0xff;
      assert.equal(await sha256HexInTasks(bytes), sha256Hex(bytes), `${n} bytes`);
    }
    assert.equal(await sha256HexInTasks(new TextEncoder().encode("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
