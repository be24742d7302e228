// The Web Worker's entry: built by scripts/build.mjs into a classic script
// that main.js carries as text and starts from a Blob URL (remote.ts).

import type { FromWorker, ToWorker } from "./protocol";
import { serve } from "./serve";

/** The worker's global scope, as far as it is used here. */
interface Scope {
  postMessage(msg: FromWorker, transfer?: Transferable[]): void;
  onmessage: ((ev: { data: ToWorker }) => void) | null;
}

const scope = self as unknown as Scope;
const handle = serve((msg, transfer) => scope.postMessage(msg, transfer ?? []));
scope.onmessage = (ev) => handle(ev.data);
