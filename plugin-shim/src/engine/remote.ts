// The core, seen from the UI thread: every step of a call (with its
// round's request, when it has one) is a message to a worker that runs the wasm module
// (serve.ts) and back. The UI thread keeps the call loop and the vault's
// I/O; the module is unpacked, decompressed, compiled and run in the worker.

import { Overdue, type Engine, type RoundRequest, type Stepped } from "../host/call";
import { messageOf, nextTask } from "../host/port";
import type { CoreWorker, FromWorker, LoadMessage, ToWorker } from "./protocol";

/**
 * memoryBound is the wasm memory past which a worker is replaced between
 * requests. A Go module's memory never shrinks (its heap only grows), and a
 * large project's call can leave it at a hundred MiB; 256 MiB is well above
 * a normal call's needs (60 pages at start, about 160 steady) and well
 * below what a phone's web view tolerates for one tab.
 */
export const memoryBound = 256 * 1024 * 1024;

/** RemoteOptions are how a RemoteEngine starts workers and bounds requests. */
export interface RemoteOptions {
  /** spawn starts a worker (or the in-thread fallback); it throws when the core cannot run here. */
  spawn: () => CoreWorker;
  /** load is the first message of each new worker: the packed module. */
  load: () => LoadMessage;
  /**
   * deadlineMs is how long a call (within) may take, all its requests
   * together, once its worker is ready; or one request sent outside a call.
   */
  deadlineMs: () => number;
  /** overdue is the message of a call or request stopped at its deadline (ms). */
  overdue: (ms: number) => string;
  /**
   * fallback, when given, replaces spawn for good once a worker failed to
   * start at all (its script refused, e.g. by a content security policy):
   * the in-thread fallback, so that calls still run.
   */
  fallback?: () => CoreWorker;
  /** memoryBound overrides memoryBound (tests). */
  memoryBound?: number;
  /**
   * idle runs f once the UI thread is idle (main.ts: requestIdleCallback):
   * when the replacement of a stopped worker starts. Default: at once.
   */
  idle?: (f: () => void) => void;
  /** clock is the time limits' time and timers: performance.now and the window's timers unless given (tests). */
  clock?: Clock;
}

/** Clock is what a RemoteEngine reads the time from and sets its timers with. */
export interface Clock {
  now(): number;
  setTimeout(f: () => void, ms: number): number;
  clearTimeout(id: number): void;
}

const windowClock: Clock = {
  now: () => performance.now(),
  setTimeout: (f, ms) => window.setTimeout(f, ms),
  clearTimeout: (id) => window.clearTimeout(id),
};

type Answer = Extract<FromWorker, { kind: "answer" }>;

/** A running worker: ready once its module compiled; reply takes the answer of the request in flight, or the error that ended the worker. */
interface Live {
  worker: CoreWorker;
  ready: Promise<void>;
  /** Its module compiled and an instance started ("ready" came). */
  isReady: boolean;
  reply: ((m: Answer | Error) => void) | null;
  /** The worker died before it was ready (its script did not run). */
  startFailed: boolean;
}

/**
 * RemoteEngine runs the core in a worker, one request at a time.
 *
 *	const eng = new RemoteEngine({ spawn, load, deadlineMs: () => 10_000, overdue });
 *	void eng.warm();                       // compile in the background
 *	const { out } = await eng.step(input, round); // one step of a call
 *
 * A call (within) or a request outside one that outlives its deadline
 * stops its worker (terminate), and is refused with overdue's message (an
 * Overdue, which call answers LIMIT_EXCEEDED). A
 * worker whose memory grew past the bound is stopped after its answer. Either way its replacement starts as
 * soon as the UI thread is idle and compiles its module in the
 * background, so that the next request finds it ready rather than paying
 * a cold start.
 */
export class RemoteEngine implements Engine {
  /** Its worker writes a round's raw files itself (Engine.raw). */
  readonly raw = true;
  /** Workers started. */
  started = 0;
  /** Requests the current worker answered (its own count). */
  workerCalls = 0;
  /** Workers stopped at a call's (or a request's) deadline, and stopped for their memory. */
  overdue = 0;
  recycled = 0;
  /** Workers whose module compiled and started (their "ready"). */
  warmed = 0;
  /** Requests that found no ready worker and waited for a module to compile. */
  coldRequests = 0;
  private live: Live | null = null;
  /** stop was called and no request came since: a pending respawn does nothing. */
  private stopped = false;
  private useFallback = false;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  /** The running call's deadline (the clock's time) and its length in ms, or null outside a call (within). */
  private callEnds: number | null = null;
  private callMs = 0;
  /** The running call passed its deadline and its worker was stopped: its later requests stop nothing more. */
  private callStopped = false;

  private clock: Clock;

  constructor(private opts: RemoteOptions) {
    this.clock = opts.clock ?? windowClock;
  }

  /** step runs one step (core/hostlogic.Step), with its round's request when it has one: one message there and back; steps are queued and run one at a time. */
  async step(input: string, round?: RoundRequest): Promise<Stepped> {
    const a = await this.enqueue(() => this.send((id) => (round === undefined ? { kind: "step", id, request: input } : { kind: "step", id, request: input, round })));
    return { out: answerOf(a), printed: a.printed, index: a.index };
  }

  /**
   * within runs f, a call, under one deadline for all the requests it
   * sends: the setting's time from now, not counting waits for a worker's
   * module to compile. Past it the call's worker is stopped and replaced
   * (at once, when idle): at the deadline when a request is running there,
   * else at the call's next request (its time ran out on the UI thread).
   * The request fails with overdue's message, and so does the call: its
   * plan is applied only after the core's last answer, so nothing of it
   * is written.
   */
  async within<T>(f: () => Promise<T>): Promise<T> {
    const outer = this.callEnds;
    if (outer === null) {
      this.callMs = this.opts.deadlineMs();
      this.callEnds = this.clock.now() + this.callMs;
      this.callStopped = false;
    }
    try {
      return await f();
    } finally {
      if (outer === null) this.callEnds = null;
    }
  }

  /**
   * renew restarts the running call's deadline: the setting's time from
   * now (a search index's batch was stored; see Engine.renew). A call
   * already stopped stays stopped; outside a call it does nothing.
   */
  renew(): void {
    if (this.callEnds !== null && !this.callStopped) this.callEnds = this.clock.now() + this.callMs;
  }

  /** warm starts a worker and waits until its module is compiled and an instance started. */
  warm(): Promise<void> {
    return this.enqueue(async () => {
      await this.ready();
    });
  }

  /** stop ends the worker, if any (the plugin's unload); no replacement starts until the next request. */
  stop(): void {
    this.stopped = true;
    if (this.live !== null) this.end(this.live);
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** ready returns the worker once its module is compiled; a worker that cannot start at all gives way to the fallback, when there is one. */
  private async ready(): Promise<Live> {
    const live = this.worker();
    try {
      await live.ready;
      return live;
    } catch (err) {
      if (!live.startFailed || this.opts.fallback === undefined) throw err;
      const next = this.worker();
      await next.ready;
      return next;
    }
  }

  private worker(): Live {
    if (this.live !== null) return this.live;
    const fallback = this.useFallback ? this.opts.fallback : undefined;
    const worker = fallback !== undefined ? fallback() : this.opts.spawn();
    const live: Live = { worker, ready: Promise.resolve(), isReady: false, reply: null, startFailed: false };
    live.ready = new Promise<void>((resolve, reject) => {
      worker.onmessage = ({ data }) => {
        if (data.kind === "ready") {
          live.isReady = true;
          this.warmed++;
          resolve();
        } else if (data.kind === "failed") reject(new Error(data.error));
        else live.reply?.(data);
      };
      // The worker itself died: its script did not run, or it crashed (out of memory).
      worker.onerror = (ev) => {
        ev.preventDefault?.();
        const err = new Error(`kessho: the core's worker stopped: ${ev.message || "no reason given"}`);
        if (!live.isReady) {
          live.startFailed = true;
          this.useFallback = true;
          reject(err);
          return;
        }
        const reply = live.reply;
        this.end(live);
        reply?.(err);
      };
    });
    // A worker that failed to load is dropped; the next request starts another.
    live.ready.catch(() => this.end(live));
    // A module that cannot be posted is a worker that cannot start (its error handler: the fallback).
    postLoad(worker, this.opts.load()).catch((err: unknown) => worker.onerror?.({ message: messageOf(err) }));
    this.started++;
    this.workerCalls = 0;
    this.live = live;
    return live;
  }

  /**
   * respawn starts the replacement of a stopped worker when the UI thread
   * is idle, so that the next request does not wait for its compile; a
   * request that comes first starts it itself (and respawn then finds it).
   */
  private respawn(): void {
    const start = () => {
      if (this.stopped) return;
      try {
        this.worker().ready.catch(() => undefined);
      } catch {
        // spawn refused (no WebAssembly): the next request says why.
      }
    };
    if (this.opts.idle === undefined) start();
    else this.opts.idle(start);
  }

  /** stopCall stops and replaces the worker of a call past its deadline, once a call; it returns the call's error. */
  private stopCall(): Error {
    if (!this.callStopped) {
      this.callStopped = true;
      if (this.live !== null) {
        this.overdue++;
        this.end(this.live);
        this.respawn();
      }
    }
    return new Overdue(this.opts.overdue(this.callMs), this.callMs);
  }

  private end(live: Live): void {
    live.worker.terminate();
    live.reply = null;
    if (this.live === live) this.live = null;
  }

  /** send posts the request msg makes with its id to the worker and returns the worker's answer (an error in it included). */
  private async send(msg: (id: number) => ToWorker): Promise<Answer> {
    this.stopped = false;
    // The call is past its deadline (its time went on the UI thread, or a request was stopped): refused at once.
    if (this.callEnds !== null && this.callEnds <= this.clock.now()) throw this.stopCall();
    const cold = this.live === null || !this.live.isReady;
    if (cold) this.coldRequests++;
    const waitFrom = this.clock.now();
    const live = await this.ready();
    // A call's time counts once its worker is ready: a first compile (slow on a phone) is no timeout.
    if (cold && this.callEnds !== null) this.callEnds += this.clock.now() - waitFrom;
    const id = this.nextId++;
    const full = this.callEnds === null ? this.opts.deadlineMs() : this.callMs;
    const ms = this.callEnds === null ? full : this.callEnds - this.clock.now();
    if (ms <= 0) throw this.stopCall();
    const a = await new Promise<Answer>((resolve, reject) => {
      const timer = this.clock.setTimeout(() => {
        this.overdue++;
        if (this.callEnds !== null) this.callStopped = true;
        this.end(live);
        reject(new Overdue(this.opts.overdue(full), full));
        this.respawn();
      }, ms);
      live.reply = (m) => {
        if (m instanceof Error) {
          this.clock.clearTimeout(timer);
          reject(m);
          return;
        }
        if (m.id !== id) return;
        this.clock.clearTimeout(timer);
        live.reply = null;
        resolve(m);
      };
      const m = msg(id);
      // A round's bytes are handed over, not copied (the buffer is the worker's from now on).
      const r = m.kind === "step" ? m.round : undefined;
      live.worker.postMessage(m, [r?.bytes?.buffer, r?.raw?.data.buffer].filter((b) => b !== undefined));
    });
    this.workerCalls = a.calls;
    if (a.memory > (this.opts.memoryBound ?? memoryBound)) {
      this.recycled++;
      this.end(live);
      this.respawn();
    }
    return a;
  }
}

/** The size of the module's pieces postLoad sends, in UTF-16 units. */
export const loadPiece = 256 * 1024;

/**
 * postLoad sends the packed module to a new worker a piece a task: its 2
 * MB (a two-byte string: 4 MB to copy) posted at once was in the tasks of
 * 63-76 ms that start-up showed after main.js's evaluation
 * (tests/browser/worker.test.ts; RATIONALE.md). The
 * pieces go first ("load-part"), the last in the load message itself; the
 * worker's requests come after its "ready", so after them all.
 */
export async function postLoad(worker: CoreWorker, l: LoadMessage): Promise<void> {
  const last = Math.max(0, Math.ceil(l.packed.length / loadPiece) - 1);
  for (let i = 0; i < last; i++) {
    if (i > 0) await nextTask();
    worker.postMessage({ kind: "load-part", packed: l.packed.slice(i * loadPiece, (i + 1) * loadPiece) });
  }
  if (last > 0) await nextTask();
  worker.postMessage({ ...l, packed: l.packed.slice(last * loadPiece) });
}

/** answerOf is the core's answer in a, or the error the worker sent instead. */
function answerOf(a: Answer): string {
  if (a.answer === undefined) throw new Error(a.error ?? "kessho: the worker answered nothing");
  return a.answer;
}
