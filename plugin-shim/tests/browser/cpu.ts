// The UI thread's CPU, seen from outside the page through the Chrome
// DevTools Protocol: a trace of the renderer's main thread ("toplevel"
// tasks, each with its thread time, tdur: the CPU it spent, which a
// loaded machine does not stretch as it stretches wall time), and the
// Performance domain's ThreadTime (the main thread's CPU time).
// KESSHO_TRACE_DUMP=<file> writes the trace there, with the timeline's
// and V8's CPU samples (a diagnosis: where a long task's time went).

import type { CDPSession, Page } from "playwright-core";

/** One task of the UI thread: its CPU time (ms) and wall time (ms). */
export interface TaskTime {
  cpu: number;
  wall: number;
}

/** What the UI thread spent over a measured span. */
export interface UICPU {
  /** Tasks the main thread ran, with their CPU and wall times. */
  tasks: TaskTime[];
  /** Their CPU time summed (ms). */
  taskCPU: number;
  /** The main thread's CPU time over the span (Performance.getMetrics ThreadTime, ms). */
  threadTime: number;
  /** Script run on it (ScriptDuration, ms of wall time). */
  scriptDuration: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** The names the scheduler's task events carry, newest Chromium first. */
const taskNames = new Set(["ThreadControllerImpl::RunTask", "RunTask"]);

async function metrics(cdp: CDPSession): Promise<Map<string, number>> {
  const m = await cdp.send("Performance.getMetrics");
  return new Map(m.metrics.map((x) => [x.name, x.value]));
}

async function readStream(cdp: CDPSession, handle: string): Promise<string> {
  const parts: string[] = [];
  for (;;) {
    const r = await cdp.send("IO.read", { handle, size: 1 << 20 });
    parts.push(r.base64Encoded === true ? Buffer.from(r.data, "base64").toString("utf8") : r.data);
    if (r.eof) break;
  }
  await cdp.send("IO.close", { handle });
  return parts.join("");
}

/** mainTasks picks the renderer main thread's top-level tasks out of a trace (its thread named CrRendererMain with the most tasks). */
function mainTasks(events: TraceEvent[]): TaskTime[] {
  const mains = new Set(events.filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`));
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ph !== "X" || !taskNames.has(e.name) || !mains.has(key)) continue;
    const list = byThread.get(key) ?? [];
    list.push(e);
    byThread.set(key, list);
  }
  let best: TraceEvent[] = [];
  for (const l of byThread.values()) if (l.length > best.length) best = l;
  // A task is traced under both names, one inside the other: the outermost counts, once.
  best.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const tasks: TaskTime[] = [];
  let end = -1;
  for (const e of best) {
    if (e.ts < end) continue;
    end = e.ts + (e.dur ?? 0);
    tasks.push({ cpu: (e.tdur ?? e.dur ?? 0) / 1000, wall: (e.dur ?? 0) / 1000 });
  }
  return tasks;
}

/**
 * measureUI runs f in page and returns what the page's UI thread spent
 * meanwhile: its tasks (traced, each with its CPU time) and its CPU time.
 */
export async function measureUI<T>(page: Page, f: () => Promise<T>): Promise<{ value: T; ui: UICPU }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
  const done = new Promise<string>((resolve) => cdp.once("Tracing.tracingComplete", (e) => resolve(e.stream ?? "")));
  await cdp.send("Tracing.start", { transferMode: "ReturnAsStream", traceConfig: { recordMode: "recordAsMuchAsPossible", includedCategories: process.env["KESSHO_TRACE_DUMP"] ? ["toplevel", "__metadata", "devtools.timeline", "v8", "disabled-by-default-devtools.timeline", "disabled-by-default-v8.cpu_profiler"] : ["toplevel", "__metadata"] } });
  const m0 = await metrics(cdp);
  const value = await f();
  const m1 = await metrics(cdp);
  await cdp.send("Tracing.end");
  const text = await readStream(cdp, await done);
  await cdp.detach();
  if (process.env["KESSHO_TRACE_DUMP"]) (await import("node:fs")).writeFileSync(process.env["KESSHO_TRACE_DUMP"], text);
  const events = (JSON.parse(text) as { traceEvents: TraceEvent[] }).traceEvents;
  const tasks = mainTasks(events);
  const d = (k: string) => ((m1.get(k) ?? 0) - (m0.get(k) ?? 0)) * 1000;
  return { value, ui: { tasks, taskCPU: tasks.reduce((s, t) => s + t.cpu, 0), threadTime: d("ThreadTime"), scriptDuration: d("ScriptDuration") } };
}
