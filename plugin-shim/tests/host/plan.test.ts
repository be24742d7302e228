// Plan validation (src/host/plan.ts) words its refusals as core/plan does.

import assert from "node:assert/strict";
import { test } from "node:test";
import { checkPath, opJSON, validatePlan, type Op } from "../../src/host/plan";

const h = "sha256:" + "a".repeat(64);

test("checkPath refuses what core/plan.CheckPath refuses, with its words", () => {
  const cases: [string, string | null][] = [
    ["10-episodes/projects/a/context.md", null],
    ["", "empty path"],
    ["/abs", 'path "/abs" is absolute'],
    ["a//b", 'path "a//b" is not clean'],
    ["a/../b", 'path "a/../b" is not clean'],
    ["a/./b", 'path "a/./b" is not clean'],
    [".obsidian/x", 'path ".obsidian/x" enters a dot-folder'],
    ["a/.kessho", 'path "a/.kessho" enters a dot-folder'],
    ["a\\b", 'path "a\\\\b" holds a backslash, colon or NUL'],
    ["c:/x", 'path "c:/x" holds a backslash, colon or NUL'],
    ["a\ud800", 'path "a\ufffd" is not valid UTF-8'],
  ];
  for (const [p, want] of cases) assert.equal(checkPath(p), want, `checkPath(${JSON.stringify(p)})`);
});

test("validatePlan refuses malformed ops", () => {
  const bad: [Op[], string][] = [
    [[{ op: "write", path: "a.md", expect: "absent" }], "plan op 0 (write): write without text"],
    [[{ op: "write", path: "a.md", expect: "sha256:x", text: "" }], 'plan op 0 (write): expect "sha256:x" is neither "absent" nor sha256:<hex>'],
    [[{ op: "delete", path: "a.md", expect: "absent" }], 'plan op 0 (delete): delete must expect sha256:<hex>, not "absent"'],
    [[{ op: "move", from: "a", to: "b", expect: h }], 'plan op 0 (move): move must expect "absent" at its target'],
    [[{ op: "move", from: "a", to: "a/b", expect: "absent" }], 'plan op 0 (move): move "a" into itself'],
    [[{ op: "mkdir", path: "x" }, { op: "chmod" as "mkdir", path: "x" }], 'plan op 1 (chmod): unknown op "chmod"'],
    [[{ op: "check", path: "a.md", expect: "sha256:x" }], 'plan op 0 (check): expect "sha256:x" is neither "absent" nor sha256:<hex>'],
    [[{ op: "check", path: ".obsidian/a.md", expect: "absent" }], 'plan op 0 (check): path ".obsidian/a.md" enters a dot-folder'],
  ];
  for (const [p, want] of bad) assert.equal(validatePlan(p), want);
  assert.equal(validatePlan([{ op: "write", path: "a.md", expect: h, text: "x" }, { op: "mkdir", path: "d" }, { op: "check", path: "b.md", expect: h }]), null);
});

test("opJSON writes ops in the Go field order", () => {
  assert.equal(opJSON({ op: "write", path: "a.md", expect: "absent", text: "" }), '{"op":"write","path":"a.md","expect":"absent","text":""}');
  assert.equal(opJSON({ op: "move", from: "a", to: "b", expect: "absent" }), '{"op":"move","from":"a","to":"b","expect":"absent"}');
});
