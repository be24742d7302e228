// The page of the Chromium bench (bench.ts opens it in a fresh page for
// each run): the built main.js, loaded with the fake `obsidian` as
// Obsidian loads it, the core in its real Web Worker.
//
//   ready:  from onload to the worker's "ready" (module unpacked,
//           decompressed, compiled, an instance started and warmed)
//   first:  the first call once ready, on a realistic project (during the
//           rehearsal, when it is on)
//   rehearsal: the plugin's calls on its project in memory after start
//           (src/host/rehearsal.ts), timed from ready to their end
//   warm:   n calls each of mem_update_phase and mem_read_context after it
//   settled: n more of each once the page made 500 calls of each
//   crossing: n of the smallest request to the worker and back

import { diskTask } from "../tests/fake/disk";
import { App } from "../tests/fake/obsidian";
import { loadPlugin } from "../tests/fake/plugin";
import { files, warmCalls, when } from "./project";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function bench(n: number, rehearse = true) {
  const js = await (await fetch("/main.js")).text();
  const app = new App(files);
  app.vault.io = diskTask;
  const t0 = performance.now();
  const plugin = await loadPlugin(js, app, { rehearse });
  const loaded = performance.now();
  // The plugin compiles when idle after layout-ready; wait for that, as a user's first press would.
  await plugin.engine.warm();
  const ready = performance.now();
  await pause(100);
  const call = (tool: string, args: object) => plugin.api.callText(tool, args, when);
  let t = performance.now();
  const a = await call("mem_update_phase", { slug: "alpha", phase: "review" });
  const first = performance.now() - t;
  if (!a.startsWith('{"ok":true')) throw new Error(a);
  t = performance.now();
  await call("mem_read_context", { slug: "alpha" });
  const second = performance.now() - t;
  // The rehearsal after start, when on (the two calls above ran during it).
  const rehearsed = await plugin.rehearsed;
  const rehearsalMs = performance.now() - ready;
  const warm = await warmCalls(call, n);
  // One crossing to the worker and back: the smallest step (one the core refuses at once).
  const crossing: number[] = [];
  for (let i = 0; i < n; i++) {
    t = performance.now();
    await plugin.engine.step("{}");
    crossing.push(performance.now() - t);
  }
  // The same calls once the page has made 500 of them: a fresh page's first calls are slower (see PERFORMANCE.md).
  await warmCalls(call, 450 - n);
  const settled = await warmCalls(call, n);
  return { loadMs: loaded - t0, readyMs: ready - loaded, first, second, rehearsed, rehearsalMs, ...warm, settled, crossing, workers: plugin.engine.started };
}

/**
 * search times mem_search on the vault served as /vault.json (the Go
 * benchmarks' generated 10k-note vault): the first search (once the
 * rehearsal after start is over, when on), which builds the index in
 * batches and stores it, then n warm ones (the index kept by
 * the core's instance, the listing taken from the vault's files and hashed
 * at every search, as in Obsidian).
 */
async function search(n: number, query: string, rehearse = true) {
  const files = (await (await fetch("/vault.json")).json()) as Record<string, string>;
  const app = new App(files);
  app.vault.io = diskTask;
  const plugin = await loadPlugin(await (await fetch("/main.js")).text(), app, { rehearse });
  await plugin.engine.warm();
  // The rehearsal after start, when on, as a desktop user's first search finds it done.
  await plugin.rehearsed;
  await pause(100);
  const call = () => plugin.api.callText("mem_search", { query }, when);
  let t = performance.now();
  const a = await call();
  const build = performance.now() - t;
  if (!a.startsWith('{"ok":true')) throw new Error(a.slice(0, 500));
  const warm: number[] = [];
  for (let i = 0; i < n; i++) {
    t = performance.now();
    const b = await call();
    warm.push(performance.now() - t);
    if (b !== a) throw new Error("a warm search answered differently: " + b.slice(0, 300));
  }
  return { notes: Object.keys(files).length, build, warm, hits: (JSON.parse(a) as { result: { hits: unknown[] } }).result.hits.length };
}

Object.assign(globalThis, { kesshoBench: bench, kesshoSearch: search });

/** The plugin loaded and warmed for a profile (bench.ts --profile), on this thread when inThread. */
let profiled: { call: (tool: string, args: object) => Promise<string> } | null = null;

async function profilePrep(inThread: boolean, warm = 0, query = "") {
  if (inThread) delete (globalThis as { Worker?: unknown }).Worker;
  if (query !== "") {
    // The searches of the bench vault (/vault.json), once its index is built.
    const app = new App((await (await fetch("/vault.json")).json()) as Record<string, string>);
    app.vault.io = diskTask;
    const plugin = await loadPlugin(await (await fetch("/main.js")).text(), app);
    plugin.settings.deadline = 600;
    await plugin.engine.warm();
    const search = async () => {
      const a = await plugin.api.callText("mem_search", { query }, when);
      if (!a.startsWith('{"ok":true')) throw new Error(a.slice(0, 300));
      return a;
    };
    await search();
    for (let i = 0; i < warm; i++) await search();
    profiled = { call: () => search() };
    return;
  }
  const app = new App(files);
  app.vault.io = diskTask;
  const plugin = await loadPlugin(await (await fetch("/main.js")).text(), app);
  await plugin.engine.warm();
  await pause(100);
  const call = (tool: string, args: object) => plugin.api.callText(tool, args, when);
  await call("mem_update_phase", { slug: "alpha", phase: "review" });
  await warmCalls(call, warm);
  profiled = { call };
}

async function profileCalls(n: number, search = false) {
  if (!search) return warmCalls(profiled!.call, n);
  const write: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await profiled!.call("mem_search", {});
    write.push(performance.now() - t);
  }
  return { write, read: [0] };
}

Object.assign(globalThis, { kesshoProfilePrep: profilePrep, kesshoProfileCalls: profileCalls });
