// The messages of a step (core/wire's StepIn, StepOut, IO, IOResult),
// written by hand until they are generated from the Go types.

import type { Plan } from "./plan";
import type { WireError } from "./core";

/** What a host asks the steps to do (wire.StepStart). */
export interface StepStart {
  plan?: Plan;
  journals: string[];
  wait_ms: number;
  own: string[];
}

/** One crossing of an apply (wire.StepIn). */
export interface StepIn {
  start?: StepStart;
  state?: string;
  results?: IOResult[];
  now: string;
  wall: string;
  random: string;
}

/** How an apply ended (wire.StepEnd): ok, or a refusal (error), or an error's text (internal). */
export interface StepEnd {
  ok?: boolean;
  error?: WireError;
  internal?: string;
}

/** A step's answer (wire.StepOut). */
export interface StepOut {
  io?: IO[];
  state?: string;
  end?: StepEnd;
  then?: StepEnd;
}

/** One op of a step's I/O (wire.IO). */
export interface IO {
  op:
    | "look"
    | "kind"
    | "read"
    | "modify"
    | "create"
    | "remove"
    | "move"
    | "mkdir"
    | "rmdir"
    | "list"
    | "undo_way"
    | "state_list"
    | "state_read"
    | "state_write"
    | "state_append"
    | "state_remove"
    | "state_rename"
    | "wait"
    | "own"
    | "disown";
  path?: string;
  to?: string;
  hash?: string;
  text?: string;
  /** base64 */
  data?: string;
  dir?: boolean;
  ms?: number;
  /** the result the core foresaw; or: the others it allows as well */
  expect?: string;
  or?: string[];
}

/** What one op gave (wire.IOResult). */
export interface IOResult {
  v?: string;
  text?: string;
  /** base64 */
  data?: string;
  list?: string[];
  err?: IOError;
}

/** An op's failure (wire.IOError). */
export interface IOError {
  stale?: string;
  path?: string;
  disk_full?: boolean;
  message: string;
}
