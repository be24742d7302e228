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

/**
 * requestPieces is requestTail in pieces, never joined on this thread:
 * tail, then more (the files' members, as written when each was read,
 * then the rest), which the engine joins where it runs (the worker). A
 * first index build's batch is 4 MB of files: joining it and cutting the
 * join's first character copied it twice in one task of the UI thread,
 * 60-80 ms of CPU in Chromium (tests/browser/index.test.ts). The text is
 * requestTail's, byte for byte.
 */
export function requestPieces(snap: Snapshot, rest: RequestRest, held = false): { tail: string; more?: string[]; close?: string } {
  const files = snap.pending.length > 0 ? [...snap.filesJSON, snap.pending.join(",")] : snap.filesJSON;
  if (files.length === 0 && !held) return { tail: requestTail(snap, rest) };
  const others = snapshotJSON({ ...snap, filesJSON: [], pending: [] }, rest);
  const more: string[] = [];
  for (const f of files) {
    if (more.length > 0) more.push(",");
    more.push(f);
  }
  // held: the engine writes more files' members before close.
  const close = others === "{}" ? "}}" : "}," + others.slice(1);
  if (!held) more.push(close);
  return { tail: "," + member("files" satisfies keyof Request) + "{", more, ...(held ? { close } : {}) };
}
