// The wasm core run in the page: a WASI reactor on @bjorn3/browser_wasi_shim.
//
// The module is compiled once, asynchronously (Chromium refuses synchronous
// compiles of large modules on the main thread). An instance is started
// with _initialize and serves calls one at a time; any failure (a trap, an
// exit, an answer that breaks the protocol) discards it, and the next call
// starts a fresh one: a Go instance that failed once is never reused.

import { ConsoleStdout, File, OpenFile, WASI, WASIProcExit } from "@bjorn3/browser_wasi_shim";
import { decompress as unzstd } from "fzstd";
import type { Engine, RawFiles, RoundRequest, Stepped } from "../host/call";
import { fromBase64, messageOf, sha256Hex, toBase64Bytes } from "../host/port";
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

/** The tag of the module's step entry (core/wire's EntryStep, 's'): the input's first byte. */
const stepTag = 0x73;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** How many lines of the module's standard error a failure quotes. */
const keepLines = 20;

/**
 * WasmEngine runs the core's steps (core/hostlogic.Step) in the wasm module.
 *
 *	const eng = new WasmEngine(() => WebAssembly.compile(bytes));
 *	const { out, printed } = await eng.step(input, round);
 */
export class WasmEngine implements Engine {
  /** It writes a round's raw files' members itself (Engine.raw). */
  readonly raw = true;
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

  /** step runs one step of a call, an apply or a recovery, with its round's request when it has one; steps are queued and run one at a time. */
  step(input: string, round?: RoundRequest): Promise<Stepped> {
    return this.enqueue(() => this.run((inst) => stepIn(inst, input, round)));
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
      throw new Error(`kessho: compiling the wasm core: ${messageOf(err)}`);
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
      for (const w of this.warmups) stepIn(exports, w.request, w.round);
      this.started++;
      this.instance = exports;
      return exports;
    } catch (err) {
      throw this.failure(err);
    }
  }

  private failure(err: unknown): Error {
    let msg = err instanceof WASIProcExit ? `the module exited with code ${err.code}` : messageOf(err);
    if (this.stderr.length > 0) msg += "\n" + this.stderr.join("\n");
    return new Error(`kessho: the wasm core failed: ${msg}`);
  }
}

/**
 * stepIn runs one step through the module's step entry (wasm/main.go): its
 * input is the StepIn's JSON, and, with a round, a NUL, the time, NUL, the
 * request's head, NUL, the rest, then the search index's bytes after a NUL
 * (docs/HOSTS.md, section 6: raw bytes for the module, base64 in the
 * strings this engine takes and gives, since they go through a worker's
 * messages as text). Its output is the StepOut's JSON and, when the step
 * ran a round, a NUL, the answer to print, a NUL and the index it handed
 * back.
 */
function stepIn(inst: Exports, input: string, round?: RoundRequest): Stepped {
  const text = round === undefined ? input : input + "\u0000" + round.now + "\u0000" + round.head + "\u0000" + round.tail;
  const after = round?.after ?? "";
  const parts: (string | Uint8Array)[] = [text];
  if (round?.bytes !== undefined) parts.push(round.bytes);
  if (round?.raw !== undefined) {
    if (round.bytes !== undefined && round.bytes.length > 0) parts.push(",");
    parts.push(rawMembers(round.raw), round.close ?? "");
  }
  const out = exchange(inst, parts, after === "" ? null : after.slice(1));
  const a = out.indexOf(0);
  if (a < 0) return { out: decoder.decode(out) };
  const b = out.indexOf(0, a + 1);
  if (b < 0) throw new Error("the module broke the call protocol (a round's step hands back no index)");
  return { out: decoder.decode(out.subarray(0, a)), printed: decoder.decode(out.subarray(a + 1, b)), index: b + 1 === out.length ? "" : toBase64Bytes(out.subarray(b + 1)) };
}

/**
 * exchange writes a step into the module's memory (the step entry's tag, the
 * text as UTF-8, then, when there is an index, a NUL and the index's
 * bytes from its base64), calls the module on it and returns the answer's
 * bytes: a view of the module's memory, to read before the next call into
 * the module (which drops the answer).
 */
function exchange(inst: Exports, parts: (string | Uint8Array)[], index: string | null): Uint8Array {
  const tail = index === null ? null : storedIndex(index);
  const extra = tail === null ? 0 : 1 + tail.length;
  // Written straight into the module's memory (encodeInto: several times
  // faster than encode in Chromium): first in room for mostly ASCII text,
  // again in room for the worst case when that was short (the next alloc
  // drops the first buffer). Bytes (a round's, RoundRequest.bytes) are copied as they are.
  let written = -1;
  let ptr = 0;
  for (const wide of [false, true]) {
    const room = parts.reduce((n, p) => n + (typeof p !== "string" ? p.length : wide ? p.length * 3 : p.length + (p.length >> 3) + 16), 0);
    ptr = inst.alloc(1 + room + extra) >>> 0;
    written = writeParts(new Uint8Array(inst.memory.buffer, ptr + 1, room), parts);
    if (written >= 0) break;
  }
  const n = 1 + written + extra;
  new Uint8Array(inst.memory.buffer, ptr, 1)[0] = stepTag;
  if (tail !== null) {
    const into = new Uint8Array(inst.memory.buffer, ptr + 1 + written, extra);
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

/** writeParts writes parts one after the other into buf and returns how many bytes they took, or -1 when buf was too short. */
function writeParts(buf: Uint8Array, parts: (string | Uint8Array)[]): number {
  let at = 0;
  for (const p of parts) {
    if (typeof p !== "string") {
      if (at + p.length > buf.length) return -1;
      buf.set(p, at);
      at += p.length;
      continue;
    }
    const w = encoder.encodeInto(p, buf.subarray(at));
    if (w.read < p.length) return -1;
    at += w.written;
  }
  return at;
}

/**
 * rawMembers is the "files" members of raw (core/vault.File: the hash of
 * each file's bytes, and its text), as the host writes them for files it
 * read itself (answer.ts, putFile): made here, where the core runs, so
 * that a first index build's hashing and JSON stay off the UI thread.
 */
function rawMembers(raw: RawFiles): string {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < raw.paths.length; i++) {
    const b = raw.data.subarray(start, raw.ends[i]);
    start = raw.ends[i]!;
    out.push(JSON.stringify(raw.paths[i]) + ":" + JSON.stringify({ sha256: sha256Hex(b), text: decoder.decode(b) }));
  }
  return out.join(",");
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
