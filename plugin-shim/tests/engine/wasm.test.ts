// The engine (src/engine): the packed module decodes to the same bytes,
// calls are queued, and a failed instance is never reused.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { compress, init } from "@bokuweb/zstd-wasm";
import { pack } from "../../scripts/pack.mjs";
import { packedIn, unpack } from "../../src/engine/unpack";
import { decompress, WasmEngine } from "../../src/engine/wasm";
import { mainJs, repoDir } from "../node";
import { once } from "./once";

const wasmPath = process.env["KESSHO_WASM"] ?? join(repoDir, "host", "engine", "module", "kessho.wasm");

describe("unpack", () => {
  test("round-trips every length and every byte", () => {
    let seed = 1;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
    for (let n = 0; n < 300; n++) {
      const b = new Uint8Array(n).map(rand);
      assert.deepEqual(unpack(pack(b), n), b, `length ${n}`);
    }
    const all = new Uint8Array(4096).map((_, i) => i & 0xff);
    assert.deepEqual(unpack(pack(all), all.length), all);
    const zeros = new Uint8Array(1000);
    assert.deepEqual(unpack(pack(zeros), zeros.length), zeros);
  });

  test("packs with no character a string literal cannot hold, nor the end of a comment, at 8/7 of the size", () => {
    const b = new Uint8Array(70000).map((_, i) => (i * 7919) % 251);
    const s = pack(b);
    assert.ok(!/["\\\n\r\0\u2028\u2029]/.test(s));
    assert.ok(!s.includes("*/"), "a block comment can hold it");
    // '/' never appears raw: a group of its code is always escaped.
    const stars = new Uint8Array(4096).map((_, i) => (i % 3 === 0 ? 0x2a : i % 3 === 1 ? 0x2f : (i * 31) & 0xff));
    assert.ok(!pack(stars).includes("*/"));
    assert.ok(![...s].some((ch) => ch.charCodeAt(0) >= 0x400), "two UTF-8 bytes at most");
    assert.ok(Buffer.byteLength(s) <= Math.ceil((b.length * 8) / 7) + 1);
  });

  test("main.js carries the module in a comment, read back through the function that holds it", () => {
    const f = new Function("/*" + pack(new Uint8Array([1, 2, 3, 0x2f, 0x2a])) + '*/ return "";') as () => string;
    assert.deepEqual(unpack(packedIn(f), 5), new Uint8Array([1, 2, 3, 0x2f, 0x2a]));
    assert.throws(() => packedIn(() => ""), /the packed module is missing/);
    const js = mainJs();
    assert.equal(js.match(/\/\*[^]{1000000,}?\*\//g)?.length, 1, "one long comment: the module");
    assert.ok(!/"[^"\n]{200000,}"/.test(js.replace(/\/\*[^]*?\*\//g, "")), "no long string literal");
  });

  test("main.js carries the module byte for byte", async () => {
    // The build's compressor (scripts/compress.mjs) at a quick level: the
    // frame's format is the same at every level.
    await init();
    const wasm = readFileSync(wasmPath);
    const zst = compress(wasm, 3);
    const back = decompress(unpack(pack(zst), zst.length));
    assert.equal(createHash("sha256").update(back).digest("hex"), createHash("sha256").update(wasm).digest("hex"));
  });

  test("a damaged module is refused, not compiled", async () => {
    await init();
    const zst = compress(readFileSync(wasmPath), 3);
    assert.throws(() => decompress(zst.subarray(0, zst.length >> 1)));
    assert.throws(() => decompress(new Uint8Array(100)));
  });
});

describe("WasmEngine", () => {
  const compile = () => WebAssembly.compile(readFileSync(wasmPath));
  const req = (lang: string) => `{"tool":"mem_nope","now":"2026-11-30T10:15:00+01:00","lang":"${lang}"}`;

  test("answers a request; concurrent calls are queued on one instance", async () => {
    const eng = new WasmEngine(compile);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => once(eng, req(i % 2 ? "fr" : "en"))));
    for (const [i, a] of answers.entries()) {
      assert.match(a, i % 2 ? /outil inconnu \\"mem_nope\\"/ : /unknown tool \\"mem_nope\\"/);
    }
    assert.equal(eng.started, 1);
  });

  test("a request that is not JSON is the core's refusal, not a failure", async () => {
    const eng = new WasmEngine(compile);
    assert.match(await once(eng, "{nope"), /^\{"ok":false,"error":\{"code":"INVALID_ARGUMENT"/);
    assert.equal(eng.started, 1);
  });

  test("after a failure the instance is discarded and the next call gets a fresh one", async () => {
    const eng = new WasmEngine(compile);
    await once(eng, req("en"));
    // Break the running instance, as a trap or an out-of-memory would.
    const inner = eng as unknown as { instance: { call: () => bigint } };
    inner.instance = {
      ...inner.instance,
      call: () => {
        throw new WebAssembly.RuntimeError("unreachable");
      },
    };
    await assert.rejects(once(eng, req("en")), /the wasm core failed: unreachable/);
    assert.match(await once(eng, req("en")), /unknown tool/);
    assert.equal(eng.started, 2);
  });

  test("a module that cannot compile is reported, and compiling is tried again", async () => {
    let tries = 0;
    const eng = new WasmEngine(async () => {
      tries++;
      if (tries === 1) throw new Error("bad bytes");
      return compile();
    });
    await assert.rejects(once(eng, req("en")), /compiling the wasm core: bad bytes/);
    assert.match(await once(eng, req("en")), /unknown tool/);
  });
});

describe("warm-up", () => {
  test("every warm-up is a step of a real call, none refused: the first round asks for the vault, the last one's plan is applied", async () => {
    const { warmups } = await import("../../src/engine/warmup");
    const eng = new WasmEngine(() => WebAssembly.compile(readFileSync(wasmPath)));
    const outs: string[] = [];
    for (const w of warmups) {
      const got = await eng.step(w.request, w.round);
      outs.push(got.out + " | " + (got.printed ?? ""));
    }
    const want = [/^\{"io":\[\{"op":"need_file".*\} \| $/, /^\{"io":\[\{"op":"look".*"then":\{"ok":true\}\} \| \{"ok":true,"result":\{/];
    assert.equal(outs.length, want.length);
    for (const [i, a] of outs.entries()) assert.match(a, want[i]!, `warm-up ${i}`);
  });
});
