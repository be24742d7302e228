// A round's request (core/wire.Request) as the plugin writes it: in
// pieces, so that the time can be put in where the round runs and the
// files' members are written as each is read (answer.ts, snapshotJSON).
// Each member's name comes from member, typed by wire.gen.ts: tsc fails
// when it is no longer a field of the Go type.

import { snapshotJSON, type Snapshot } from "./answer";
import type { Request } from "../wire.gen";

/** member is a request member's name as JSON, and its colon. */
export function member(name: keyof Request): string {
  return JSON.stringify(name) + ":";
}

/** The members of a request besides its tool, arguments, time and snapshot (Go's omitempty: undefined is left out). */
export type RequestRest = Pick<Request, "tz" | "lang" | "search">;

/** requestHead is a request up to its time: the tool, then the arguments as written (undefined: none). */
export function requestHead(tool: string, args: string | undefined): string {
  return "{" + member("tool") + JSON.stringify(tool) + (args === undefined ? "" : "," + member("args") + args) + "," + member("now");
}

/** requestTail is a request after its time: rest's members and the snapshot's, then the end of the object. */
export function requestTail(snap: Snapshot, rest: RequestRest): string {
  const tail = snapshotJSON(snap, rest);
  return tail === "{}" ? "}" : "," + tail.slice(1);
}
