// The page of the first-index test (index.test.ts): the built main.js
// with the fake `obsidian` on a generated vault of n notes, the core in
// its real Web Worker, the vault's reads answered each in a task of its
// own (tests/fake/disk.ts), as Obsidian's adapter answers them. The test
// measures the UI thread's CPU from outside (Chrome DevTools Protocol);
// the page also keeps the Long Tasks API's entries, for the record.

import { diskTask } from "../fake/disk";
import { App } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";

const longTasks: { start: number; duration: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: "longtask", buffered: true });

/** rand is a small seeded generator (mulberry32): the same vault on every run. */
function rand(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const lexicon = "deploy retry webhook sensor archive backlog cache index phase review build release queue worker thread batch vault note project session memory agent search budget window render layout frame status cancel progress journal plan recovery lock commit branch merge test bench trace metric".split(" ");

/**
 * vaultOf is n notes shaped as the Go benchmarks' generated vault's
 * (host/internal/genvault): archives in 400 projects, paths of about 100
 * characters, a frontmatter with tags and a display line (an em dash:
 * not ASCII), sections of words; about 1.3 KB each.
 */
export function vaultOf(n: number): Record<string, string> {
  const r = rand(20261203);
  const word = () => lexicon[Math.floor(r() * lexicon.length)]!;
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    const slug = `${lexicon[i % 37]}-${lexicon[(i * 7) % 41]}-${i % 400}`;
    const d = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString();
    const date = d.slice(0, 10);
    const time = d.slice(11, 16);
    const subject = `${word()} ${word()} ${word()}`;
    const sentences = (k: number) => Array.from({ length: k }, () => Array.from({ length: 8 + Math.floor(r() * 10) }, word).join(" ") + ".").join(" ");
    files[`10-episodes/projects/${slug}/archives/${date}-${time.replace(":", "h")}-${slug}-${subject.replace(/ /g, "-")}.md`] =
      `---\nproject: ${slug}\ntags:\n- project/${slug}\n- zone/episodes\n- kind/archive\nzone: episodes\nkind: archive\nslug: ${slug}\n` +
      `date: '${date}'\ntime: '${time}'\nsubject: ${subject}\ndisplay: ${slug} — ${date} ${subject}\n---\n\n` +
      `## Done\n${sentences(5)}\n\n## Decisions\n- ${sentences(2)}\n- ${sentences(1)}\n\n## Next\n- ${sentences(2)}\n`;
  }
  return files;
}

const when = { now: "2026-12-03T10:15:00+01:00", tz: "Europe/Paris", lang: "en" };
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
let plugin: LoadedPlugin;

/** start loads main.js on a generated vault of n notes and waits for the core to be ready in its worker. */
async function start(n: number): Promise<number> {
  const js = await (await fetch("/main.js")).text();
  const served = await fetch("/vault.json");
  const app = new App(served.ok ? ((await served.json()) as Record<string, string>) : vaultOf(n));
  app.vault.io = diskTask;
  plugin = await loadPlugin(js, app);
  plugin.settings.deadline = 600;
  await plugin.engine.warm();
  await pause(300);
  return app.vault.getMarkdownFiles().length;
}

/** search runs one mem_search and returns its answer's start, its hit count, and the long tasks meanwhile. */
async function search(query: string) {
  const t0 = performance.now();
  const answer = await plugin.api.callText("mem_search", { query }, when);
  const t1 = performance.now();
  const parsed = JSON.parse(answer) as { ok: boolean; result?: { hits: unknown[] } };
  return { ms: t1 - t0, head: answer.slice(0, 300), ok: parsed.ok, hits: parsed.result?.hits.length ?? 0, longTasks: longTasks.filter((t) => t.start + t.duration > t0 && t.start < t1) };
}

Object.assign(globalThis, { kesshoIndex: { start, search } });
