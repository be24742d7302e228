// Applying plans: the TypeScript twin of host/vaultfs/apply.go. Every
// precondition is checked against the state the ops before it leave, before
// any op runs; then the plan goes to the journal (see journal.ts) and its
// ops are applied in order, each write re-checked inside vault.process.

import { changed, conflict, HostError, internal } from "./fault";
import { ABSENT, parent, under, validatePlan, type Op, type Plan } from "./plan";
import { sha256Hex, textHash, type VaultPort } from "./port";
import { removeJournal, writeJournal, markDone, type Journal, recoverJournals, type RecoverOptions } from "./journal";

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
 * the journal, applies the ops (re-checking each write inside
 * vault.process, each delete and move right before it), then removes the
 * journal.
 *
 * A re-check that fails before anything was written removes the journal
 * and throws CONFLICT: nothing applied. One that fails later (another
 * program wrote a file in the milliseconds between two ops) leaves the
 * journal, and the next call finishes the plan, as after a crash.
 */
export async function apply(v: VaultPort, p: Plan, opts: ApplyOptions = {}): Promise<void> {
  await recoverJournals(v, opts);
  const bad = validatePlan(p);
  if (bad !== null) throw internal(`the module returned an invalid plan: ${bad}`);
  if (p.length === 0) return;
  await check(v, p);
  const j = await writeJournal(v, p);
  await run(v, j, 0, true);
}

/**
 * run applies j's ops from index from on, skipping those whose target
 * already holds the new state, recording each done, then removes the
 * journal. recheck (a fresh apply) checks each op's precondition again as
 * it is applied; without it (a roll-forward) ops are applied as the
 * journal says.
 */
export async function run(v: VaultPort, j: Journal, from: number, recheck = false): Promise<void> {
  let wrote = false;
  for (let k = from; k < j.plan.length; k++) {
    const op = j.plan[k]!;
    try {
      if (!(await holdsNew(v, op))) {
        await doOp(v, op, recheck);
        wrote = true;
      }
      await markDone(v, j.id, k);
    } catch (err) {
      if (err instanceof HostError) {
        if (err.code === "CONFLICT" && recheck) {
          if (!wrote) {
            await removeJournal(v, j.id);
            throw err;
          }
          const p = String(err.details["path"] ?? op.path ?? op.from);
          throw conflict(
            p,
            p + " changed while Kessho was applying its plan (another program or person wrote it); the vault is half-way and the next call finishes the plan",
            p + " a changé pendant que Kessho appliquait son plan (un autre programme ou une autre personne l'a écrit) ; le coffre est à mi-chemin et le prochain appel terminera le plan",
          );
        }
        throw err;
      }
      const msg = err instanceof Error ? err.message : String(err);
      throw internal(`applying op ${k} (${op.op}) of plan ${j.id}: ${msg}; the vault is half-way and the next call finishes the plan`);
    }
  }
  await removeJournal(v, j.id);
}

/** holdsNew reports whether op's target already holds the state op makes. */
async function holdsNew(v: VaultPort, op: Op): Promise<boolean> {
  switch (op.op) {
    case "write": {
      if ((await v.kind(op.path!)) !== "file") return false;
      const bytes = await v.readBytes(op.path!);
      return equalBytes(bytes, new TextEncoder().encode(op.text!));
    }
    case "delete":
      return (await v.kind(op.path!)) === null;
    case "move":
      return (await v.kind(op.from!)) === null && (await v.kind(op.to!)) !== null;
    case "mkdir":
      return (await v.kind(op.path!)) === "folder";
    case "check":
      return true; // nothing to make
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * doOp applies one op. With recheck (a fresh apply), a write expecting a
 * hash goes through vault.process with the hash checked inside the
 * callback, a write expecting nothing through vault.create (which refuses
 * an existing file), and a delete or a move checks its precondition again
 * right before it.
 */
async function doOp(v: VaultPort, op: Op, recheck: boolean): Promise<void> {
  switch (op.op) {
    case "write": {
      const p = op.path!;
      await v.mkdir(parent(p));
      if (recheck) {
        if (op.expect === ABSENT) await v.create(p, op.text!);
        else await v.modify(p, op.expect!, op.text!);
        return;
      }
      if ((await v.kind(p)) === "file") await v.modify(p, null, op.text!);
      else await v.create(p, op.text!);
      return;
    }
    case "delete": {
      const p = op.path!;
      if (recheck) {
        if ((await v.kind(p)) !== "file") throw changed(p);
        if ("sha256:" + sha256Hex(await v.readBytes(p)) !== op.expect) throw changed(p);
      } else if ((await v.kind(p)) === null) {
        return;
      }
      await v.remove(p);
      return;
    }
    case "move": {
      if (recheck) {
        if ((await v.kind(op.from!)) === null) throw changed(op.from!);
        if ((await v.kind(op.to!)) !== null) {
          throw conflict(
            op.to!,
            op.to! + " already exists, where Kessho expected nothing; nothing was written, run the call again",
            op.to! + " existe déjà, là où Kessho n'attendait rien ; rien n'a été écrit, relancez l'appel",
          );
        }
      }
      await v.mkdir(parent(op.to!));
      await v.move(op.from!, op.to!);
      return;
    }
    case "mkdir":
      await v.mkdir(op.path!);
      return;
    case "check": {
      // Verified with every precondition; with recheck, again right now.
      if (!recheck) return;
      const kind = await v.kind(op.path!);
      if (op.expect === ABSENT ? kind !== null : kind !== "file" || "sha256:" + sha256Hex(await v.readBytes(op.path!)) !== op.expect) {
        throw changed(op.path!);
      }
      return;
    }
  }
}
