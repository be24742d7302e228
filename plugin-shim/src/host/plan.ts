// Plans as the core returns them (core/plan): an ordered list of ops, each
// with the precondition the core relied on. The core validates them
// (the apply's first step); the host only reads their fields, as
// wire.gen.ts has them.

import type { Op as WireOp } from "../wire.gen";

/** One operation of a plan (core/plan.Op): its expect is "sha256:<hex>" or "absent". */
export interface Op extends WireOp {
  op: "write" | "delete" | "move" | "check";
}

export type Plan = Op[];

export const ABSENT = "absent";

/** parent returns p's folder, "." for a top-level name (Go's path.Dir). */
export function parent(p: string): string {
  const i = p.lastIndexOf("/");
  return i < 0 ? "." : p.slice(0, i);
}

/** join is path.Join for vault paths where dir may be ".". */
export function join(dir: string, name: string): string {
  return dir === "." ? name : dir + "/" + name;
}
