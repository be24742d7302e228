// The wasm core run in the page: a WASI reactor on @bjorn3/browser_wasi_shim.
//
// The module is compiled once, asynchronously (Chromium refuses synchronous
// compiles of large modules on the main thread). An instance is started
// with _initialize and serves calls one at a time; any failure (a trap, an
// exit, an answer that breaks the protocol) discards it, and the next call
// starts a fresh one: a Go instance that failed once is never reused.

import { ConsoleStdout, File, OpenFile, WASI, WASIProcExit } from "@bjorn3/browser_wasi_shim";
import { decompress as unzstd } from "fzstd";
import { type Engine, type Round, type RoundRequest } from "../host/call";
import type { HostCore } from "../host/core";
import { fromBase64, toBase64 } from "../host/port";
import type { Warmup } from "./warmup";

/**
 * The module's exports (see wasm/main.go): alloc gives the buffer the next
 * call reads; call runs it by its first byte's entry and answers ptr<<32 |
 * len. The module frees both buffers itself: an answer stays until the
 * next alloc or call.
 */
interface Exports {
  memory: WebAssembly.Memory;
  _initialize: () => void;
  alloc: (n: number) => number;
  call: (ptr: number, n: number) => bigint;
}

/** An entry of the module's call, named by the input's first byte (core/wire's Entry): core.Core.Handle, hostlogic.Handle, hostlogic.Round. */
type Entry = Warmup["entry"];

/** Each entry's tag. */
const tags: { [e in Entry]: number } = { handle: 0x63, handle_host: 0x68, round: 0x72, step: 0x73 }; // 'c', 'h', 'r', 's'

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** How many lines of the module's standard error a failure quotes. */
const keepLines = 20;

/**
 * WasmEngine runs core.Core.Handle in the wasm module.
 *
 *	const eng = new WasmEngine(() => WebAssembly.compile(bytes));
 *	const answer = await eng.call('{"tool":…}');
 */
export class WasmEngine implements Engine, HostCore {
  private module: Promise<WebAssembly.Module> | null = null;
  private instance: Exports | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private stderr: string[] = [];
  /** How many instances were started (tests check that a failure makes a new one). */
  started = 0;

  /**
   * compile returns the compiled module; it is called once, on the first
   * call. warmups, when given, are requests each new instance runs once
   * (their answers dropped), so that the functions a call needs are
   * compiled before the user's first call rather than during it.
   */
  constructor(
    private compile: () => Promise<WebAssembly.Module>,
    private warmups: Warmup[] = [],
  ) {}

  /** call runs one request; calls are queued and run one at a time. */
  call(request: string): Promise<string> {
    return this.enqueue(() => this.callNow(request, "handle"));
  }

  /** host runs one request of the host's decisions (core/hostlogic.Handle), queued like call. */
  host(request: string): Promise<string> {
    return this.enqueue(() => this.callNow(request, "handle_host"));
  }

  /** step runs one step of an apply or a recovery (core/hostlogic.Step), queued like call. */
  step(input: string): Promise<string> {
    return this.enqueue(() => this.callNow(input, "step"));
  }

  /**
   * round runs one round of a call: what runRound asks in four requests
   * (now, handle, read_answer, the need's first step), in one call into the module
   * (its round entry, hostlogic.Round).
   */
  round(r: RoundRequest): Promise<Round> {
    return this.enqueue(() => this.run((inst) => roundIn(inst, r)));
  }

  /** memoryBytes is the running instance's linear memory, in bytes (0: none). */
  memoryBytes(): number {
    return this.instance?.memory.buffer.byteLength ?? 0;
  }

  /** warm compiles the module and starts an instance ahead of the first call. */
  warm(): Promise<void> {
    return this.enqueue(async () => {
      this.instance ??= await this.start();
    });
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private callNow(request: string, entry: Exclude<Entry, "round">): Promise<string> {
    return this.run((inst) => handle(inst, request, entry));
  }

  /** run runs f on the instance (started first when there is none); a failure discards the instance. */
  private async run<T>(f: (inst: Exports) => T): Promise<T> {
    const inst = this.instance ?? (await this.start());
    try {
      return f(inst);
    } catch (err) {
      this.instance = null;
      throw this.failure(err);
    }
  }

  private async start(): Promise<Exports> {
    this.module ??= this.compile();
    let module: WebAssembly.Module;
    try {
      module = await this.module;
    } catch (err) {
      this.module = null;
      throw new Error(`kessho: compiling the wasm core: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.stderr = [];
    const line = (l: string) => {
      this.stderr.push(l);
      if (this.stderr.length > keepLines) this.stderr.shift();
    };
    const wasi = new WASI([], [], [new OpenFile(new File([])), ConsoleStdout.lineBuffered(line), ConsoleStdout.lineBuffered(line)], {
      debug: false,
    });
    try {
      const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi.wasiImport });
      const exports = instance.exports as unknown as Exports;
      wasi.initialize(instance as unknown as { exports: Exports });
      for (const w of this.warmups) {
        if (w.entry === "round") exchange(exports, w.request, null, "round");
        else handle(exports, w.request, w.entry);
      }
      this.started++;
      this.instance = exports;
      return exports;
    } catch (err) {
      throw this.failure(err);
    }
  }

  private failure(err: unknown): Error {
    let msg = err instanceof WASIProcExit ? `the module exited with code ${err.code}` : err instanceof Error ? err.message : String(err);
    if (this.stderr.length > 0) msg += "\n" + this.stderr.join("\n");
    return new Error(`kessho: the wasm core failed: ${msg}`);
  }
}

/**
 * handle runs one request through the module's handle or handle_host
 * entry (wasm/main.go). A request or an answer may carry a search index
 * after its JSON, past a NUL (docs/HOSTS.md, section 6): raw bytes for the
 * module, base64 in the strings this engine takes and gives (NUL then
 * base64), since they go through a worker's messages as text.
 */
function handle(inst: Exports, request: string, entry: Exclude<Entry, "round">): string {
  const nul = request.indexOf("\u0000");
  const out = exchange(inst, nul < 0 ? request : request.slice(0, nul), nul < 0 ? null : request.slice(nul + 1), entry);
  const end = out.indexOf(0);
  return end < 0 ? decoder.decode(out) : decoder.decode(out.subarray(0, end)) + "\u0000" + toBase64(out.subarray(end + 1));
}

/**
 * roundIn runs r through the module's round entry (hostlogic.Round): its
 * input is the time, NUL, the request's head, NUL, the rest (and the
 * search index after a NUL); its output the read, NUL, the need's first step, NUL,
 * then core.Core.Handle's answer (and the index it hands back, after a NUL).
 */
function roundIn(inst: Exports, r: RoundRequest): Round {
  const after = r.after ?? "";
  const out = exchange(inst, r.now + "\u0000" + r.head + "\u0000" + r.tail, after === "" ? null : after.slice(1), "round");
  const a = out.indexOf(0);
  const b = a < 0 ? -1 : out.indexOf(0, a + 1);
  if (b < 0) throw new Error("the module broke the call protocol (a round's answer has no read and step)");
  const c = out.indexOf(0, b + 1);
  const round: Round = {
    read: decoder.decode(out.subarray(0, a)),
    raw: decoder.decode(out.subarray(b + 1, c < 0 ? out.length : c)),
    index: c < 0 ? "" : toBase64(out.subarray(c + 1)),
  };
  if (b > a + 1) round.step = decoder.decode(out.subarray(a + 1, b));
  return round;
}

/**
 * exchange writes a request into the module's memory (entry's tag, the
 * text as UTF-8, then, when there is an index, a NUL and the index's
 * bytes from its base64), calls the module on it and returns the answer's
 * bytes: a view of the module's memory, to read before the next call into
 * the module (which drops the answer).
 */
function exchange(inst: Exports, text: string, index: string | null, entry: Entry): Uint8Array {
  const tail = index === null ? null : storedIndex(index);
  const extra = tail === null ? 0 : 1 + tail.length;
  // Written straight into the module's memory (encodeInto: several times
  // faster than encode in Chromium): first in room for mostly ASCII text,
  // again in room for the worst case when that was short (the next alloc
  // drops the first buffer).
  let room = text.length + (text.length >> 3) + 16;
  let ptr = inst.alloc(1 + room + extra) >>> 0;
  let w = encoder.encodeInto(text, new Uint8Array(inst.memory.buffer, ptr + 1, room));
  if (w.read < text.length) {
    room = text.length * 3;
    ptr = inst.alloc(1 + room + extra) >>> 0;
    w = encoder.encodeInto(text, new Uint8Array(inst.memory.buffer, ptr + 1, room));
  }
  const n = 1 + w.written + extra;
  new Uint8Array(inst.memory.buffer, ptr, 1)[0] = tags[entry];
  if (tail !== null) {
    const into = new Uint8Array(inst.memory.buffer, ptr + 1 + w.written, extra);
    into[0] = 0;
    into.set(tail, 1);
  }
  const res = inst.call(ptr, n);
  if (res === 0n) throw new Error("the module broke the call protocol (call returned 0)");
  const outPtr = Number(res >> 32n);
  const outLen = Number(res & 0xffffffffn);
  // A fresh view: the memory may have grown (and the old buffer detached).
  return new Uint8Array(inst.memory.buffer, outPtr, outLen);
}

/**
 * storedIndex is the bytes of a search index the host sends (base64), or
 * null when it is no base64: a stored index damaged by one character
 * failed the whole call in atob. Without the bytes the core asks for the
 * index, then builds it from the notes (docs/HOSTS.md, section 6). Told
 * here, in the worker: testing 7 MB of text on the UI thread first took
 * 35-60 ms.
 */
function storedIndex(text: string): Uint8Array | null {
  try {
    return fromBase64(text);
  } catch {
    return null;
  }
}

/**
 * decompress returns the module from its zstd frame (scripts/compress.mjs),
 * with fzstd: plain JavaScript, the same on desktop and mobile, where no
 * web view's DecompressionStream reads zstd. A truncated or damaged frame
 * throws.
 */
export function decompress(zst: Uint8Array): Uint8Array<ArrayBuffer> {
  return unzstd(zst) as Uint8Array<ArrayBuffer>;
}
