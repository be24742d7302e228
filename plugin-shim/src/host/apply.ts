// Applying plans: the TypeScript twin of host/vaultfs/apply.go. Every
// precondition is checked against the state the ops before it leave, before
// any op runs; then the plan goes to the journal (see journal.ts) and its
// ops are applied in order, each one's target re-checked right before it
// lands (a write's inside vault.process), and the plan undone when another
// program changed one meanwhile. The rules are journal-v2's, shared with
// the Go host.

import { ask, fromWire, type HostCore, type Look, type WireError } from "./core";
import { changed, exists, fileInTheWay, HostError, internal } from "./fault";
import { ABSENT, parent, under, type Op, type Plan } from "./plan";
import { sha256Hex, textHash, type VaultPort } from "./port";
import {
  forgetProgress,
  journalExists,
  markDone,
  recoverJournals,
  removeJournal,
  removeMarker,
  writeJournal,
  writeMarker,
  type Journal,
  type Marker,
  type OpState,
  type RecoverOptions,
} from "./journal";

/** stateOf returns what is at l.path as the core reads it: "absent", "folder", "file", or a file's "sha256:<hex>" when l.hash. */
async function stateOf(v: VaultPort, l: Look): Promise<string> {
  const kind = await v.kind(l.path);
  if (kind === null) return ABSENT;
  if (kind === "folder") return "folder";
  return l.hash === true ? "sha256:" + sha256Hex(await v.readBytes(l.path)) : "file";
}

/**
 * decide asks the core a question about the vault (check_plan, where),
 * answering the paths it asks to look at until it answers; an error it
 * answers is thrown.
 */
async function decide<T>(core: HostCore, v: VaultPort, kind: string, req: object): Promise<T> {
  let nodes: { [path: string]: string } | undefined;
  for (;;) {
    const a = await ask<T & { need?: Look[]; error?: WireError }>(core, kind, nodes === undefined ? req : { ...req, nodes });
    if (a.error !== undefined) throw fromWire(a.error);
    if (a.need === undefined) return a;
    nodes ??= {};
    for (const l of a.need) nodes[l.path] = await stateOf(v, l);
  }
}

/**
 * check validates p and evaluates every op's precondition, in order,
 * against the state the ops before it leave (hostlogic.Check, in the
 * core). The first failure throws CONFLICT naming the path.
 */
export async function check(core: HostCore, v: VaultPort, p: Plan): Promise<void> {
  await decide(core, v, "check_plan", { plan: p });
}

/** ApplyOptions tune apply; the zero value is the Go host's behaviour. */
export type ApplyOptions = RecoverOptions;

/**
 * apply applies p to the vault, all of it or none of it: it finishes any
 * plan a crash left behind, validates p, checks every precondition, writes
 * the journal, then lands the ops in order, each one right after its
 * target is found again in the state the plan expects (see land).
 *
 * When a target no longer holds that state (another program wrote it in
 * the meantime), the ops already landed are undone, newest first, each
 * only while its target still holds what the op left; the journal goes,
 * and apply throws CONFLICT naming the target: the other program's edit
 * survives and the vault is as before the call.
 *
 * An error while landing an op (a failing disk) leaves the journal: the
 * next call finishes the plan at once. Either way, when another host has
 * meanwhile finished the plan (its journal is gone and every target holds
 * the plan's final state), apply returns normally: the change is made.
 */
export async function apply(core: HostCore, v: VaultPort, p: Plan, opts: ApplyOptions = {}): Promise<void> {
  await recoverJournals(core, v, opts);
  await check(core, v, p);
  if (p.length === 0) return;
  const j = await writeJournal(core, v, p);
  await applyLive(v, j);
}

/**
 * Stale is thrown when an op's target does not hold the op's
 * before-state; err is the CONFLICT a live call answers (the Go host's
 * words: changed, exists or fileInTheWay).
 */
class Stale extends Error {
  constructor(readonly err: HostError) {
    super(err.en);
  }
}

/** An undo puts back what one landed op changed, where its target still holds what the op left. */
type Undo = () => Promise<void>;

const noUndo: Undo = async () => undefined;

function isConflict(err: unknown): boolean {
  return err instanceof HostError && err.code === "CONFLICT";
}

/** hashOf returns "sha256:<hex>" of the file at p, or null when no file is there. */
async function hashOf(v: VaultPort, p: string): Promise<string | null> {
  if ((await v.kind(p)) !== "file") return null;
  return "sha256:" + sha256Hex(await v.readBytes(p));
}

/** rmdirs removes the folders made (outermost first), innermost first, each only when empty. */
async function rmdirs(v: VaultPort, made: string[]): Promise<void> {
  for (let i = made.length - 1; i >= 0; i--) await v.rmdir(made[i]!);
}

/**
 * land re-checks op's target against its before-state, as close to the
 * change as Obsidian's API allows, and makes the change; it throws Stale
 * when the target does not hold it, with nothing changed. A write over a
 * file is checked inside vault.process's callback, which Obsidian runs
 * synchronously between its read and its write: no window. A write of a
 * new file goes through vault.create, which refuses an existing one. A
 * delete reads the file and removes it in the next step, a move checks
 * both paths right before fileManager.renameFile: the API offers no
 * conditional delete or rename, so that one await is the window left.
 *
 * It returns how to undo the change.
 */
async function land(v: VaultPort, op: Op): Promise<Undo> {
  switch (op.op) {
    case "write": {
      const p = op.path!;
      const after = textHash(op.text!);
      if (op.expect === ABSENT) {
        if ((await v.kind(p)) !== null) throw new Stale(exists(p));
        const made = await v.mkdir(parent(p));
        try {
          await v.create(p, op.text!);
        } catch (err) {
          if (!isConflict(err)) throw err;
          await rmdirs(v, made);
          throw new Stale(exists(p));
        }
        return async () => {
          if ((await hashOf(v, p)) === after) await v.remove(p);
          await rmdirs(v, made);
        };
      }
      if ((await v.kind(p)) !== "file") throw new Stale(changed(p));
      let prior: string;
      try {
        prior = await v.modify(p, op.expect!, op.text!);
      } catch (err) {
        if (isConflict(err)) throw new Stale(changed(p));
        throw err;
      }
      return async () => {
        try {
          await v.modify(p, after, prior);
        } catch (err) {
          if (!isConflict(err)) throw err; // edited since: theirs is kept
        }
      };
    }
    case "delete": {
      const p = op.path!;
      if ((await v.kind(p)) !== "file") throw new Stale(changed(p));
      const bytes = await v.readBytes(p);
      if ("sha256:" + sha256Hex(bytes) !== op.expect) throw new Stale(changed(p));
      await v.remove(p);
      return async () => {
        if ((await v.kind(p)) !== null) return;
        const made = await v.mkdir(parent(p));
        try {
          await v.create(p, bytes);
        } catch (err) {
          if (!isConflict(err)) throw err;
          await rmdirs(v, made);
        }
      };
    }
    case "move": {
      const from = op.from!;
      const to = op.to!;
      if ((await v.kind(from)) === null) throw new Stale(changed(from));
      if ((await v.kind(to)) !== null) throw new Stale(exists(to));
      const made = await v.mkdir(parent(to));
      await v.move(from, to);
      return async () => {
        if ((await v.kind(to)) === null || (await v.kind(from)) !== null) return;
        await v.mkdir(parent(from));
        await v.move(to, from);
        await rmdirs(v, made);
      };
    }
    case "mkdir": {
      const p = op.path!;
      const k = await v.kind(p);
      if (k === "file") throw new Stale(fileInTheWay(p));
      if (k === "folder") return noUndo;
      const made = await v.mkdir(p);
      return () => rmdirs(v, made);
    }
    case "check": {
      const p = op.path!;
      const h = await hashOf(v, p);
      if (op.expect === ABSENT) {
        if ((await v.kind(p)) !== null) throw new Stale(exists(p));
      } else if (h !== op.expect) {
        throw new Stale(changed(p));
      }
      return noUndo;
    }
  }
}

/** applyLive lands j's ops for a live call (see apply). */
async function applyLive(v: VaultPort, j: Journal): Promise<void> {
  const undos: Undo[] = [];
  for (let k = 0; k < j.plan.length; k++) {
    try {
      undos.push(await land(v, j.plan[k]!));
    } catch (err) {
      if (err instanceof Stale) return stop(v, j, err.err, undos);
      return failed(v, j, k, err);
    }
    try {
      await markDone(v, j.id, k);
    } catch (err) {
      return failed(v, j, k, err);
    }
  }
  await removeJournal(v, j.id);
}

/**
 * stop ends a live apply whose next op found path changed: it undoes the
 * ops landed, newest first, removes the journal and throws CONFLICT. The
 * progress goes first, so that a crash while undoing leaves a journal
 * whose every op recovery looks at again (an undone op holds its
 * before-state and lands again; one not undone yet holds its after-state).
 */
async function stop(v: VaultPort, j: Journal, why: HostError, undos: Undo[]): Promise<void> {
  const path = String(why.details["path"]);
  if (await finishedElsewhere(v, j, path)) return;
  try {
    await forgetProgress(v, j.id);
    for (let i = undos.length - 1; i >= 0; i--) await undos[i]!();
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw internal(`undoing plan ${j.id} after ${path} changed: ${msg}; the vault is half-way and the next call finishes the plan`);
  }
  await removeJournal(v, j.id);
  throw why;
}

/** failed ends a live apply whose op k failed to land: the journal stays for the next call. */
async function failed(v: VaultPort, j: Journal, k: number, err: unknown): Promise<void> {
  const op = j.plan[k]!;
  if (await finishedElsewhere(v, j, op.path ?? op.from!)) return;
  if (err instanceof HostError) throw err;
  const msg = err instanceof Error ? err.message : String(err);
  throw internal(`applying op ${k} (${op.op}) of plan ${j.id}: ${msg}; the vault is half-way and the next call finishes the plan`);
}

/**
 * finishedElsewhere tells whether another host finished j while this one
 * was applying it (the Go host rolls forward any journal it finds): the
 * journal is gone. It returns true when every target holds the plan's
 * final state (the change is made: the call's answer stands), and throws
 * CONFLICT naming path when a target has changed since.
 */
async function finishedElsewhere(v: VaultPort, j: Journal, path: string): Promise<boolean> {
  if (await journalExists(v, j.id)) return false;
  for (const [p, s] of finalStates(j.plan)) {
    if (!(await holds(v, p, s))) {
      throw new HostError(
        "CONFLICT",
        path + " changed while Kessho was applying its plan, and another Kessho finished the plan meanwhile; " + p + " has changed since: look at it, then run the call again if it is still needed",
        path + " a changé pendant que Kessho appliquait son plan, et un autre Kessho a terminé le plan entre-temps ; " + p + " a changé depuis : regardez-le, puis relancez l'appel s'il le faut encore",
        { path: p },
      );
    }
  }
  return true;
}

/** finalStates returns what each path a plan touches holds once the whole plan has landed. */
function finalStates(p: Plan): Map<string, string> {
  const m = new Map<string, string>();
  for (const op of p) {
    switch (op.op) {
      case "write":
        m.set(op.path!, textHash(op.text!));
        break;
      case "delete":
        m.set(op.path!, ABSENT);
        break;
      case "mkdir":
        m.set(op.path!, "folder");
        break;
      case "move": {
        const from = op.from!;
        for (const [q, s] of [...m]) {
          if (under(q, from)) {
            m.delete(q);
            m.set(op.to! + q.slice(from.length), s);
          }
        }
        m.set(from, ABSENT);
        m.set(op.to!, m.get(op.to!) === "folder" ? "folder" : "present");
        break;
      }
      case "check":
        break;
    }
  }
  return m;
}

/** holds tells whether p holds state s: "absent", "present", "folder" or "sha256:<hex>". */
async function holds(v: VaultPort, p: string, s: string): Promise<boolean> {
  switch (s) {
    case ABSENT:
      return (await v.kind(p)) === null;
    case "present":
      return (await v.kind(p)) !== null;
    case "folder":
      return (await v.kind(p)) === "folder";
  }
  return (await hashOf(v, p)) === s;
}

/**
 * rollForward finishes journal j from op from on, as recovery does
 * (journal-v2): an op whose target holds its after-state is recorded done;
 * one whose target holds its before-state lands (re-checked as in a live
 * apply); any other (an edit made after the crash, or a hand-made journal
 * naming a file whose hash differs) is never overwritten or deleted: the
 * plan's version goes beside it as a conflict copy, <id>.conflict records
 * the stop, and every call answers RECOVERY_CONFLICT until a person
 * deletes the copy; the user's version then wins for that op, and the
 * rest of the plan goes on. A check op writes nothing: it is recorded done
 * whatever its file holds.
 */
export async function rollForward(core: HostCore, v: VaultPort, j: Journal, from: number, marker: Marker | null, nowMs: () => number): Promise<void> {
  for (let k = from; k < j.plan.length; k++) {
    const op = j.plan[k]!;
    const state: OpState = j.states[k]!;
    if (marker !== null && marker.op === k) {
      if ((await v.kind(marker.copy)) !== null) throw marker.stop;
      await markDone(v, j.id, k);
      await removeMarker(v, j.id);
      marker = null;
      continue;
    }
    try {
      const at = op.op === "check" ? "after" : (await decide<{ at: string }>(core, v, "where", { op, state })).at;
      if (at === "after") {
        await markDone(v, j.id, k);
        continue;
      }
      if (at === "before") {
        try {
          await land(v, op);
          await markDone(v, j.id, k);
          continue;
        } catch (err) {
          if (!(err instanceof Stale)) throw err;
        }
      }
    } catch (err) {
      if (err instanceof HostError) throw err;
      const msg = err instanceof Error ? err.message : String(err);
      throw internal(`applying op ${k} (${op.op}) of plan ${j.id}: ${msg}; the vault is half-way and the next call finishes the plan`);
    }
    throw await keepTheirs(core, v, j, k, nowMs);
  }
  await removeJournal(v, j.id);
}

/** A conflict copy as the core names and fills it (hostlogic.CopyName, CopyText). */
interface Copy {
  copy: string;
  text: string;
  record: string;
  error: WireError;
}

/**
 * keepTheirs writes the conflict copy of op k beside its target (for a
 * move, its source) under the first free name the core gives, then
 * <id>.conflict, and returns RECOVERY_CONFLICT.
 */
async function keepTheirs(core: HostCore, v: VaultPort, j: Journal, k: number, nowMs: () => number): Promise<HostError> {
  const now = new Date(nowMs()).toISOString();
  let c: Copy;
  for (let n = 1; ; n++) {
    c = await ask<Copy>(core, "conflict_copy", { id: j.id, plan: j.plan, k, now, n });
    if ((await v.kind(c.copy)) === null) break;
  }
  try {
    await v.mkdir(parent(c.copy));
    await v.create(c.copy, c.text);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw internal(`writing the conflict copy ${c.copy} of plan ${j.id}: ${msg}`);
  }
  await writeMarker(v, j.id, c.record);
  return fromWire(c.error);
}
