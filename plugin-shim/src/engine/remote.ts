// The core, seen from the UI thread: every request (a round of a call, or
// a host decision) is a message to a worker that runs the wasm module
// (serve.ts) and back. The UI thread keeps the call loop and the vault's
// I/O; the module is unpacked, decompressed, compiled and run in the worker.

import type { Engine } from "../host/call";
import type { HostCore } from "../host/core";
import type { CoreWorker, FromWorker, LoadMessage } from "./protocol";

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
  /** deadlineMs is how long one request may take once its worker is ready. */
  deadlineMs: () => number;
  /** overdue is the message of a request stopped at its deadline (ms). */
  overdue: (ms: number) => string;
  /**
   * fallback, when given, replaces spawn for good once a worker failed to
   * start at all (its script refused, e.g. by a content security policy):
   * the in-thread fallback, so that calls still run.
   */
  fallback?: () => CoreWorker;
  /** memoryBound overrides memoryBound (tests). */
  memoryBound?: number;
}

type Answer = Extract<FromWorker, { kind: "answer" }>;

/** A running worker: ready once its module compiled; reply takes the answer of the request in flight, or the error that ended the worker. */
interface Live {
  worker: CoreWorker;
  ready: Promise<void>;
  reply: ((m: Answer | Error) => void) | null;
  /** The worker died before it was ready (its script did not run). */
  startFailed: boolean;
}

/**
 * RemoteEngine runs the core in a worker, one request at a time.
 *
 *	const eng = new RemoteEngine({ spawn, load, deadlineMs: () => 10_000, overdue });
 *	void eng.warm();                       // compile in the background
 *	const answer = await eng.call('{"tool":…}');
 *
 * A request that outlives its deadline stops its worker (terminate), is
 * refused with overdue's message, and a new worker is started at once. A
 * worker whose memory grew past the bound is stopped after its answer;
 * the next request starts a new one.
 */
export class RemoteEngine implements Engine, HostCore {
  /** Workers started. */
  started = 0;
  /** Requests the current worker answered (its own count). */
  workerCalls = 0;
  /** Workers stopped at a deadline, and stopped for their memory. */
  overdue = 0;
  recycled = 0;
  private live: Live | null = null;
  private useFallback = false;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;

  constructor(private opts: RemoteOptions) {}

  /** call runs one request through core.Handle; requests are queued and run one at a time. */
  call(request: string): Promise<string> {
    return this.enqueue(() => this.send("call", request));
  }

  /** host runs one request of the host's decisions (core/hostlogic.Handle), queued like call. */
  host(request: string): Promise<string> {
    return this.enqueue(() => this.send("host", request));
  }

  /** warm starts a worker and waits until its module is compiled and an instance started. */
  warm(): Promise<void> {
    return this.enqueue(async () => {
      await this.ready();
    });
  }

  /** stop ends the worker, if any (the plugin's unload). */
  stop(): void {
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
    const live: Live = { worker, ready: Promise.resolve(), reply: null, startFailed: false };
    let isReady = false;
    live.ready = new Promise<void>((resolve, reject) => {
      worker.onmessage = ({ data }) => {
        if (data.kind === "ready") {
          isReady = true;
          resolve();
        } else if (data.kind === "failed") reject(new Error(data.error));
        else live.reply?.(data);
      };
      // The worker itself died: its script did not run, or it crashed (out of memory).
      worker.onerror = (ev) => {
        ev.preventDefault?.();
        const err = new Error(`kessho: the core's worker stopped: ${ev.message || "no reason given"}`);
        if (!isReady) {
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
    worker.postMessage(this.opts.load());
    this.started++;
    this.workerCalls = 0;
    this.live = live;
    return live;
  }

  /** respawn starts the replacement of a stopped worker now, so that the next request does not wait for its compile. */
  private respawn(): void {
    try {
      this.worker().ready.catch(() => undefined);
    } catch {
      // spawn refused (no WebAssembly): the next request says why.
    }
  }

  private end(live: Live): void {
    live.worker.terminate();
    live.reply = null;
    if (this.live === live) this.live = null;
  }

  private async send(kind: "call" | "host", request: string): Promise<string> {
    const live = await this.ready();
    const id = this.nextId++;
    const ms = this.opts.deadlineMs();
    const a = await new Promise<Answer>((resolve, reject) => {
      const timer = window.setTimeout(() => {
        this.overdue++;
        this.end(live);
        reject(new Error(this.opts.overdue(ms)));
        this.respawn();
      }, ms);
      live.reply = (m) => {
        if (m instanceof Error) {
          window.clearTimeout(timer);
          reject(m);
          return;
        }
        if (m.id !== id) return;
        window.clearTimeout(timer);
        live.reply = null;
        resolve(m);
      };
      live.worker.postMessage({ kind, id, request });
    });
    this.workerCalls = a.calls;
    if (a.memory > (this.opts.memoryBound ?? memoryBound)) {
      this.recycled++;
      this.end(live);
    }
    if (a.answer === undefined) throw new Error(a.error ?? "kessho: the worker answered nothing");
    return a.answer;
  }
}
