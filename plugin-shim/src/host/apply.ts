// Applying plans by docs/HOSTS.md ("Applying a plan", "The journal and
// recovery"): the core checks and decides, this file lands the ops through
// Obsidian's API and undoes them, and rolls forward the plans a crash left
// half-applied (recoverJournals); journal.ts reads and writes the
// journal's files.

import { ask, decide, diskFull, failing, HostError, messageOf, refusal, type HostCore, type WireError } from "./core";
import { undoSafe } from "./answer";
import { ABSENT, join, parent, type Op, type Plan } from "./plan";
import { sha256Hex, Stale, type VaultPort } from "./port";
import { jfile, journalDir, markDone, newJournalRequest, ownJournals, removeJournal, tempPrefix, writeJournal, writeState, type Journal, type RecoverOptions } from "./journal";
import type { HostRequest } from "../wire.gen";

/**
 * apply applies p to the vault, all of it or none of it: recovery, the
 * core's check_plan, the journal, then run. check, when given, is the
 * core's answer to check_plan without nodes (Round.check); the journal is
 * encoded in the crossing that ends the check (decide's along).
 */
export async function apply(core: HostCore, v: VaultPort, p: Plan, opts: RecoverOptions = {}, check?: string): Promise<void> {
  await recoverJournals(core, v, opts);
  const ahead = { first: check, along: p.length === 0 ? undefined : newJournalRequest(p), alongAnswer: undefined as string | undefined };
  const along = ahead.along;
  await decide(core, v, "check_plan", { plan: p }, ahead);
  if (p.length === 0) return;
  for (const op of p) if (op.path !== undefined) await undoSafe(core, v, op.path, false);
  await run(core, v, await writeJournal(core, v, p, along, ahead.alongAnswer), 0, null);
}

/** What undoing a landed op needs: the bytes its re-check read (what a write replaced or a delete removed), and the folders made for it. */
interface Landed {
  prior: string | Uint8Array;
  made: string[];
}

/** rmdirs removes the folders made (outermost first), innermost first, each only when empty. */
async function rmdirs(v: VaultPort, made: string[]): Promise<void> {
  for (let i = made.length - 1; i >= 0; i--) await v.rmdir(made[i]!);
}

/** createIn makes the file p (its folders first, removed again when p turns out taken); it returns the folders made. */
async function createIn(v: VaultPort, p: string, data: string | Uint8Array): Promise<string[]> {
  const made = await v.mkdir(parent(p));
  try {
    await v.create(p, data);
  } catch (err) {
    if (err instanceof Stale) await rmdirs(v, made);
    throw err;
  }
  return made;
}

/**
 * land re-checks op's target against its before-state as close to the
 * change as Obsidian's API allows, and makes the change (Stale, nothing
 * changed, when it does not hold). A write over a file is checked inside
 * vault.process (no window), a new file made by vault.create (which refuses
 * an existing one); the API has no conditional delete or rename, so for
 * those one await is the window left.
 */
async function land(v: VaultPort, op: Op): Promise<Landed> {
  const p = op.path!;
  switch (op.op) {
    case "write":
      if (op.expect === ABSENT) {
        if ((await v.kind(p)) !== null) throw new Stale("exists", p);
        return { prior: "", made: await createIn(v, p, op.text!) };
      }
      if ((await v.kind(p)) !== "file") throw new Stale("changed", p);
      return { prior: await v.modify(p, op.expect!, op.text!), made: [] };
    case "move": {
      if ((await v.kind(op.from!)) === null) throw new Stale("changed", op.from!);
      if ((await v.kind(op.to!)) !== null) throw new Stale("exists", op.to!);
      const made = await v.mkdir(parent(op.to!));
      await v.move(op.from!, op.to!);
      return { prior: "", made };
    }
  }
  if (op.expect === ABSENT) {
    if ((await v.kind(p)) !== null) throw new Stale("exists", p); // a check of absence
    return { prior: "", made: [] };
  }
  const bytes = (await v.kind(p)) === "file" ? await v.readBytes(p) : null;
  if (bytes === null || "sha256:" + sha256Hex(bytes) !== op.expect) throw new Stale("changed", p);
  if (op.op === "delete") await v.remove(p);
  return { prior: bytes, made: [] };
}

/** How to undo one landed op (hostlogic.Undo): remove, restore, move back, or keep (none, keep). */
interface Undo {
  do: string;
  path: string;
  from?: string;
  expect?: string;
}

/** What the core says of undoing a live apply's landed ops (hostlogic.UndoPlan): each op's undo, what stays, and the refusal that ends the call. */
interface Undoing {
  undos: Undo[];
  edited: string[];
  kept: string[];
  stop: WireError;
}

/** undo puts back what one landed op changed as u says, then removes the folders made for it; true when a restore found its file changed at the last instant (Stale: it is left as it is). */
async function undo(v: VaultPort, u: Undo, l: Landed): Promise<boolean> {
  let raced = false;
  try {
    if (u.do === "remove") await v.remove(u.path);
    else if (u.do === "move") {
      await v.mkdir(parent(u.path));
      await v.move(u.from!, u.path);
    } else if (u.do === "restore" && u.expect === ABSENT) await createIn(v, u.path, l.prior);
    else if (u.do === "restore") await v.modify(u.path, u.expect!, l.prior as string); // a write's: the text it replaced
  } catch (err) {
    if (!(err instanceof Stale)) throw err;
    raced = u.do === "restore";
  }
  await rmdirs(v, l.made);
  return raced;
}

/**
 * run lands j's ops from op from on, recording each done, then removes the
 * journal. Live (rec null), a target changed meanwhile undoes the landed
 * ops (stop). In a recovery the core's "where" says if an op is done or to
 * land; neither, or a failed re-check, keeps the user's file and writes
 * Kessho's version beside it (keepTheirs; rec is its clock). An I/O error
 * leaves the journal for the next call (failed).
 */
export async function run(core: HostCore, v: VaultPort, j: Journal, from: number, rec: (() => number) | null): Promise<void> {
  const landed: Landed[] = [];
  for (let k = from; k < j.plan.length; k++) {
    const op = j.plan[k]!;
    try {
      const at = rec === null ? "before" : op.op === "check" ? "after" : (await decide<{ at: string }>(core, v, "where", { op, state: j.states[k] })).at;
      if (at === "before" && op.path !== undefined) await undoSafe(core, v, op.path, false); // a link planted since, or before a recovery
      if (at === "before") landed.push(await land(v, op));
      if (at !== "neither") {
        await markDone(v, j.id, k);
        continue;
      }
    } catch (err) {
      if (!(err instanceof Stale)) return failed(core, v, j, k, err, rec === null);
      if (rec === null) return stop(core, v, j, err, landed);
    }
    throw await keepTheirs(core, v, j, k, rec!);
  }
  await removeJournal(v, j.id);
}

/**
 * stop ends a live apply whose next op found its target changed: the
 * progress goes, the landed ops are undone newest first as the core says
 * (undo_plan: once a file Kessho wrote was edited since, the files the plan
 * made are kept, and a restore that loses its race asks again for the ops
 * left), then the journal; the core's refusal says what stayed.
 */
async function stop(core: HostCore, v: VaultPort, j: Journal, s: Stale, landed: Landed[]): Promise<void> {
  if (await finishedElsewhere(core, v, j, s.path)) return;
  const ask = (n: number, edited: string[], kept: string[]) =>
    decide<Undoing>(core, v, "undo_plan", { plan: j.plan.slice(0, n), edited, kept, why: s.why, path: s.path });
  let u: Undoing;
  try {
    await v.state.remove(jfile(j.id, "done")); // a recovery then looks at every op again
    u = await ask(landed.length, [], []);
    for (let i = landed.length - 1; i >= 0; i--) {
      if (await undo(v, u.undos[i]!, landed[i]!)) u = await ask(i, [...u.edited, u.undos[i]!.path], u.kept);
    }
  } catch (err) {
    throw new Error(`undoing plan ${j.id} after ${s.path} changed: ${messageOf(err)}; the vault is half-way and the next call finishes the plan`);
  }
  await removeJournal(v, j.id);
  throw new HostError(u.stop);
}

/**
 * failed ends an apply whose op k failed to land: the journal stays for
 * the next call (unless, live, another host finished it). A full disk is
 * DISK_FULL saying so: Obsidian writes a file in place, so a write the
 * disk cut short may have left part of it, and only the next call's
 * recovery can tell.
 */
async function failed(core: HostCore, v: VaultPort, j: Journal, k: number, err: unknown, live: boolean): Promise<void> {
  const op = j.plan[k]!;
  if (live && (await finishedElsewhere(core, v, j, op.path ?? op.from!))) return;
  if (err instanceof HostError) throw err;
  if (diskFull(err)) throw await refusal(core, "disk_full_halfway", op.path ?? op.from!);
  throw new Error(`applying op ${k} (${op.op}) of plan ${j.id}: ${messageOf(err)}; the vault is half-way and the next call finishes the plan`);
}

/** finishedElsewhere tells whether another host finished j meanwhile (its journal gone); the core's "finished" throws if a path changed since. */
async function finishedElsewhere(core: HostCore, v: VaultPort, j: Journal, path: string): Promise<boolean> {
  if ((await v.state.read(jfile(j.id, "json"))) !== null) return false;
  await decide(core, v, "finished", { plan: j.plan, path });
  return true;
}

/** A conflict copy as the core names and fills it (hostlogic.CopyName, CopyText). */
interface Copy {
  copy: string;
  text: string;
  record: string;
  stop: WireError;
}

/** keepTheirs writes the conflict copy of op k under the first free name the core gives, then <id>.conflict; it returns RECOVERY_CONFLICT. */
async function keepTheirs(core: HostCore, v: VaultPort, j: Journal, k: number, nowMs: () => number): Promise<HostError> {
  const c = await decide<Copy>(core, v, "conflict_copy", { id: j.id, plan: j.plan, k, now: new Date(nowMs()).toISOString() });
  await failing(`writing the conflict copy ${c.copy} of plan ${j.id}`, () => createIn(v, c.copy, c.text));
  await failing(`writing the conflict of journal ${j.id}`, () => writeState(v, jfile(j.id, "conflict"), c.record));
  return new HostError(c.stop);
}

/**
 * recoverJournals rolls forward every plan a crash left half-applied, in
 * the core's order (sweep). A journal another host wrote less than
 * lockWaitMs ago (the core's "young") is given that long to go first: that
 * host may be applying it, and rolling it forward too would race it.
 */
export async function recoverJournals(core: HostCore, v: VaultPort, opts: RecoverOptions = {}): Promise<void> {
  const wait = opts.lockWaitMs ?? 10_000;
  const nowMs = opts.nowMs ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => window.setTimeout(r, ms)));
  let names = await v.state.list(journalDir);
  // No journal, nothing to sweep (the core's sweep of no names is nothing to do and no one young): no question asked.
  if (names === null || names.length === 0) return;
  // For lockWaitMs at most: a clock set wrong must not make us wait for ever.
  const deadline = nowMs() + wait;
  for (;;) {
    const sweep = { names, now: new Date(nowMs()).toISOString(), wait_ms: wait, own: ownJournals() } satisfies Partial<HostRequest>;
    const { ids, remove, young } = await ask<{ ids: string[]; remove: string[]; young: boolean }>(core, "sweep", sweep);
    if (!young || nowMs() >= deadline) {
      for (const n of remove) await v.state.remove(join(journalDir, n));
      for (const id of ids) await recoverOne(core, v, id, nowMs);
      return;
    }
    await sleep(100);
    names = (await v.state.list(journalDir)) ?? [];
  }
}

/** What the core makes of a journal, its progress and its conflict record (hostlogic.Decode, Progress, ReadRecord). */
interface Opened {
  journal: Journal | null;
  from: number;
  done: string;
  drop_record: boolean;
  temp_dirs: string[];
}

/**
 * recoverOne rolls journal id forward once the core opened it (a conflict
 * copy still there is thrown): the progress rewritten when the core's
 * differs (a torn line, a copy deleted), then a stale or resolved record
 * removed.
 */
async function recoverOne(core: HostCore, v: VaultPort, id: string, nowMs: () => number): Promise<void> {
  const req: Partial<HostRequest> & { id: string } = { id };
  try {
    req.journal = await v.state.read(jfile(id, "json"));
  } catch (err) {
    req.read_error = messageOf(err);
  }
  if (req.journal === null) return; // finished by someone else since the listing
  req.done = await v.state.read(jfile(id, "done"));
  req.record = await v.state.read(jfile(id, "conflict"));
  const o = await decide<Opened>(core, v, "open_journal", req);
  if ((req.done ?? "") !== o.done) await v.state.write(jfile(id, "done"), o.done);
  if (o.drop_record) await v.state.remove(jfile(id, "conflict"));
  await removeTemps(v, o.temp_dirs);
  await run(core, v, { ...o.journal!, plan: o.journal!.plan ?? [] }, o.from, nowMs);
}

/** removeTemps removes temporary files the Go host may have left in dirs (the core's temp_dirs: the folders of the writes left to do). */
async function removeTemps(v: VaultPort, dirs: string[]): Promise<void> {
  for (const dir of dirs) {
    if ((dir === "." ? "folder" : await v.kind(dir)) !== "folder") continue;
    const { files } = await v.list(dir);
    for (const n of files) if (n.startsWith(tempPrefix)) await v.state.remove(join(dir, n));
  }
}
