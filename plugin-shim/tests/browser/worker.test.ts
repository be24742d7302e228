// Issue 15's first "Done when", in headless Chromium: the built main.js
// keeps the core off the UI thread, at start-up and during a call on a
// project of 3,000 archives: nothing is compiled during onload, no module
// is compiled or instantiated on the UI thread (the page counts them), and
// the call's requests are answered in a Web Worker (the worker counts
// them, and the page counts the messages to and from real workers). Then
// a step past its time limit stops the worker, the call answers LIMIT_EXCEEDED, nothing
// is written, and a new worker, started at once and compiled before the
// next call, answers it.
//
// Whether the UI thread ever ran a task over 50 ms (the Long Tasks API's
// long task) is wall time, which a loaded machine stretches: the test
// prints the long tasks it saw, and `make bench-plugin` reports them over
// fresh pages (bench/bench.ts, longTasksInChromium), but no test fails on
// them (RATIONALE.md: "Why does no test assert a wall time?").

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { executablePath, openChromium, type Chromium } from "./chromium";
import { rehearsalCalls } from "../../src/host/rehearsal";

interface Task {
  start: number;
  duration: number;
}
interface Probe {
  workers: number;
  blobWorkers: number;
  terminated: number;
  requests: number;
  answers: number;
  uiWasm: number;
}
interface Started {
  loadMs: number;
  readyMs: number;
  rehearsed: number;
  rehearsalMs: number;
  untouched: boolean;
  startedAtLoad: number;
  longTasks: Task[];
  probe: Probe;
}
interface Called {
  ms: number;
  answer: string;
  answerBytes: number;
  error: string;
  unchanged: boolean;
  workerCalls: number;
  requests: number;
  overdue: number;
  coldRequests: number;
  longTasks: Task[];
  probe: Probe;
}
interface WorkerPage {
  start(n: number): Promise<Started>;
  bigCall(tool: string, args: Record<string, unknown>): Promise<Called>;
  setDeadline(s: number): void;
  warmed(n: number): Promise<number>;
}

const archives = 3000;
const show = (ts: Task[]) => ts.map((t) => `${t.duration.toFixed(0)} ms at ${t.start.toFixed(0)}`).join(", ");

describe("the core in a Web Worker", { skip: existsSync(executablePath) ? false : "no /usr/bin/chromium (scripts/ensure-chromium.sh)" }, () => {
  let browser: Chromium;
  let page: Page;
  const errors: string[] = [];
  const w = () => (globalThis as unknown as { kesshoWorker: WorkerPage }).kesshoWorker;
  const start = (n: number) => page.evaluate(`(${w.toString()})().start(${n})`) as Promise<Started>;
  const bigCall = (tool: string, args: object) => page.evaluate(`(${w.toString()})().bigCall(${JSON.stringify(tool)}, ${JSON.stringify(args)})`) as Promise<Called>;
  const setDeadline = (s: number) => page.evaluate(`(${w.toString()})().setDeadline(${s})`);
  const warmed = (n: number) => page.evaluate(`(${w.toString()})().warmed(${n})`) as Promise<number>;

  before(async () => {
    browser = await openChromium("worker-page.ts", "Kessho worker");
    page = await browser.context.newPage();
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(browser.base + "/");
  });
  after(async () => {
    await browser?.close();
  });

  test(`the core starts and runs a call on ${archives} archives in a Web Worker, never on the UI thread`, async (t) => {
    const s = await start(archives);
    t.diagnostic(`start-up: onload ${s.loadMs.toFixed(0)} ms, core ready in its worker ${s.readyMs.toFixed(0)} ms, ${s.rehearsed} calls rehearsed in ${s.rehearsalMs.toFixed(0)} ms; long tasks (not asserted): ${show(s.longTasks) || "none"}`);
    assert.equal(s.startedAtLoad, 0, "nothing is compiled during onload");
    assert.equal(s.rehearsed, rehearsalCalls, "the rehearsal made all its calls");
    assert.ok(s.untouched, "the rehearsal left the vault as it was");
    assert.equal(s.probe.blobWorkers, 1, "one worker, from a Blob URL");
    assert.equal(s.probe.uiWasm, 0, "no module compiled or instantiated on the UI thread");

    const c = await bigCall("mem_archive_rewrite_paths", { slug: "big" });
    t.diagnostic(`dry run on ${archives} archives: ${c.ms.toFixed(0)} ms, answer ${c.answerBytes} bytes, ${c.workerCalls} requests answered by the worker; long tasks (not asserted): ${show(c.longTasks) || "none"}`);
    assert.equal(c.error, "");
    assert.match(c.answer, new RegExp(`^\\{"ok":true,"result":\\{"slug":"big".*"files_scanned":${archives + 2},"files_changed":${archives + 1}`));
    assert.ok(c.unchanged, "a dry run writes nothing");
    // The call completed in the worker: every request went to a real worker, which counted it and answered.
    assert.ok(c.workerCalls >= 3, `the worker answered ${c.workerCalls} requests`);
    assert.equal(c.requests, c.workerCalls, "each request the engine sent, a real worker counted");
    assert.equal(c.probe.answers, c.probe.requests);
    assert.equal(c.probe.workers, 1);
    assert.equal(c.probe.uiWasm, 0, "no module compiled or instantiated on the UI thread");
    assert.deepEqual(errors, []);
  });

  test("a step past its time limit stops the worker and says so; nothing is written; a new worker answers next", async () => {
    await setDeadline(0.2);
    const c = await bigCall("mem_archive_rewrite_paths", { slug: "big", confirm: true });
    // The call answers LIMIT_EXCEEDED as the Go host does, with the setting's sentence.
    assert.equal(c.error, "");
    assert.match(c.answer, /^\{"ok":false,"error":\{"code":"LIMIT_EXCEEDED","message":"[^"]*this call took longer than 0\.2 s, the time limit in Kessho's settings\. Nothing was written\./);
    assert.ok(c.unchanged, "nothing of the call's plan is applied");
    assert.equal(c.overdue, 1);
    assert.equal(c.probe.terminated, 1, "the worker was terminated");
    assert.equal(c.probe.workers, 2, "and replaced");
    await setDeadline(300);
    // The replacement started when the page was idle and compiled in its own thread, before the next call.
    assert.equal(await warmed(2), 2, "the replacement compiled its module before the next call");
    const next = await bigCall("mem_read_history", { slug: "big", limit: 1 });
    assert.equal(next.coldRequests, c.coldRequests, "the next call found its worker ready: no request waited for a compile");
    assert.equal(next.error, "");
    assert.match(next.answer, new RegExp(`^\\{"ok":true,"result":\\{"slug":"big".*"total":${archives}`));
    assert.ok(next.workerCalls >= 1);
    assert.equal(next.probe.workers, 2);
    assert.deepEqual(errors, []);
  });
});
