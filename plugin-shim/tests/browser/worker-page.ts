// The page of the worker test (worker.test.ts): it watches the UI thread
// with the Long Tasks API from its first line, counts what goes through
// real Web Workers, loads the built main.js with the fake `obsidian` on a
// project of 3,000 archives, and calls the core on it.

import { diffTrees } from "../cases";
import { diskTask } from "../fake/disk";
import { App } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";

/** Every task of the UI thread longer than 50 ms (the Long Tasks API's threshold). */
const longTasks: { start: number; duration: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: "longtask", buffered: true });

/**
 * What went through real Web Workers: how many started (from a Blob URL),
 * requests sent, answers received; and the modules compiled and
 * instantiated on the UI thread (uiWasm), which the core's never are.
 */
const probe = { workers: 0, blobWorkers: 0, terminated: 0, requests: 0, answers: 0, uiWasm: 0 };
const { compile, instantiate } = WebAssembly;
WebAssembly.compile = (...a: Parameters<typeof compile>) => {
  probe.uiWasm++;
  return compile(...a);
};
WebAssembly.instantiate = ((...a: Parameters<typeof instantiate>) => {
  probe.uiWasm++;
  return instantiate(...a);
}) as typeof instantiate;
const NativeWorker = globalThis.Worker;
globalThis.Worker = class extends NativeWorker {
  constructor(url: string | URL, opts?: WorkerOptions) {
    super(url, opts);
    probe.workers++;
    if (String(url).startsWith("blob:")) probe.blobWorkers++;
    this.addEventListener("message", (e: MessageEvent<{ kind?: string }>) => {
      if (e.data.kind === "answer") probe.answers++;
    });
  }
  override postMessage(msg: unknown, transfer?: Transferable[] | StructuredSerializeOptions): void {
    const kind = (msg as { kind?: string }).kind;
    if (kind === "step") probe.requests++;
    super.postMessage(msg, transfer as StructuredSerializeOptions);
  }
  override terminate(): void {
    probe.terminated++;
    super.terminate();
  }
};

const slug = "big";
const root = "/home/ada/src/big";
const base = `10-episodes/projects/${slug}`;

/** bigProject is a project of n archives, each listed in history.md and naming paths under the project's repo_path. */
function bigProject(n: number): Record<string, string> {
  const files: Record<string, string> = {
    [`${base}/context.md`]: `---\nslug: ${slug}\nkind: project\nrepo_path: ${root}\n---\n# Big\n\n## Next\n- Finish ${root}/core/archive.go\n`,
  };
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const d = new Date(Date.UTC(2018, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    const name = `${d}-09h05-${slug}-session-${i}.md`;
    files[`${base}/archives/${name}`] =
      `---\nslug: ${slug}\nkind: archive\nzone: episodes\ndate: ${d}\ntime: "09:05"\nsubject: Session ${i}\n---\n` +
      `Edited ${root}/core/file${i}.go and ${root}/core/tools/note.go.\n\nRan \`go test ${root}/...\` in ${root}.\nSome words about session ${i}, to make the note look like one.\n`;
    lines.push(`- [${d} 09h05 — Session ${i}](archives/${name})`);
  }
  files[`${base}/history.md`] = `# History — ${slug}\n\n` + lines.reverse().join("\n") + "\n";
  return files;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const during = (t0: number, t1: number) => longTasks.filter((t) => t.start < t1 && t.start + t.duration > t0);
const when = { now: "2026-11-30T10:15:00+01:00", tz: "Europe/Paris", lang: "en" };

let plugin: LoadedPlugin;
let app: App;

/**
 * start loads main.js on a project of n archives and waits for the core
 * to be compiled in its worker and for the rehearsal after it (the plugin
 * starts both itself, when idle), as a desktop user's start-up runs.
 */
async function start(n: number) {
  const js = await (await fetch("/main.js")).text();
  app = new App(bigProject(n));
  app.vault.io = diskTask;
  const vault = app.vault.snapshot();
  await pause(300);
  const t0 = performance.now();
  plugin = await loadPlugin(js, app, { rehearse: true });
  const loaded = performance.now();
  // Five minutes for each call, not the setting's 10 s: a bound on a hang, however loaded the machine.
  plugin.settings.deadline = 300;
  // The plugin compiles lazily: when idle after layout-ready, never during its onload.
  const startedAtLoad = plugin.engine.started;
  for (let i = 0; i < 12_000 && plugin.engine.started === 0; i++) await pause(10);
  await plugin.engine.warm();
  const ready = performance.now();
  const rehearsed = await plugin.rehearsed;
  const t1 = performance.now();
  await pause(200);
  const untouched = diffTrees(app.vault.snapshot(), vault) === "";
  return { loadMs: loaded - t0, readyMs: ready - t0, rehearsed, rehearsalMs: t1 - ready, untouched, startedAtLoad, longTasks: during(t0, t1), probe: { ...probe } };
}

/** bigCall runs tool on the big project and reports the long tasks meanwhile and the worker's count of requests. */
async function bigCall(tool: string, args: Record<string, unknown>) {
  const before = app.vault.snapshot();
  const calls0 = plugin.engine.workerCalls;
  const requests0 = probe.requests;
  await pause(200);
  const t0 = performance.now();
  let answer = "";
  let error = "";
  try {
    answer = await plugin.api.callText(tool, args, when);
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  const t1 = performance.now();
  await pause(200);
  return {
    ms: t1 - t0,
    answer: answer.slice(0, 2000),
    answerBytes: answer.length,
    error,
    unchanged: diffTrees(app.vault.snapshot(), before) === "",
    workerCalls: plugin.engine.workerCalls - calls0,
    requests: probe.requests - requests0,
    overdue: plugin.engine.overdue,
    coldRequests: plugin.engine.coldRequests,
    longTasks: during(t0, t1),
    probe: { ...probe },
  };
}

/** warmed waits (at most 2 minutes: a hang) until n workers have compiled their module and started, and returns how many have. */
async function warmed(n: number): Promise<number> {
  for (let i = 0; i < 1200 && plugin.engine.warmed < n; i++) await pause(100);
  return plugin.engine.warmed;
}

/** setDeadline sets the time limit of a call, in seconds, as the settings tab would (tests go below its bounds). */
function setDeadline(s: number): void {
  plugin.settings.deadline = s;
}

Object.assign(globalThis, { kesshoWorker: { start, bigCall, setDeadline, warmed } });
