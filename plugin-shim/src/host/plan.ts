// Plans as the core returns them (core/plan): an ordered list of ops, each
// with the precondition the core relied on. Validation mirrors the Go
// package word for word, so that a bad plan is refused the same way.

import { goQuote } from "./gojson";

/** One operation of a plan. */
export interface Op {
  op: "write" | "delete" | "move" | "mkdir" | "check";
  path?: string;
  from?: string;
  to?: string;
  /** "sha256:<hex>" or "absent". */
  expect?: string;
  text?: string;
}

export type Plan = Op[];

export const ABSENT = "absent";

/** validatePlan returns why p is malformed, or null. */
export function validatePlan(p: unknown): string | null {
  if (!Array.isArray(p)) return "the plan is not a list";
  for (let i = 0; i < p.length; i++) {
    const op = p[i] as Op;
    const err = validateOp(op);
    if (err !== null) return `plan op ${i} (${String(op?.op ?? "")}): ${err}`;
  }
  return null;
}

function validateOp(op: Op): string | null {
  if (op === null || typeof op !== "object") return "not an object";
  for (const k of ["path", "from", "to", "expect", "text"] as const) {
    if (op[k] !== undefined && typeof op[k] !== "string") return `${k} is not a string`;
  }
  const expect = op.expect ?? "";
  switch (op.op) {
    case "write":
      if (op.text === undefined) return "write without text";
      if (expect !== ABSENT && !validHash(expect)) {
        return `expect ${goQuote(expect)} is neither "absent" nor sha256:<hex>`;
      }
      return checkPath(op.path ?? "");
    case "delete":
      if (!validHash(expect)) return `delete must expect sha256:<hex>, not ${goQuote(expect)}`;
      return checkPath(op.path ?? "");
    case "move": {
      if (expect !== ABSENT) return `move must expect "absent" at its target`;
      const from = op.from ?? "";
      const to = op.to ?? "";
      const e = checkPath(from) ?? checkPath(to);
      if (e !== null) return e;
      if (from === to || (to + "/").startsWith(from + "/")) return `move ${goQuote(from)} into itself`;
      return null;
    }
    case "mkdir":
      return checkPath(op.path ?? "");
    case "check":
      if (expect !== ABSENT && !validHash(expect)) {
        return `expect ${goQuote(expect)} is neither "absent" nor sha256:<hex>`;
      }
      return checkPath(op.path ?? "");
  }
  return `unknown op ${goQuote(String(op.op))}`;
}

function validHash(s: string): boolean {
  return /^sha256:[0-9a-f]{64}$/.test(s);
}

/**
 * checkPath returns why p is not a vault-relative path Kessho may touch, or
 * null: "/"-separated, clean, relative, no empty, "." or ".." segment, no
 * segment starting with ".", no backslash, colon or NUL.
 */
export function checkPath(p: string): string | null {
  if (p === "") return "empty path";
  if (/\p{Surrogate}/u.test(p)) return `path ${goQuote(p)} is not valid UTF-8`;
  if (/[\\\0:]/.test(p)) return `path ${goQuote(p)} holds a backslash, colon or NUL`;
  if (p.startsWith("/")) return `path ${goQuote(p)} is absolute`;
  for (const seg of p.split("/")) {
    if (seg === "" || seg === "." || seg === "..") return `path ${goQuote(p)} is not clean`;
    if (seg.startsWith(".")) return `path ${goQuote(p)} enters a dot-folder`;
  }
  return null;
}

/** parent returns p's folder, "." for a top-level name (Go's path.Dir). */
export function parent(p: string): string {
  const i = p.lastIndexOf("/");
  return i < 0 ? "." : p.slice(0, i);
}

/** join is path.Join for vault paths where dir may be ".". */
export function join(dir: string, name: string): string {
  return dir === "." ? name : dir + "/" + name;
}

/** under reports whether p lies strictly inside folder dir. */
export function under(p: string, dir: string): boolean {
  return p.startsWith(dir + "/");
}

/** opJSON encodes an op with the Go field order (op, path, from, to, expect, text), empty fields left out. */
export function opJSON(op: Op): string {
  const parts = ['"op":' + JSON.stringify(op.op)];
  for (const k of ["path", "from", "to", "expect", "text"] as const) {
    const v = op[k];
    if (v !== undefined && (v !== "" || k === "text")) parts.push(JSON.stringify(k) + ":" + JSON.stringify(v));
  }
  return "{" + parts.join(",") + "}";
}
