// Go-compatible JSON (src/host/gojson.ts): the host's refusals must be the
// bytes encoding/json prints.

import assert from "node:assert/strict";
import { test } from "node:test";
import { rawFields } from "../../src/host/gojson";
import { HostError } from "../../src/host/fault";
import { refusal, render } from "../../src/host/core";
import { hostCore } from "./helpers";

test("rawFields keeps members' text as written", () => {
  const f = rawFields('{"ok":true, "result": {"a":[1,{"b":"}\\""}],"c":"\\u003c"} ,"plan":[ ]}');
  assert.equal(f.get("ok"), "true");
  assert.equal(f.get("result"), '{"a":[1,{"b":"}\\""}],"c":"\\u003c"}');
  assert.equal(f.get("plan"), "[ ]");
  assert.throws(() => rawFields("[1]"));
  assert.throws(() => rawFields('{"a":'));
});

test("a host refusal renders as the Go host renders it", async () => {
  const refusalJSON = async (e: HostError, lang: string) => render(await hostCore(), e, lang);
  const e = await refusal(await hostCore(), "changed", "10-episodes/projects/a<b>/context.md");
  assert.equal(
    await refusalJSON(e, "en"),
    '{"ok":false,"error":{"code":"CONFLICT","message":"10-episodes/projects/a\\u003cb\\u003e/context.md changed since Kessho read it (another program or person wrote it); nothing was written, run the call again","details":{"path":"10-episodes/projects/a\\u003cb\\u003e/context.md"}}}',
  );
  const fr = new HostError("LIMIT_EXCEEDED", "en", "fr : « x »", { rounds: 8 });
  assert.equal(await refusalJSON(fr, "fr"), '{"ok":false,"error":{"code":"LIMIT_EXCEEDED","message":"fr : « x »","details":{"rounds":8}}}');
  assert.equal(await refusalJSON(new HostError("INTERNAL", "boom", "boum"), "en"), '{"ok":false,"error":{"code":"INTERNAL","message":"boom","details":{}}}');
});
