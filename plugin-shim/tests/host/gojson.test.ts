// Go-compatible JSON (src/host/gojson.ts): the host's refusals must be the
// bytes encoding/json prints.

import assert from "node:assert/strict";
import { test } from "node:test";
import { compareBytes, goQuote, goString, goValue, rawFields } from "../../src/host/gojson";
import { HostError, changed } from "../../src/host/fault";
import { render } from "../../src/host/core";
import { hostCore } from "./helpers";

test("goString escapes as encoding/json does", () => {
  const cases: [string, string][] = [
    ["plain", '"plain"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ["<a&b>", '"\\u003ca\\u0026b\\u003e"'],
    ["line\nbreak\r\ttab", '"line\\nbreak\\r\\ttab"'],
    ["\b\f", '"\\b\\f"'],
    ["\x00\x01\x1f", '"\\u0000\\u0001\\u001f"'],
    ["\x7f", '"\x7f"'],
    ["\u2028\u2029", '"\\u2028\\u2029"'],
    ["été — 🌞", '"été — 🌞"'],
    ["lone \ud800 surrogate", '"lone \\ufffd surrogate"'],
  ];
  for (const [in_, want] of cases) assert.equal(goString(in_), want, `goString(${JSON.stringify(in_)})`);
});

test("goValue sorts keys by bytes and writes integers plainly", () => {
  assert.equal(goValue({ rounds: 8, path: "a", max_bytes: 268435456 }), '{"max_bytes":268435456,"path":"a","rounds":8}');
  assert.equal(goValue({ "é": 1, z: 2, "𝒜": 3, "\uffff": 4 }), '{"z":2,"é":1,"\uffff":4,"𝒜":3}');
  assert.equal(goValue([true, null, "x"]), '[true,null,"x"]');
});

test("compareBytes is UTF-8 byte order", () => {
  assert.ok(compareBytes("\uffff", "𝒜") < 0); // U+FFFF < U+1D49C, though its UTF-16 unit is larger
  assert.ok(compareBytes("a", "b") < 0);
  assert.ok(compareBytes("ab", "a") > 0);
  assert.equal(compareBytes("x", "x"), 0);
  assert.deepEqual(["b/", "a", "B", "é", "a.md"].sort(compareBytes), ["B", "a", "a.md", "b/", "é"]);
});

test("rawFields keeps members' text as written", () => {
  const f = rawFields('{"ok":true, "result": {"a":[1,{"b":"}\\""}],"c":"\\u003c"} ,"plan":[ ]}');
  assert.equal(f.get("ok"), "true");
  assert.equal(f.get("result"), '{"a":[1,{"b":"}\\""}],"c":"\\u003c"}');
  assert.equal(f.get("plan"), "[ ]");
  assert.throws(() => rawFields("[1]"));
  assert.throws(() => rawFields('{"a":'));
});

test("goQuote is strconv.Quote for paths", () => {
  assert.equal(goQuote("a/b.md"), '"a/b.md"');
  assert.equal(goQuote('a"b'), '"a\\"b"');
  assert.equal(goQuote("a\nb\x00"), '"a\\nb\\x00"');
  assert.equal(goQuote("été"), '"été"');
});

test("a host refusal renders as the Go host renders it", async () => {
  const refusalJSON = async (e: HostError, lang: string) => render(await hostCore(), e, lang);
  const e = changed("10-episodes/projects/a<b>/context.md");
  assert.equal(
    await refusalJSON(e, "en"),
    '{"ok":false,"error":{"code":"CONFLICT","message":"10-episodes/projects/a\\u003cb\\u003e/context.md changed since Kessho read it (another program or person wrote it); nothing was written, run the call again","details":{"path":"10-episodes/projects/a\\u003cb\\u003e/context.md"}}}',
  );
  const fr = new HostError("LIMIT_EXCEEDED", "en", "fr : « x »", { rounds: 8 });
  assert.equal(await refusalJSON(fr, "fr"), '{"ok":false,"error":{"code":"LIMIT_EXCEEDED","message":"fr : « x »","details":{"rounds":8}}}');
  assert.equal(await refusalJSON(new HostError("INTERNAL", "boom", "boum"), "en"), '{"ok":false,"error":{"code":"INTERNAL","message":"boom","details":{}}}');
});
