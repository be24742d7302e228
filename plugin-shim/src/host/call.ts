// The call loop (docs/HOSTS.md, "A call"), the plugin's one loop: send a
// step to the core, do the I/O it asks, send the results, until it ends.
// The core decides everything (core/hostlogic.Step: the journals rolled
// forward, each round and its need, a search index's batches, the plan's
// check, journal, landing and undoing, the refusal's words); this host
// keeps the vault's I/O, its snapshot (the bulk of each round's request)
// and its search index.

import { words, workWords } from "../i18n";
import { newSnapshot, needOp, putFile, type Snapshot } from "./answer";
import { execute, type OwnOps } from "./apply";
import { journalDir, ownJournals, type RecoverOptions } from "./journal";
import { decodeUTF8, nextTask, randomHex, sha256HexInTasks, type VaultPort } from "./port";
import { requestHead, requestPieces, type RequestRest } from "./request";
import { SearchCarry } from "./search";
import type { IO, IOResult, StepEnd, StepIn, StepOut, StepStart } from "./step";

/** A round's request around the call's time: the request is head, the time as a JSON string, then tail. */
export interface RoundRequest {
  head: string;
  /** The time as given (RFC 3339); the core makes it canonical. */
  now: string;
  tail: string;
  /**
   * The request after tail, when it holds files (requestPieces): their
   * members and the rest, as UTF-8, which a worker is handed (its buffer
   * transferred, not copied) and the engine writes as they are.
   */
  bytes?: Uint8Array<ArrayBuffer>;
  /**
   * Files read as bytes whose members the engine writes (Engine.raw):
   * their hash and text made where the core runs, not on the UI thread,
   * after bytes' members and before close.
   */
  raw?: RawFiles;
  /** What follows the files' members when raw is set: the end of "files", then the request's other members. */
  close?: string;
  /** What follows the request's JSON, if anything: a NUL and the search index (base64, SearchCarry). */
  after?: string;
}

/** RawFiles are files' exact bytes, one after the other in data, each ending at its ends[i]: valid UTF-8 all. */
export interface RawFiles {
  paths: string[];
  ends: number[];
  data: Uint8Array<ArrayBuffer>;
}

/** What one step gives: the StepOut's JSON and, when the step ran a round, the answer to print if the call ends OK and the search index (base64) the round handed back ("" for none). */
export interface Stepped {
  out: string;
  printed?: string;
  /** The index's base64, as text or as its ASCII bytes (the worker's, transferred); "" for none. */
  index?: string | Uint8Array;
}

/**
 * Overdue is what an engine's step throws when the call passed its time
 * limit and the engine stopped the core (RemoteEngine): ms is the limit.
 * call answers it LIMIT_EXCEEDED, as the Go host answers a call past its
 * deadline (host/call, deadline.go).
 */
export class Overdue extends Error {
  constructor(
    message: string,
    readonly ms: number,
  ) {
    super(message);
  }
}

/** Progress is how far a search index's build stored got: the notes the stored index holds up to date, and those still to read. */
export interface Progress {
  indexed: number;
  left: number;
}

/**
 * overdueAnswer is the refusal of a call of tool stopped at its time
 * limit, in the shape the Go host prints ({"ok":false,"error":{"code":
 * "LIMIT_EXCEEDED","message","details":{"tool","timeout_ms"}}}, the
 * details' keys in Go's order), with how far its stored index got when
 * it stored one ("indexed", "left", and a sentence more).
 */
export function overdueAnswer(tool: string, err: Overdue, lang: string, kept: Progress | null): string {
  let message = err.message;
  const details: { [k: string]: number | string } = {};
  if (kept !== null) {
    details.indexed = kept.indexed;
    details.left = kept.left;
    const w = words(lang === "fr" ? "fr" : "en");
    message += " " + w.overdueStored.replace("{n}", String(kept.indexed)).replace("{m}", String(kept.indexed + kept.left));
  }
  details.timeout_ms = err.ms;
  details.tool = tool;
  return JSON.stringify({ ok: false, error: { code: "LIMIT_EXCEEDED", message, details } });
}

/**
 * Cancelled is what a call stops with when its watch was cancelled (the
 * user clicked the status bar's item, src/obsidian/status.ts): at the
 * call's next batch (a round asked, a batch of reads, an index batch
 * stored), never once it wrote anything (a plan is applied whole).
 */
export class Cancelled extends Error {
  constructor() {
    super("kessho: the call was cancelled");
  }
}

/** WorkProgress is how far a call got: the files and heads it read, and a search index's build (indexed, left) once it stored a batch. */
export interface WorkProgress {
  tool: string;
  read: number;
  indexed?: number;
  left?: number;
}

/** Watch follows a call: progress is told how far it got at each batch; cancelled tells whether it is to stop there. */
export interface Watch {
  progress(p: WorkProgress): void;
  cancelled(): boolean;
}

/**
 * cancelledAnswer is the refusal of a call of tool the user cancelled,
 * in the shape of the others ({"ok":false,"error":{"code":"CANCELLED",
 * "message","details"}}): nothing written, and how far it got (the files
 * read; a stored index's notes, which the next call goes on from).
 */
export function cancelledAnswer(tool: string, lang: string, read: number, kept: Progress | null): string {
  const w = workWords(lang === "fr" ? "fr" : "en");
  let message = w.cancelled.replace("{n}", String(read));
  const details: { [k: string]: number | string } = {};
  if (kept !== null) {
    details.indexed = kept.indexed;
    details.left = kept.left;
    message += " " + words(lang === "fr" ? "fr" : "en").overdueStored.replace("{n}", String(kept.indexed)).replace("{m}", String(kept.indexed + kept.left));
  }
  details.read = read;
  details.tool = tool;
  return JSON.stringify({ ok: false, error: { code: "CANCELLED", message, details } });
}

/** An engine runs the core's steps (core/hostlogic.Step, the module's step entry). */
export interface Engine {
  /** step runs one step: input is a StepIn's JSON; round, the round's request sent with it (the last step asked for one). */
  step(input: string, round?: RoundRequest): Promise<Stepped>;
  /**
   * within, when the engine has it, runs f under one deadline for every
   * step f sends (RemoteEngine: the setting's time limit of a call).
   */
  within?<T>(f: () => Promise<T>): Promise<T>;
  /**
   * renew, when the engine has it, restarts the running call's time limit
   * (RemoteEngine): a search index's build stores each batch it made, so
   * the limit bounds a batch, not a first build of a whole vault; and the
   * limit counts from the first round, not from a wait for another host's
   * journal.
   */
  renew?(): void;
  /**
   * raw, when set, says that the engine writes the members of a round's
   * raw files itself (RoundRequest.raw: WasmEngine, and RemoteEngine,
   * whose worker runs one): a need's files then go to it as bytes.
   */
  readonly raw?: boolean;
}

/** CallOptions are a call's inputs besides the tool and its arguments. */
export interface CallOptions extends RecoverOptions {
  /** RFC 3339 time of the call, as given: the core makes it canonical. */
  now: string;
  /** IANA zone of the vault; "" is UTC. */
  tz: string;
  /** "en" or "fr". */
  lang: string;
  /** need/answer rounds before LIMIT_EXCEEDED; default 8 */
  maxRounds?: number;
  /** file text the request may carry, in bytes; default 256 MiB */
  maxBytes?: number;
  /** note text one batch of a search index's build reads, in bytes; default: the core's (4 MiB) */
  indexBatch?: number;
  /** what follows the call's progress and may cancel it (the status bar's item) */
  watch?: Watch;
}

/** Outcome is what a call produced. */
export interface Outcome {
  /** What hosts print: {"ok":true,"result":…} or {"ok":false,"error":…}. */
  answer: string;
  ok: boolean;
}

/**
 * call runs tool with args (JSON text, sent as written; undefined: none).
 * Refusals, the core's or the host's, come back as an Outcome with ok
 * false (a call stopped at its time limit too: LIMIT_EXCEEDED,
 * overdueAnswer); it throws only when the engine itself fails.
 */
export async function call(v: VaultPort, eng: Engine, tool: string, args: string | undefined, opts: CallOptions): Promise<Outcome> {
  const state = new CallState(v, eng, tool, args, opts);
  const run = async (): Promise<Outcome> => {
    const journals = (await v.state.list(journalDir)) ?? [];
    const start: StepStart = { lang: opts.lang, call: { tool, max_rounds: opts.maxRounds ?? 8 }, journals, wait_ms: opts.lockWaitMs ?? 10_000, own: ownJournals() };
    // With no journal to roll forward, the first round goes with the start.
    const first = journals.length === 0 ? await state.request() : undefined;
    const end = await runSteps(v, eng, start, opts, state, first);
    if (end.invalid !== undefined) throw new Error(end.invalid);
    return end.ok === true ? { answer: state.printed, ok: true } : { answer: end.answer ?? "", ok: false };
  };
  try {
    return await (eng.within !== undefined ? eng.within(run) : run());
  } catch (err) {
    if (err instanceof Cancelled) return { answer: cancelledAnswer(tool, opts.lang, state.read, state.kept), ok: false };
    if (!(err instanceof Overdue)) throw err;
    return { answer: overdueAnswer(tool, err, opts.lang, state.kept), ok: false };
  }
}

/**
 * runSteps is the loop: send the step (round, the round's request with
 * it), run the ops it asks through the port in order, stopping at the
 * first whose result differs from the one foreseen (or that failed), or
 * at a round, then send the results; until the end. A call's ops (its
 * rounds, needs and index) are kept's (what the call keeps); without it (an apply or recovery
 * alone) a step asks none.
 */
export async function runSteps(v: VaultPort, eng: Engine, start: StepStart, opts: RecoverOptions, kept?: CallState, round?: RoundRequest): Promise<StepEnd> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => window.setTimeout(r, ms)));
  const send = sender(eng, opts);
  let out = await send({ start }, round, kept);
  for (;;) {
    if (out.end !== undefined) return out.end;
    const results: IOResult[] = [];
    let foreseen = true;
    round = undefined;
    const ios = out.io ?? [];
    for (let i = 0; i < ios.length; i++) {
      const io = ios[i]!;
      kept?.before(io);
      kept?.readAhead(ios, i);
      if (io.op === "round" && kept !== undefined) {
        round = await kept.next();
        foreseen = false;
        break;
      }
      const r = await execute(v, io, sleep, kept);
      results.push(r);
      // A wait for another host's journal is not this call's time.
      if (io.op === "wait") eng.renew?.();
      // An op the core did not foresee (the batch's last ones: looks, reads it asks together), or not as it came.
      if (io.expect === undefined) foreseen = false;
      else if (r.err !== undefined || ((r.v ?? "") !== io.expect && !(io.or ?? []).includes(r.v ?? ""))) {
        foreseen = false;
        break;
      }
      if (r.err !== undefined) break;
    }
    kept?.dropAhead();
    if (foreseen && out.then !== undefined) return out.then;
    out = await send({ state: out.state, results }, round, kept);
  }
}

/** A step sent to the core, the host's clock and randomness added. */
type Send = (s: Omit<StepIn, "now" | "wall" | "random">, round: RoundRequest | undefined, kept: CallState | undefined) => Promise<StepOut>;

/** sender sends steps to eng with the clock of opts; what a round hands back goes to kept. */
function sender(eng: Engine, opts: RecoverOptions): Send {
  const nowMs = opts.nowMs ?? Date.now;
  return async (s, round, kept) => {
    const input: StepIn = { ...s, now: new Date(nowMs()).toISOString(), wall: new Date().toISOString(), random: randomHex(16) };
    const got = await eng.step(JSON.stringify(input), round);
    if (got.printed !== undefined) kept?.handed(got.printed, got.index ?? "");
    return JSON.parse(got.out) as StepOut;
  };
}

/**
 * largeRequest is the size (UTF-16 units) past which a round's request is
 * sent in a task after the one that wrote it: joining a dry run's 3,000
 * files (1.8 MB) and posting them to the worker cost 20–25 and 30–40 ms of
 * the UI thread, together a task over the 50 ms Chromium calls long
 * (tests/browser/worker.test.ts). A small request is sent at once: a warm
 * call's crossings stay as they are.
 */
const largeRequest = 256 * 1024;

/**
 * readAheadFiles is how many of a step's file and head reads are asked of
 * the vault together (Promise.all), ahead of the loop that answers them
 * in order: a first index build asks for every note of its batch, and
 * reading one, then the next, was a round of tasks each on the UI thread.
 */
export const readAheadFiles = 128;

/** A read asked ahead: the file's bytes, or what is there instead. */
type Ahead = Promise<Uint8Array | "folder" | null>;

/** readOne is a file's bytes, or what is at p instead: the port's readFile, or kind then readBytes. */
function readOne(v: VaultPort, p: string): Ahead {
  if (v.readFile !== undefined) return v.readFile(p);
  return v.kind(p).then((k): Ahead | "folder" | null => (k === "file" ? v.readBytes(p) : k));
}

/** The ops that change the vault or Kessho's files: once a call ran one, it is never cancelled. */
const writes = new Set(["modify", "create", "remove", "move", "mkdir", "rmdir", "state_write", "state_append", "state_remove", "state_rename", "own", "disown"]);

const encoder = new TextEncoder();

/**
 * utf8Of is the UTF-8 of pieces, one after the other, encoded straight
 * into one buffer (encodeInto): in room for mostly ASCII text first, again
 * in room for the worst case when that was short.
 */
export function utf8Of(pieces: string[]): Uint8Array<ArrayBuffer> {
  const length = pieces.reduce((n, p) => n + p.length, 0);
  for (const room of [length + (length >> 3) + 16, length * 3]) {
    const buf = new Uint8Array(room);
    let at = 0;
    let whole = true;
    for (const p of pieces) {
      const w = encoder.encodeInto(p, buf.subarray(at));
      at += w.written;
      if (w.read < p.length) {
        whole = false;
        break;
      }
    }
    if (whole) return buf.subarray(0, at);
  }
  throw new Error("kessho: a request's text did not fit three bytes a character");
}

/** rawFiles is held's files in one new buffer (a copy: a worker is handed it, and later rounds carry them again). */
function rawFiles(held: { paths: string[]; data: Uint8Array[] }): RawFiles {
  const ends: number[] = [];
  let n = 0;
  for (const d of held.data) ends.push((n += d.length));
  const data = new Uint8Array(n);
  let at = 0;
  for (const d of held.data) {
    data.set(d, at);
    at += d.length;
  }
  return { paths: [...held.paths], ends, data };
}

/** readsAhead tells whether io reads a file the host can ask ahead: a need's file or head. */
function readsAhead(io: IO): boolean {
  return (io.op === "need_file" || io.op === "need_head") && io.path !== undefined;
}

/** CallState is what a call keeps between its steps: the snapshot its needs read into, its search index, what the last round handed back. */
export class CallState implements OwnOps {
  private snap: Snapshot = newSnapshot();
  private head: string;
  private rest: RequestRest;
  /** The search index, once the first round is written (null: the tool carries none, or the vault lists no notes). */
  private sc: SearchCarry | null | undefined = undefined;
  private started = false;
  /** The answer to print when the call ends OK, and the index to keep, as the step that ran the last round handed them. */
  printed = "";
  private index: string | Uint8Array = "";
  /** How far the index this call stored got (null: it stored none of a build's batches). */
  kept: Progress | null = null;
  /** The files read as bytes, for the engine to write (Engine.raw): every round of the snapshot carries them. */
  private held: { paths: string[]; data: Uint8Array[] } = { paths: [], data: [] };
  /** Files and heads read so far (WorkProgress.read). */
  read = 0;
  /** The call ran an op that writes: from then on it is never cancelled. */
  private wrote = false;
  /** The reads asked ahead (readAhead), by path, until their op runs or the step ends. */
  private ahead = new Map<string, Ahead>();
  /** The vault as the needs read it: the reads asked ahead first, then the vault's own. */
  private reading: VaultPort;

  constructor(
    private v: VaultPort,
    private eng: Engine,
    private tool: string,
    args: string | undefined,
    private opts: CallOptions,
  ) {
    // The request: the arguments as written, the time, then the rest with Go's omitempty.
    this.head = requestHead(tool, args);
    this.rest = { tz: opts.tz || undefined, lang: opts.lang || undefined };
    this.reading = this.readingPort();
  }

  /**
   * readAhead asks the vault, together, for the files and heads of the
   * need ops from ios[i] on (at most readAheadFiles), when ios[i]'s was
   * not asked yet: they are then answered, in order, from what came.
   */
  readAhead(ios: IO[], i: number): void {
    const first = ios[i]!;
    if (!readsAhead(first) || this.ahead.has(first.path!)) return;
    this.tell();
    for (let k = i; k < ios.length && k < i + readAheadFiles && readsAhead(ios[k]!); k++) {
      const p = ios[k]!.path!;
      if (this.ahead.has(p) || p in this.snap.files || this.snap.missing.has(p)) continue;
      const r = readOne(this.v, p);
      r.catch(() => undefined); // its op says the error, reading again
      this.ahead.set(p, r);
    }
  }

  /**
   * before is told of each op before it runs: an op that writes marks the
   * call as past cancelling; a round asked, or an op of the call's own (a
   * need, the next batch's start), is where a cancelled call stops
   * (Cancelled). A batch just built is stored first (index_store).
   */
  before(io: IO): void {
    if (writes.has(io.op)) this.wrote = true;
    else if (!this.wrote && io.op !== "index_store" && (io.op === "round" || this.owns(io)) && this.opts.watch?.cancelled() === true) throw new Cancelled();
  }

  /**
   * readRaw is a need's file read for an engine that writes files itself
   * (Engine.raw): its bytes are held as they are, for the round's request,
   * once they are found to be UTF-8 text within the call's bound (answer.ts
   * readFile's results, in its order); a file that is not text is hashed
   * and put here, as readFile does.
   */
  private async readRaw(p: string): Promise<IOResult> {
    const snap = this.snap;
    if (p in snap.files || snap.missing.has(p)) return { v: "had" };
    const kind = await this.reading.kind(p);
    if (kind === null) snap.missing.add(p);
    if (kind !== "file") return { v: kind ?? "absent" };
    const bytes = await this.reading.readBytes(p);
    if (decodeUTF8(bytes) === null) {
      putFile(snap, p, { sha256: await sha256HexInTasks(bytes), not_utf8: true });
      return { v: "not_utf8" };
    }
    const max = this.opts.maxBytes ?? 256 * 1024 * 1024;
    if (max > 0 && snap.used + bytes.length > max) return { v: "too_much", max };
    snap.used += bytes.length;
    // Held for membership ("had"): its member is the engine's to write.
    snap.files[p] = { sha256: "" };
    this.held.paths.push(p);
    this.held.data.push(bytes);
    return { v: "text" };
  }

  /** tell tells the watch how far the call got. */
  private tell(): void {
    const w = this.opts.watch;
    if (w === undefined) return;
    const p: WorkProgress = { tool: this.tool, read: this.read };
    if (this.kept !== null) Object.assign(p, this.kept);
    w.progress(p);
  }

  /** dropAhead forgets the reads asked ahead that no op used: a later step reads again. */
  dropAhead(): void {
    this.ahead.clear();
  }

  /** readingPort is this.v but for kind and readBytes, which answer from the reads asked ahead when there is one (a failed one asks the vault again). */
  private readingPort(): VaultPort {
    const v = this.v;
    const got = async (p: string) => {
      const r = this.ahead.get(p);
      if (r === undefined) return undefined;
      try {
        return await r;
      } catch {
        this.ahead.delete(p);
        return undefined;
      }
    };
    // Every other member is the vault's own (its prototype).
    return Object.assign(Object.create(v) as VaultPort, {
      kind: async (p: string) => {
        const r = await got(p);
        return r === undefined ? v.kind(p) : r instanceof Uint8Array ? "file" : r;
      },
      readBytes: async (p: string) => {
        const r = await got(p);
        this.ahead.delete(p);
        return r instanceof Uint8Array ? r : v.readBytes(p);
      },
    });
  }

  /** request is the next round's request, the search index started with the first (after the journals' recovery: it lists the notes). */
  async request(): Promise<RoundRequest> {
    this.started = true;
    if (this.sc === undefined) this.sc = await SearchCarry.start(this.v, this.tool, this.opts.indexBatch ?? 0);
    const search = this.sc?.request();
    const held = this.held.paths.length > 0;
    const { tail, more, close } = requestPieces(this.snap, { ...this.rest, search: search?.member }, held);
    const r: RoundRequest = { head: this.head, now: this.opts.now, tail, after: search?.tail };
    if (held) {
      r.raw = rawFiles(this.held);
      r.close = close!;
    }
    if (more === undefined) {
      // Sending a large request (structured clone to the worker) is a task of its own.
      if (tail.length > largeRequest) await nextTask();
      return r;
    }
    // The files' pieces encoded in a task of their own, then sent in the next.
    await nextTask();
    r.bytes = utf8Of(more);
    await nextTask();
    return r;
  }

  /** next is the request of a round the core asked (IORound); the call's time limit counts from the first. */
  next(): Promise<RoundRequest> {
    if (!this.started) this.eng.renew?.();
    return this.request();
  }

  /** handed keeps what the step that ran a round handed back. */
  handed(printed: string, index: string | Uint8Array): void {
    this.printed = printed;
    this.index = index;
  }

  /** owns tells whether io is an op of the call's own (its snapshot, its index) rather than of the vault. */
  owns(io: IO): boolean {
    return io.op.startsWith("need_") || io.op === "index_store" || io.op === "index_read" || io.op === "snapshot_reset";
  }

  /** run runs one of the call's own ops. */
  async run(io: IO): Promise<IOResult> {
    switch (io.op) {
      case "index_store":
        // A batch of the index built, or a success's index: stored (a cache: never a failure).
        if ((await this.sc?.store(this.index, io.to ?? "")) === true && io.left !== undefined) this.kept = { indexed: io.indexed ?? 0, left: io.left };
        this.eng.renew?.();
        this.tell();
        return {};
      case "index_read":
        await this.sc?.answer(io.what);
        return {};
      case "snapshot_reset":
        this.snap = newSnapshot();
        this.held = { paths: [], data: [] };
        this.ahead.clear();
        return {};
    }
    if (io.op === "need_file" || io.op === "need_head") this.read++;
    if (io.op === "need_file" && this.eng.raw === true) return this.readRaw(io.path!);
    return needOp(this.reading, this.snap, this.opts.maxBytes ?? 256 * 1024 * 1024, io);
  }
}
