// npm run bench: how long the plugin takes in Node, through the real
// main.js and the fake Obsidian vault.
//
//   first call: main.js evaluated, the plugin loaded, the module unpacked,
//               decompressed (zstd), compiled, instantiated, and one call answered
//   warm call:  one more call, needs answered and plan applied
//
// Budgets: first call under 400 ms, warm calls under 5 ms.

import { spawnSync } from "node:child_process";
import { App } from "../tests/fake/obsidian";
import { loadPlugin } from "../tests/fake/plugin";
import { mainJs } from "../tests/node";
import { compressedLength, packed } from "bench-wasm";
import { unpack } from "../src/engine/unpack";
import { decompress } from "../src/engine/wasm";

const context = "10-episodes/projects/alpha/context.md";
const files = {
  [context]: "---\n# alpha's context\nslug: alpha\nkind: project\nphase: 'build'   # build → review\nsummary: Kessho's archive tool.\ntags: [project, \"kessho\"]\nlast-session: 2026-11-27T17:40:00+01:00\n---\n# Alpha — context\n\n## Decisions\n- Use the vault layout as it is.\n" + "- A decision line of some length, to make the note realistic.\n".repeat(60),
  "10-episodes/projects/alpha/history.md": "# History — alpha\n\n- [2026-11-27 17h40 — First](archives/2026-11-27-17h40-alpha-first.md)\n",
  "10-episodes/projects/alpha/archives/2026-11-27-17h40-alpha-first.md": "---\nslug: alpha\n---\nBody\n",
};
const o = { now: "2026-11-30T10:15:00+01:00", tz: "Europe/Paris", lang: "en" };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}
const ms = (x: number) => x.toFixed(x < 10 ? 2 : 0) + " ms";

/** cold measures, in this fresh process, main.js read and evaluated, the plugin loaded and its first call answered. */
async function cold(): Promise<void> {
  const t = performance.now();
  const app = new App(files);
  const plugin = await loadPlugin(mainJs(), app);
  const loaded = performance.now() - t;
  const a = await plugin.api.callText("mem_update_phase", { slug: "alpha", phase: "review" }, o);
  const total = performance.now() - t;
  if (!a.startsWith('{"ok":true')) throw new Error(a);
  const t2 = performance.now();
  await plugin.api.callText("mem_update_phase", { slug: "alpha", phase: "build" }, o);
  console.log(JSON.stringify({ total, loaded, second: performance.now() - t2 }));
}

async function main(): Promise<void> {
  if (process.argv.includes("--cold")) return cold();
  const js = mainJs();
  console.log(`main.js: ${(Buffer.byteLength(js) / 1e6).toFixed(2)} MB`);

  // The first call, each in a fresh Node process.
  const colds: { total: number; loaded: number; second: number }[] = [];
  for (let i = 0; i < 5; i++) {
    const r = spawnSync(process.execPath, [process.argv[1]!, "--cold"], { encoding: "utf8", env: process.env });
    if (r.status !== 0) throw new Error(`cold run: ${r.stderr}`);
    colds.push(JSON.parse(r.stdout.trim().split("\n").pop()!));
  }

  // Where the first call's time goes.
  const parts = { unpack: [] as number[], decompress: [] as number[], compile: [] as number[] };
  for (let i = 0; i < 5; i++) {
    let t = performance.now();
    const zst = unpack(packed, compressedLength);
    parts.unpack.push(performance.now() - t);
    t = performance.now();
    const wasm = decompress(zst);
    parts.decompress.push(performance.now() - t);
    t = performance.now();
    await WebAssembly.compile(wasm);
    parts.compile.push(performance.now() - t);
  }

  const app = new App(files);
  const plugin = await loadPlugin(js, app);
  const write: number[] = [];
  const read: number[] = [];
  for (let i = 0; i < 300; i++) {
    let t = performance.now();
    const a = await plugin.api.callText("mem_update_phase", { slug: "alpha", phase: i % 2 ? "review" : "build" }, o);
    write.push(performance.now() - t);
    if (!a.startsWith('{"ok":true')) throw new Error(a);
    t = performance.now();
    await plugin.api.callText("mem_read_context", { slug: "alpha" }, o);
    read.push(performance.now() - t);
  }
  const engine: number[] = [];
  // A last round: the vault the tool reads is in the request, so the core answers with a plan.
  const req = JSON.stringify({
    tool: "mem_update_phase",
    args: { slug: "alpha", phase: "x" },
    now: o.now,
    tz: o.tz,
    lang: "en",
    files: { [context]: { sha256: "0".repeat(64), text: files[context] } },
    missing: ["10-episodes/archived/alpha/context.md", "10-episodes/domains/alpha/context.md"],
    dirs: { "10-episodes/projects": ["alpha/"], "10-episodes/domains": [], "10-episodes/archived": [] },
  });
  if (!(await plugin.engine.call(req)).startsWith('{"ok":true')) throw new Error("the engine-only request does not complete");
  for (let i = 0; i < 300; i++) {
    const t = performance.now();
    await plugin.engine.call(req);
    engine.push(performance.now() - t);
  }

  const f = median(colds.map((c) => c.total));
  const w = median(write);
  console.log(`first call, fresh process (main.js evaluated, plugin loaded, module unpacked, decompressed, compiled, started, call answered): median ${ms(f)} of 5 [${colds.map((c) => ms(c.total)).join(", ")}]`);
  console.log(`  of which unpack ${ms(median(parts.unpack))}, decompress ${ms(median(parts.decompress))}, compile ${ms(median(parts.compile))}; the call after it: ${ms(median(colds.map((c) => c.second)))}`);
  console.log(`warm call, mem_update_phase (2 rounds + vault.process): median ${ms(w)}, p90 ${ms([...write].sort((a, b) => a - b)[Math.floor(write.length * 0.9)]!)}`);
  console.log(`warm call, mem_read_context (read-only): median ${ms(median(read))}`);
  console.log(`engine only, one handle() (the last round of mem_update_phase): median ${ms(median(engine))}`);
  const ok = f < 400 && w < 5;
  console.log(`budgets (first < 400 ms, warm < 5 ms): ${ok ? "met" : "NOT MET"}`);
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
