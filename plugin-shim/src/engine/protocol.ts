// The messages between the UI thread (src/engine/remote.ts) and the worker
// that runs the core (src/engine/serve.ts). Requests and answers are JSON
// text, as the core reads and writes them.

import type { RoundRequest } from "../host/call";

/** The first message a worker gets: the module as main.js carries it (packed zstd, see unpack.ts). */
export interface LoadMessage {
  kind: "load";
  packed: string;
  /** How many zstd bytes packed holds. */
  length: number;
}

/**
 * A piece of the packed module sent ahead of its LoadMessage, which holds
 * the last piece: the worker joins them (RemoteEngine posts a 2 MB module
 * a piece a task, see postLoad).
 */
export interface LoadPartMessage {
  kind: "load-part";
  packed: string;
}

/** One step for the core's step entry (core/hostlogic.Step): its StepIn's JSON, and the round's request sent with it. */
export interface StepMessage {
  kind: "step";
  id: number;
  request: string;
  round?: RoundRequest;
}

export type ToWorker = LoadMessage | LoadPartMessage | StepMessage;

/** What a worker says: ready (compiled, an instance started), failed to load, or answered one request. */
export type FromWorker =
  | { kind: "ready" }
  | { kind: "failed"; error: string }
  | {
      kind: "answer";
      id: number;
      /** The step's StepOut (JSON), or the error that stopped it. */
      answer?: string;
      /** What a step that ran a round handed back (call.ts's Stepped): the answer to print, the search index (base64). */
      printed?: string;
      index?: string | Uint8Array;
      error?: string;
      /** Requests this worker answered so far (the Done-when test checks that calls run here). */
      calls: number;
      /** The instance's linear memory after the request, in bytes (0: none running). */
      memory: number;
    };

/** CoreWorker is what a Web Worker and the in-thread fallback (InThread) both offer. */
export interface CoreWorker {
  /** transfer: the buffers handed over with msg (a round's bytes), no longer the sender's. */
  postMessage(msg: ToWorker, transfer?: Transferable[]): void;
  onmessage: ((ev: { data: FromWorker }) => void) | null;
  /** A Worker's error event: its script failed, or it crashed. */
  onerror?: ((ev: { message?: string; preventDefault?: () => void }) => void) | null;
  terminate(): void;
}
