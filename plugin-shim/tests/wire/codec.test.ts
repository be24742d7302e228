// The plugin's side of the wire against the Go codec's golden fixtures
// (testdata/wire, written by host/internal/tsgen's TestFixtures from the
// same values as here): each request as the plugin writes it (request.ts's
// head and tail, answer.ts's putFile and snapshotJSON) is the fixture's
// bytes, and each answer reads as the values the Go side encoded.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { newSnapshot, putFile } from "../../src/host/answer";
import { sha256Hex } from "../../src/host/port";
import { requestHead, requestTail } from "../../src/host/request";
import type { Answer, File, Request, StepOut } from "../../src/wire.gen";
import { repoDir } from "../node";

const fixture = (name: string): string => readFileSync(join(repoDir, "testdata", "wire", name), "utf8");

// The values of host/internal/tsgen/fixtures_test.go.
const text = '---\nsubject: "Été" \\ 日本\n---\n\ttab\r\u0001 😀\n';
const html = "<b>a & b</b>\u2028\u2029";
const written = "# Kessho — été\n";
const now = "2026-12-01T10:00:00Z";

/** fileOf is a file as a host sends it (core/wire.FileOf): its bytes' hash and their text when UTF-8. */
function fileOf(bytes: Uint8Array): File {
  const sha256 = sha256Hex(bytes);
  try {
    return { sha256, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { sha256, not_utf8: true };
  }
}
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

// Maps in key order (encoding/json sorts keys; the plugin writes them in the order it read them).
const requests: { [name: string]: Request } = {
  snapshot: {
    tool: "mem_worklog",
    args: { since: "2026-11-30", note: 'été 😀 "q" \\n' },
    now,
    files: { "10-episodes/projects/été/context.md": fileOf(utf8(text)), "10-episodes/projects/été/notes.md": fileOf(new Uint8Array([0xff, 0xfe])) },
    heads: { "big.md": { text: "x", size: 5 << 20 }, "bin.md": { not_utf8: true, size: (4 << 20) + 1 } },
    missing: ["10-episodes/archived/été/context.md", "a/b.md"],
    dirs: { ".": ["10-episodes/", "x.md"], "10-episodes": [] },
    matches: { "logs\n2026-*\n!*.tmp": ["2026-12-01.md"] },
    raw_dirs: { "10-episodes/projects": ["été/", ".obsidian/", "a.md"] },
    raw_matches: { "10-episodes/domains\nété": ["b/", "été/"] },
  },
  search: {
    tool: "mem_search",
    args: { query: "été" },
    now,
    tz: "Europe/Paris",
    lang: "fr",
    search: { listing: "9f86d081", id: "0123456789abcdef-42", full: true, notes: { "a.md": "12:1700000000000", "été.md": "3:1" } },
  },
  html: { tool: "mem_capture", args: { text: html }, now, files: { "a&b.md": fileOf(utf8(html)) } },
  order: { tool: "mem_update_phase", now, tz: "UTC", lang: "en", files: { "a.md": fileOf(utf8(text)) }, missing: ["b.md"] },
};

/** write is req as a round of call.ts sends it: the head, the time, then the snapshot read file by file and the rest. */
function write(req: Request): string {
  const snap = newSnapshot();
  for (const [p, f] of Object.entries(req.files ?? {})) putFile(snap, p, f);
  Object.assign(snap.heads, req.heads);
  for (const p of req.missing ?? []) snap.missing.add(p);
  Object.assign(snap.dirs, req.dirs);
  Object.assign(snap.matches, req.matches);
  Object.assign(snap.rawDirs, req.raw_dirs);
  Object.assign(snap.rawMatches, req.raw_matches);
  const head = requestHead(req.tool, req.args === undefined ? undefined : JSON.stringify(req.args));
  return head + JSON.stringify(req.now) + requestTail(snap, { tz: req.tz, lang: req.lang, search: req.search });
}

/** goEscapes writes <, >, &, U+2028 and U+2029 as encoding/json does (\u003c…): the one difference between the two writers' strings. */
function goEscapes(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

describe("the plugin's requests", () => {
  for (const [name, req] of Object.entries(requests)) {
    test(`${name}: the Go codec's bytes`, () => {
      const got = write(req);
      const want = fixture(`request-${name}.json`);
      if (name === "order") {
        // With both a language and files, the plugin writes the files first (snapshotJSON), Go in its fields' order: the core reads members in any order.
        assert.deepEqual(JSON.parse(got), JSON.parse(want));
        assert.notEqual(got, want);
        return;
      }
      assert.equal(goEscapes(got), want);
      assert.equal(name === "html", got !== want, "only the html case differs before Go's escapes");
    });
  }
});

const answers: { [name: string]: Answer } = {
  ok: {
    ok: true,
    result: { html, list: [text], n: 3, slug: "été" },
    plan: [
      { op: "write", path: "10-episodes/projects/été/context.md", expect: "absent", text: written },
      { op: "delete", path: "a.md", expect: "sha256:" + sha256Hex(utf8(text)) },
      { op: "move", from: "b.md", to: "c/b.md" },
      { op: "check", path: "d.md", expect: "absent" },
    ],
    conflict: "CONTEXT_HYGIENE_RACE",
  },
  need: {
    need: { files: ["a.md"], heads: ["big.md"], dirs: ["."], trees: [{ root: "10-episodes", content: true }], matches: [{ dir: "logs", patterns: ["2026-*", "!*.tmp"] }], search: "notes" },
  },
  error: { ok: false, error: { code: "NOT_FOUND", message: "no project « été » <here>", details: { max: 5, slug: "été" } } },
  search: { ok: true, result: { hits: [] }, search: { id: "0123456789abcdef-42@9f86d081" } },
};

describe("the Go codec's answers", () => {
  for (const [name, want] of Object.entries(answers)) {
    test(`${name} reads as its values`, () => {
      assert.deepEqual(JSON.parse(fixture(`answer-${name}.json`)) as Answer, want);
    });
  }
  test("a call's step that ran its round reads as a StepOut, then the answer to print and the index", () => {
    const [json, printed, index] = fixture("step-call.json").split("\u0000");
    const out = JSON.parse(json!) as StepOut;
    assert.deepEqual([printed, index], ["", ""], "a refusal: nothing to print on success, no index");
    const { error } = JSON.parse(out.end!.answer!) as { error: { code: string; details: unknown } };
    assert.equal(error.code, "INVALID_ARGUMENT");
    assert.deepEqual(error.details, { tool: "mem_nope" });
  });
});
