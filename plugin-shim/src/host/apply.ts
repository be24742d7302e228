// Applying plans: the TypeScript twin of host/vaultfs/apply.go. Every
// precondition is checked against the state the ops before it leave, before
// any op runs; then the plan goes to the journal (see journal.ts) and its
// ops are applied in order, each one's target re-checked right before it
// lands (a write's inside vault.process), and the plan undone when another
// program changed one meanwhile. The rules are journal-v2's, shared with
// the Go host.

import { changed, conflict, exists, fileInTheWay, HostError, internal, recoveryConflict } from "./fault";
import { ABSENT, join, parent, under, validatePlan, type Op, type Plan } from "./plan";
import { sha256Hex, textHash, type VaultPort } from "./port";
import {
  forgetProgress,
  journalExists,
  journalPath,
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

type NodeKind = "absent" | "file" | "folder";

interface Node {
  kind: NodeKind;
  /** "sha256:<hex>" for a file, once known */
  hash?: string;
  /** for a file still on disk: where it is now */
  src?: string;
}

/**
 * Sim answers "what will be at this path after the first k ops" by walking
 * the ops backwards and falling back to the disk, as the Go host does.
 */
class Sim {
  private disk = new Map<string, Node>();
  constructor(
    private v: VaultPort,
    private p: Plan,
  ) {}

  async at(x: string, k: number): Promise<Node> {
    for (let i = k - 1; i >= 0; i--) {
      const op = this.p[i]!;
      switch (op.op) {
        case "write":
          if (x === op.path) return { kind: "file", hash: textHash(op.text!) };
          if (under(op.path!, x)) return { kind: "folder" };
          if (under(x, op.path!)) return { kind: "absent" };
          break;
        case "delete":
          if (x === op.path || under(x, op.path!)) return { kind: "absent" };
          break;
        case "mkdir":
          if (x === op.path || under(op.path!, x)) return { kind: "folder" };
          break;
        case "move":
          if (x === op.to) {
            x = op.from!;
            continue;
          }
          if (under(x, op.to!)) {
            x = op.from! + x.slice(op.to!.length);
            continue;
          }
          if (x === op.from || under(x, op.from!)) return { kind: "absent" };
          if (under(op.to!, x)) return { kind: "folder" };
          break;
      }
    }
    return this.onDisk(x);
  }

  private async onDisk(x: string): Promise<Node> {
    let n = this.disk.get(x);
    if (n === undefined) {
      const kind = await this.v.kind(x);
      n = { kind: kind ?? "absent", src: x };
      this.disk.set(x, n);
    }
    return n;
  }

  /** hash returns n's hash, reading the disk for a file no op wrote. */
  async hash(n: Node): Promise<string> {
    if (n.hash === undefined) {
      n.hash = "sha256:" + sha256Hex(await this.v.readBytes(n.src!));
    }
    return n.hash;
  }
}

/**
 * check evaluates every op's precondition, in order, against the state the
 * ops before it leave. The first failure throws CONFLICT naming the path.
 */
export async function check(v: VaultPort, p: Plan): Promise<void> {
  const s = new Sim(v, p);
  const is = async (x: string, k: number, want: string): Promise<void> => {
    const n = await s.at(x, k);
    if (want === ABSENT) {
      if (n.kind !== "absent") {
        throw conflict(
          x,
          x + " already exists, where Kessho expected nothing; nothing was written, run the call again",
          x + " existe déjà, là où Kessho n'attendait rien ; rien n'a été écrit, relancez l'appel",
        );
      }
      return;
    }
    if (n.kind !== "file") throw changed(x);
    if ((await s.hash(n)) !== want) throw changed(x);
  };
  const notAFolder = (d: string) =>
    conflict(
      d,
      d + " is a file where Kessho needs a folder; nothing was written, move the file away and run the call again",
      d + " est un fichier là où Kessho a besoin d'un dossier ; rien n'a été écrit, déplacez le fichier et relancez l'appel",
    );
  // room checks that x's parents are folders or nothing.
  const room = async (x: string, k: number): Promise<void> => {
    for (let d = parent(x); d !== "."; d = parent(d)) {
      const n = await s.at(d, k);
      if (n.kind === "file") throw notAFolder(d);
    }
  };
  for (let k = 0; k < p.length; k++) {
    const op = p[k]!;
    switch (op.op) {
      case "write":
        await room(op.path!, k);
        await is(op.path!, k, op.expect!);
        break;
      case "delete":
      case "check":
        await is(op.path!, k, op.expect!);
        break;
      case "move": {
        const n = await s.at(op.from!, k);
        if (n.kind !== "file" && n.kind !== "folder") throw changed(op.from!);
        await room(op.to!, k);
        await is(op.to!, k, ABSENT);
        break;
      }
      case "mkdir": {
        await room(op.path!, k);
        const n = await s.at(op.path!, k);
        if (n.kind !== "absent" && n.kind !== "folder") throw notAFolder(op.path!);
        break;
      }
    }
  }
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
export async function apply(v: VaultPort, p: Plan, opts: ApplyOptions = {}): Promise<void> {
  await recoverJournals(v, opts);
  const bad = validatePlan(p);
  if (bad !== null) throw internal(`the module returned an invalid plan: ${bad}`);
  if (p.length === 0) return;
  await check(v, p);
  const j = await writeJournal(v, p);
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
      throw conflict(
        p,
        path + " changed while Kessho was applying its plan, and another Kessho finished the plan meanwhile; " + p + " has changed since: look at it, then run the call again if it is still needed",
        path + " a changé pendant que Kessho appliquait son plan, et un autre Kessho a terminé le plan entre-temps ; " + p + " a changé depuis : regardez-le, puis relancez l'appel s'il le faut encore",
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

/** holdsState tells whether op's target holds s, one of its before or after states. */
async function holdsState(v: VaultPort, op: Op, s: string): Promise<boolean> {
  if (op.op === "move") {
    const from = await v.kind(op.from!);
    const to = await v.kind(op.to!);
    return s === ABSENT ? from !== null && to === null : from === null && to !== null;
  }
  return holds(v, op.path!, s);
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
export async function rollForward(v: VaultPort, j: Journal, from: number, marker: Marker | null, nowMs: () => number): Promise<void> {
  for (let k = from; k < j.plan.length; k++) {
    const op = j.plan[k]!;
    const st: OpState = j.states[k]!;
    if (marker !== null && marker.op === k) {
      if ((await v.kind(marker.copy)) !== null) throw recoveryConflict(marker.path, marker.copy, journalPath(j.id));
      await markDone(v, j.id, k);
      await removeMarker(v, j.id);
      marker = null;
      continue;
    }
    try {
      if (op.op === "check" || (await holdsState(v, op, st.after))) {
        await markDone(v, j.id, k);
        continue;
      }
      if (await holdsState(v, op, st.before)) {
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
    const m = await keepTheirs(v, j, k, nowMs);
    throw recoveryConflict(m.path, m.copy, journalPath(j.id));
  }
  await removeJournal(v, j.id);
}

/** stamp formats t (ms) in UTC as YYYYMMDDTHHMMSSZ. */
function stamp(t: number): string {
  const d = new Date(t);
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return p(d.getUTCFullYear(), 4) + p(d.getUTCMonth() + 1) + p(d.getUTCDate()) + "T" + p(d.getUTCHours()) + p(d.getUTCMinutes()) + p(d.getUTCSeconds()) + "Z";
}

/**
 * keepTheirs writes the conflict copy of op k beside its target (for a
 * move, its source): the op's text for a write, a note saying what the
 * change was for the others; then <id>.conflict.
 */
async function keepTheirs(v: VaultPort, j: Journal, k: number, nowMs: () => number): Promise<Marker> {
  const op = j.plan[k]!;
  const target = op.op === "move" ? op.from! : op.path!;
  const slash = target.lastIndexOf("/");
  const name = target.slice(slash + 1);
  const base = join(parent(target), (name.endsWith(".md") ? name.slice(0, -3) : name) + ".kessho-conflict-" + stamp(nowMs()));
  let copy = base + ".md";
  for (let n = 2; (await v.kind(copy)) !== null; n++) copy = `${base}-${n}.md`;
  let what: string;
  switch (op.op) {
    case "delete":
      what = "delete " + op.path!;
      break;
    case "move":
      what = "move " + op.from! + " to " + op.to!;
      break;
    default:
      what = "make the folder " + op.path!;
  }
  const text =
    op.op === "write"
      ? op.text!
      : `Kessho's interrupted change (journal ${j.id}) was to ${what}; it was changed since, so it was kept as it is. Delete this note once you have decided; Kessho then goes on with the rest of that change.`;
  try {
    await v.mkdir(parent(copy));
    await v.create(copy, text);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw internal(`writing the conflict copy ${copy} of plan ${j.id}: ${msg}`);
  }
  const m = { op: k, path: target, copy };
  await writeMarker(v, j.id, m);
  return m;
}
