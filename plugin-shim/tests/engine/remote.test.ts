// The engine the plugin uses (src/engine/remote.ts): every request is a
// message to a worker and back. Here the worker is the in-thread fallback
// (serve.ts's InThread, what runs where there is no Worker), or a fake one
// that hangs or fails, to check the deadline, the memory bound and that a
// call stopped at its deadline applies nothing. The real Web Worker is
// checked in Chromium (tests/browser/worker.test.ts).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { compress, init } from "@bokuweb/zstd-wasm";
import type { App as ObsidianApp } from "obsidian";
import { pack } from "../../scripts/pack.mjs";
import type { CoreWorker, FromWorker, LoadMessage, ToWorker } from "../../src/engine/protocol";
import { type Clock, loadPiece, memoryBound, RemoteEngine, type RemoteOptions } from "../../src/engine/remote";
import { InThread } from "../../src/engine/serve";
import { call, type Outcome } from "../../src/host/call";
import { Host } from "../../src/host/service";
import { ObsidianVault } from "../../src/obsidian/vault-port";
import { diffTrees } from "../cases";
import { App } from "../fake/obsidian";
import { caseNamed, notes } from "../host/helpers";
import { repoDir, until } from "../node";
import type { StepIn } from "../../src/host/step";
import { once } from "./once";

// The engine's timers are the window's, as in Obsidian; under Node the global object stands for it.
(globalThis as unknown as { window: typeof globalThis }).window ??= globalThis;

const wasmPath = process.env["KESSHO_WASM"] ?? join(repoDir, "host", "engine", "module", "kessho.wasm");
const req = '{"tool":"mem_nope","now":"2026-11-30T10:15:00+01:00","lang":"en"}';
const overdue = (ms: number) => `over ${ms} ms`;

let load: LoadMessage;
before(async () => {
  await init();
  const zst = compress(readFileSync(wasmPath), 3);
  load = { kind: "load", packed: pack(zst), length: zst.length };
});

/** Relay is the in-thread worker, with replies it can hold back and a record of its end. */
class Relay implements CoreWorker {
  onmessage: ((ev: { data: FromWorker }) => void) | null = null;
  terminated = false;
  private inner = new InThread();
  private held = new Set<number>();

  /** Modules it was sent to compile. */
  loads = 0;
  /** The kinds of the messages it was sent, in order. */
  kinds: string[] = [];

  /**
   * hold says which requests never get their answer (a step that runs
   * forever); memory, when given, is the memory its answers report.
   */
  constructor(
    private hold: (msg: ToWorker, n: number) => boolean = () => false,
    memory?: number,
  ) {
    this.inner.onmessage = (ev) => {
      if (ev.data.kind === "answer" && this.held.has(ev.data.id)) return;
      this.onmessage?.(ev.data.kind === "answer" && memory !== undefined ? { data: { ...ev.data, memory } } : ev);
    };
  }

  private n = 0;
  postMessage(msg: ToWorker): void {
    this.kinds.push(msg.kind);
    if (msg.kind === "load") this.loads++;
    else if (msg.kind !== "load-part" && this.hold(msg, this.n++)) this.held.add(msg.id);
    this.inner.postMessage(msg);
  }

  terminate(): void {
    this.terminated = true;
    this.inner.terminate();
  }
}

/**
 * FakeClock is the engine's clock in the tests of its time limits: its
 * time passes only when advance says, so that what runs past a limit does
 * not depend on how busy the machine is.
 */
class FakeClock implements Clock {
  private t = 0;
  private next = 1;
  private timers = new Map<number, { at: number; f: () => void }>();

  now(): number {
    return this.t;
  }

  setTimeout(f: () => void, ms: number): number {
    this.timers.set(this.next, { at: this.t + ms, f });
    return this.next++;
  }

  clearTimeout(id: number): void {
    this.timers.delete(id);
  }

  /** advance moves the time on by ms, running the timers due meanwhile, earliest first, each at its time. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const [id, due] = [...this.timers].filter(([, x]) => x.at <= end).sort((a, b) => a[1].at - b[1].at)[0] ?? [];
      if (id === undefined || due === undefined) break;
      this.timers.delete(id);
      this.t = Math.max(this.t, due.at);
      due.f();
    }
    this.t = end;
  }
}

/** Slow is the in-thread worker, each of whose answers comes ms after its request on clock (ms of the answer's number, from 0, when a function): a core whose every step is slow, none past a deadline alone. */
class Slow implements CoreWorker {
  onmessage: ((ev: { data: FromWorker }) => void) | null = null;
  terminated = false;
  /** Answers it gave (each after ms). */
  answered = 0;
  private inner = new InThread();

  constructor(
    private ms: number | ((n: number) => number),
    clock: FakeClock,
  ) {
    this.inner.onmessage = (ev) => {
      if (ev.data.kind !== "answer") {
        this.onmessage?.(ev);
        return;
      }
      setTimeout(() => {
        clock.advance(typeof this.ms === "number" ? this.ms : this.ms(this.answered));
        if (this.terminated) return;
        this.answered++;
        this.onmessage?.(ev);
      }, 0);
    };
  }

  postMessage(msg: ToWorker): void {
    this.inner.postMessage(msg);
  }

  terminate(): void {
    this.terminated = true;
    this.inner.terminate();
  }
}

/** Dying is a worker that dies (its error event) when it gets its module ("start") or its first request ("request"). */
class Dying implements CoreWorker {
  onmessage: ((ev: { data: FromWorker }) => void) | null = null;
  onerror: ((ev: { message?: string }) => void) | null = null;
  terminated = false;
  private inner = new Relay();

  constructor(private when: "start" | "request") {
    this.inner.onmessage = (ev) => this.onmessage?.(ev);
  }

  postMessage(msg: ToWorker): void {
    // The module comes in pieces (load, then load-part): it dies at the first, or at the first request, never at a piece.
    const dies = this.when === "start" ? msg.kind === "load" : msg.kind !== "load" && msg.kind !== "load-part";
    if (dies) {
      setTimeout(() => this.onerror?.({ message: this.when === "start" ? "script refused" : "out of memory" }), 1);
      return;
    }
    this.inner.postMessage(msg);
  }

  terminate(): void {
    this.terminated = true;
    this.inner.terminate();
  }
}

/** assertOverdue checks that out is the LIMIT_EXCEEDED of a call of tool stopped at its limit of ms, as the Go host answers one past its deadline. */
function assertOverdue(out: Outcome, tool: string, ms: number): void {
  assert.equal(out.ok, false);
  assert.equal(out.answer, JSON.stringify({ ok: false, error: { code: "LIMIT_EXCEEDED", message: overdue(ms), details: { timeout_ms: ms, tool } } }));
}

/** engine returns a RemoteEngine whose workers are the ones given, in order, then Relays. */
function engine(workers: CoreWorker[], more: Partial<RemoteOptions> = {}): { eng: RemoteEngine; spawned: CoreWorker[] } {
  const spawned: CoreWorker[] = [];
  const eng = new RemoteEngine({
    spawn: () => {
      const w = workers.shift() ?? new Relay();
      spawned.push(w);
      return w;
    },
    load: () => load,
    deadlineMs: () => 10_000,
    overdue,
    ...more,
  });
  return { eng, spawned };
}

describe("RemoteEngine", () => {
  test("steps go to the worker, which counts them; one worker serves them all", async () => {
    const { eng } = engine([]);
    const answers = await Promise.all(Array.from({ length: 7 }, () => once(eng, req)));
    for (const a of answers) assert.match(a, /unknown tool \\"mem_nope\\"/);
    assert.equal(eng.workerCalls, 7);
    assert.equal(eng.started, 1);
  });

  test("warm compiles in the worker before any call; the first call then finds it ready", async () => {
    const { eng, spawned } = engine([]);
    await eng.warm();
    assert.equal(spawned.length, 1);
    assert.equal(eng.workerCalls, 0);
    assert.match(await once(eng, req), /unknown tool/);
    assert.equal(eng.started, 1);
  });

  test("a step past its deadline stops its worker and says so; a new worker is started at once and answers the next call", async () => {
    const stuck = new Relay(() => true);
    const { eng, spawned } = engine([stuck], { deadlineMs: () => 50 });
    await assert.rejects(once(eng, req), /^Error: over 50 ms$/);
    assert.equal(stuck.terminated, true);
    assert.equal(eng.overdue, 1);
    assert.equal(spawned.length, 2, "the replacement starts before the next call");
    await until(() => eng.warmed === 2, "the replacement compiled");
    const cold = eng.coldRequests;
    assert.match(await once(eng, req), /unknown tool/);
    assert.equal(eng.coldRequests, cold, "the next call found the replacement ready");
    assert.equal(eng.started, 2);
    assert.equal((spawned[1] as Relay).terminated, false);
    assert.equal((spawned[1] as Relay).loads, 1, "which compiled its module once");
  });

  test("a call whose last step runs past the deadline applies nothing of its plan", async () => {
    const c = caseNamed("phase-block-to-scalar");
    const app = new App();
    app.vault.reset(c.vault);
    // Every round of the call answers at once, except the last one (the one with the plan): the call's time runs out meanwhile.
    const rounds: string[] = [];
    const clock = new FakeClock();
    const slow = new Relay((msg) => {
      if (msg.kind !== "step" || msg.round === undefined) return false;
      rounds.push(msg.round.tail);
      const last = msg.round.tail.includes('"files"');
      if (last) setTimeout(() => clock.advance(200), 0);
      return last;
    });
    const { eng } = engine([slow], { deadlineMs: () => 200, clock });
    const port = new ObsidianVault(app as unknown as ObsidianApp);
    assertOverdue(await call(port, eng, c.tool, c.args, { now: c.now, tz: c.tz, lang: c.lang }), c.tool, 200);
    assert.ok(rounds.length >= 2, "the call got as far as its last round");
    assert.equal(diffTrees(app.vault.snapshot(), c.vault), "", "the vault is as it was");
    // The same call, on the new worker, applies its plan.
    const out = await call(port, eng, c.tool, c.args, { now: c.now, tz: c.tz, lang: c.lang });
    assert.equal(out.answer, c.answer);
    assert.equal(diffTrees(app.vault.snapshot(), c.want), "");
  });

  test("a call's deadline bounds all its steps: steps each well under it that together pass it stop the call and its worker, nothing written", async () => {
    const c = caseNamed("phase-block-to-scalar");
    const app = new App();
    app.vault.reset(c.vault);
    const clock = new FakeClock();
    const slow = new Slow(150, clock);
    const { eng, spawned } = engine([slow], { deadlineMs: () => 250, clock });
    await eng.warm();
    const port = new ObsidianVault(app as unknown as ObsidianApp);
    const opts = { now: c.now, tz: c.tz, lang: c.lang };
    assertOverdue(await call(port, eng, c.tool, c.args, opts), c.tool, 250);
    // The call's two steps each take 150 ms: the first answered at 150 ms, the second stopped at 250.
    assert.equal(slow.answered, 1, `${slow.answered} steps answered, each in 150 ms, before the deadline`);
    assert.equal(slow.terminated, true, "the worker running at the deadline is stopped");
    assert.equal(eng.overdue, 1);
    assert.equal(spawned.length, 2, "and replaced at once");
    assert.equal(diffTrees(app.vault.snapshot(), c.vault), "", "nothing written");
    // Each call has its own deadline: the same call, on the (fast) replacement, applies its plan.
    const out = await call(port, eng, c.tool, c.args, opts);
    assert.equal(out.answer, c.answer);
    assert.equal(diffTrees(app.vault.snapshot(), c.want), "");
    // A request outside a call still has the whole time limit to itself.
    assert.match(await once(eng, req), /unknown tool/);
  });

  test("a call whose time ran out on the UI thread is refused at its next request, and its worker replaced", async () => {
    const c = caseNamed("phase-block-to-scalar");
    const app = new App();
    app.vault.reset(c.vault);
    const clock = new FakeClock();
    const { eng, spawned } = engine([], { deadlineMs: () => 100, clock });
    await eng.warm();
    // The vault answers each read 60 ms later (a slow disk): the rounds take no time, the reads between them do.
    app.vault.io = async () => clock.advance(60);
    const port = new ObsidianVault(app as unknown as ObsidianApp);
    assertOverdue(await call(port, eng, c.tool, c.args, { now: c.now, tz: c.tz, lang: c.lang }), c.tool, 100);
    assert.equal(eng.overdue, 1);
    assert.equal((spawned[0] as Relay).terminated, true, "the worker is stopped");
    assert.equal(spawned.length, 2, "and replaced, once");
    assert.equal(diffTrees(app.vault.snapshot(), c.vault), "", "nothing written");
  });

  test("a worker whose memory grew past the bound is replaced after its answer, its replacement started and compiled before the next call", async () => {
    const { eng, spawned } = engine([new Relay(undefined, memoryBound + 1)]);
    assert.match(await once(eng, req), /unknown tool/, "the answer is kept");
    assert.equal(eng.recycled, 1);
    assert.equal((spawned[0] as Relay).terminated, true);
    assert.equal(spawned.length, 2, "the replacement starts at once, before the next call");
    await until(() => eng.warmed === 2, "the replacement compiled");
    const cold = eng.coldRequests;
    assert.equal(cold, 1, "only the very first call waited for a compile");
    assert.match(await once(eng, req), /unknown tool/);
    assert.equal(eng.coldRequests, cold, "the call right after the recycle found its worker ready: no compile");
    assert.equal(spawned.length, 2, "and no other worker started");
    assert.equal((spawned[1] as Relay).loads, 1);
    assert.equal(eng.recycled, 1);
  });

  test("a replacement waits for the UI thread to be idle; a call that comes first starts it itself, and the idle start then finds it", async () => {
    const idle: (() => void)[] = [];
    const { eng, spawned } = engine([new Relay(undefined, memoryBound + 1)], { idle: (f) => idle.push(f) });
    await once(eng, req);
    assert.equal(spawned.length, 1, "nothing started before the idle callback");
    assert.equal(idle.length, 1);
    assert.match(await once(eng, req), /unknown tool/);
    assert.equal(spawned.length, 2);
    idle.shift()!();
    assert.equal(spawned.length, 2, "the idle start found the worker running");
    // After stop (the plugin's unload), a pending idle start starts nothing.
    const { eng: e2, spawned: s2 } = engine([new Relay(undefined, memoryBound + 1)], { idle: (f) => idle.push(f) });
    await once(e2, req);
    e2.stop();
    idle.shift()!();
    assert.equal(s2.length, 1);
  });

  test("a call crosses to the worker once a step: each round travels with a step; the answer and vault as before", async () => {
    const c = caseNamed("phase-block-to-scalar");
    const app = new App();
    app.vault.reset(c.vault);
    const sent: ToWorker[] = [];
    const { eng } = engine([
      new Relay((msg) => {
        sent.push(msg);
        return false;
      }),
    ]);
    const env = { clock: () => new Date(), tz: () => "", lang: () => "en" as const };
    const host = new Host(eng, new ObsidianVault(app as unknown as ObsidianApp), env);
    const out = await host.call(c.tool, c.args, { now: c.now, tz: c.tz, lang: c.lang });
    assert.equal(out.answer, c.answer);
    assert.equal(diffTrees(app.vault.snapshot(), c.want), "");
    const asked = sent.map((m) => (m.kind === "step" && m.round !== undefined ? "step+round" : m.kind));
    // Each message the call sent: its start with the first round (the need checked, its
    // files foreseen read, its small listings foreseen held raw, then the next round asked),
    // then that round with its step (the plan's check, journal and ops foreseen, run
    // without another).
    assert.deepEqual(asked, ["step+round", "step+round"], `the messages: ${asked.join(", ")}`);
    // Its journal's folder is left empty: the next call asks no sweep of it.
    assert.deepEqual(await app.vault.adapter.list(".kessho/journal"), { files: [], folders: [] });
    sent.length = 0;
    await host.call(c.tool, c.args, { now: c.now, tz: c.tz, lang: c.lang });
    const starts = sent.flatMap((m) => (m.kind === "step" ? [(JSON.parse(m.request) as StepIn).start] : []));
    // One start, a call's, with no journal to roll forward (and its first round with it).
    const first = starts.filter((s) => s !== undefined);
    assert.equal(first.length, 1);
    assert.ok(first[0]!.call !== undefined && (first[0]!.journals ?? []).length === 0 && sent[0]!.kind === "step" && sent[0]!.round !== undefined);
  });

  test("a search index's first build in batches: each batch stored restarts the call's time limit, so a build longer than the limit completes", async () => {
    const app = new App();
    const port = new ObsidianVault(app as unknown as ObsidianApp);
    const args = '{"query":"webhook retries","limit":5}';
    const opts = { now: "2026-11-30T10:15:00+01:00", tz: "Europe/Paris", lang: "en", indexBatch: 3000 };
    app.vault.reset(notes(60));
    const whole = await call(port, engine([]).eng, "mem_search", args, opts);
    assert.match(whole.answer, /^\{"ok":true/);
    app.vault.reset(notes(60));
    const clock = new FakeClock();
    const slow = new Slow(150, clock);
    const { eng } = engine([slow], { deadlineMs: () => 1000, clock });
    await eng.warm();
    const out = await call(port, eng, "mem_search", args, opts);
    assert.equal(out.answer, whole.answer);
    assert.ok(clock.now() > 1000, `the build took longer than the limit (${clock.now()} ms, ${slow.answered} requests)`);
    assert.equal(eng.overdue, 0, "and was not stopped");
    assert.equal(slow.terminated, false);
  });

  test("a search build stopped at its limit answers LIMIT_EXCEEDED with how far its stored index got, and the next call goes on from there", async () => {
    const app = new App();
    const port = new ObsidianVault(app as unknown as ObsidianApp);
    const args = '{"query":"webhook retries","limit":5}';
    const opts = { now: "2026-11-30T10:15:00+01:00", tz: "Europe/Paris", lang: "en", indexBatch: 3000 };
    app.vault.reset(notes(60));
    const whole = await call(port, engine([]).eng, "mem_search", args, opts);
    app.vault.reset(notes(60));
    const clock = new FakeClock();
    // Five steps of 100 ms (a batch or two stored), then one past the limit.
    const slow = new Slow((n) => (n < 5 ? 100 : 1000), clock);
    const { eng } = engine([slow], { deadlineMs: () => 400, clock });
    await eng.warm();
    const out = await call(port, eng, "mem_search", args, opts);
    const got = JSON.parse(out.answer) as { ok: boolean; error: { code: string; message: string; details: { indexed: number; left: number; timeout_ms: number; tool: string } } };
    assert.equal(got.error.code, "LIMIT_EXCEEDED", out.answer);
    const { indexed, left } = got.error.details;
    assert.ok(indexed > 0 && indexed + left === 60, `indexed ${indexed}, left ${left}`);
    assert.deepEqual(Object.keys(got.error.details), ["indexed", "left", "timeout_ms", "tool"], "the Go host's order");
    assert.equal(got.error.message, `${overdue(400)} Its search index is stored with ${indexed} of 60 notes: the next call goes on from there.`);
    assert.equal(eng.overdue, 1);
    const next = await call(port, engine([]).eng, "mem_search", args, opts);
    assert.equal(next.answer, whole.answer);
  });

  test("a new worker gets the module a piece a task, the last piece in its load message, and compiles it", async () => {
    const relay = new Relay();
    const { eng } = engine([relay]);
    await eng.warm();
    const pieces = Math.ceil(load.packed.length / loadPiece);
    assert.ok(pieces >= 4, `the module is ${load.packed.length} units: several pieces`);
    assert.deepEqual(relay.kinds, [...Array<string>(pieces - 1).fill("load-part"), "load"]);
    assert.match(await once(eng, req), /unknown tool/, "the joined module runs");
  });

  test("below the bound the worker is kept", async () => {
    const { eng } = engine([]);
    for (let i = 0; i < 3; i++) await once(eng, req);
    assert.equal(eng.recycled, 0);
    assert.equal(eng.started, 1);
  });

  test("a worker that cannot load its module: the call says why, and the next call starts another", async () => {
    // Far more bytes than it packs: one more may fit the last 7-bit group's padding, by the module's size.
    const broken = { ...load, length: load.length + 100 };
    let first = true;
    const { eng, spawned } = engine([], {
      load: () => {
        const l = first ? broken : load;
        first = false;
        return l;
      },
    });
    await assert.rejects(once(eng, req), /compiling the wasm core: unpack/);
    assert.equal((spawned[0] as Relay).terminated, true);
    assert.match(await once(eng, req), /unknown tool/);
    assert.equal(eng.started, 2);
  });

  test("a worker whose script cannot run: calls go to the fallback, from then on", async () => {
    const refused = new Dying("start");
    const fell: CoreWorker[] = [];
    const { eng, spawned } = engine([refused], {
      fallback: () => {
        const w = new Relay();
        fell.push(w);
        return w;
      },
    });
    assert.match(await once(eng, req), /unknown tool/);
    assert.equal(refused.terminated, true);
    assert.equal(fell.length, 1);
    // Once stopped, the next one is a fallback again, not a worker that cannot start.
    eng.stop();
    assert.match(await once(eng, req), /unknown tool/);
    assert.equal(spawned.length, 1);
    assert.equal(fell.length, 2);
  });

  test("a worker that refuses its module's pieces is one that cannot start: calls go to the fallback", async () => {
    const refusing = new Relay();
    refusing.postMessage = (msg: ToWorker) => {
      if (msg.kind === "load-part" || msg.kind === "load") throw new Error("DataCloneError");
    };
    const fell: CoreWorker[] = [];
    const { eng } = engine([refusing], {
      fallback: () => {
        const w = new Relay();
        fell.push(w);
        return w;
      },
    });
    assert.match(await once(eng, req), /unknown tool/);
    assert.equal(fell.length, 1);
  });

  test("a worker that dies during a request: the call says why, and the next call gets a new worker", async () => {
    const dying = new Dying("request");
    const { eng, spawned } = engine([dying]);
    await assert.rejects(once(eng, req), /the core's worker stopped: out of memory/);
    assert.equal(dying.terminated, true);
    assert.match(await once(eng, req), /unknown tool/);
    assert.equal(spawned.length, 2);
  });

  test("a worker that cannot start (no WebAssembly): every call says why", async () => {
    const eng = new RemoteEngine({
      spawn: () => {
        throw new Error("no WebAssembly here");
      },
      load: () => load,
      deadlineMs: () => 10_000,
      overdue,
    });
    await assert.rejects(once(eng, req), /no WebAssembly here/);
    await assert.rejects(once(eng, req), /no WebAssembly here/);
  });
});
