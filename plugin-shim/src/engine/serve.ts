// The worker's side of the protocol (protocol.ts): it unpacks, decompresses
// and compiles the module it is handed, then answers requests one at a
// time with a WasmEngine. The same code runs in a Web Worker
// (worker-main.ts) and, where there is none, on the UI thread (InThread).

import type { FromWorker, ToWorker } from "./protocol";
import { unpack } from "./unpack";
import { warmups } from "./warmup";
import { decompress, WasmEngine } from "./wasm";
import { messageOf } from "../host/port";

/** serve returns the handler of the messages a worker gets; post sends its replies. */
export function serve(post: (msg: FromWorker, transfer?: Transferable[]) => void): (msg: ToWorker) => void {
  let engine: WasmEngine | null = null;
  let calls = 0;
  /** The module's pieces sent ahead of its load message. */
  let parts: string[] = [];
  return (msg) => {
    if (msg.kind === "load-part") {
      parts.push(msg.packed);
      return;
    }
    if (msg.kind === "load") {
      const packed = parts.join("") + msg.packed;
      const length = msg.length;
      parts = [];
      // async: a damaged module (unpack, decompress) is a failed compile, reported as such.
      const eng = new WasmEngine(async () => WebAssembly.compile(decompress(unpack(packed, length))), warmups);
      engine = eng;
      eng.warm().then(
        () => post({ kind: "ready" }),
        (err: unknown) => post({ kind: "failed", error: messageOf(err) }),
      );
      return;
    }
    const id = msg.id;
    const eng = engine;
    if (eng === null) {
      post({ kind: "answer", id, error: "kessho: the worker got a request before its module", calls, memory: 0 });
      return;
    }
    eng.step(msg.request, msg.round).then(
      // The index's bytes are handed over, not copied: its buffer is the worker's no more.
      ({ out, printed, index }) => post({ kind: "answer", id, answer: out, printed, index, calls: ++calls, memory: eng.memoryBytes() }, index instanceof Uint8Array ? [index.buffer] : []),
      (err: unknown) => post({ kind: "answer", id, error: messageOf(err), calls: ++calls, memory: eng.memoryBytes() }),
    );
  };
}

/**
 * InThread is the fallback where there is no Worker (Node, which runs the
 * tests, or a platform without one): the same handler, on this thread.
 * Nothing can interrupt it, so a step's deadline cannot stop it: it runs
 * as the plugin did before the worker.
 */
export class InThread {
  onmessage: ((ev: { data: FromWorker }) => void) | null = null;
  private stopped = false;
  private handler = serve((data) => {
    if (!this.stopped) this.onmessage?.({ data });
  });

  postMessage(msg: ToWorker): void {
    // Asynchronous like a worker's: the reply never comes before postMessage returns.
    void Promise.resolve().then(() => {
      if (!this.stopped) this.handler(msg);
    });
  }

  terminate(): void {
    this.stopped = true;
  }
}
