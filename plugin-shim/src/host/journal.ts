// The journal's I/O (docs/HOSTS.md, "The journal and recovery"): the core
// writes and reads the files' text, this file moves them, each written
// under a temporary name and renamed into place.

import { ask, decide, diskFull, failing, messageOf, refusal, type HostCore } from "./core";
import { join, parent, type Plan } from "./plan";
import { randomHex, type VaultPort } from "./port";
import { run } from "./apply";

export const journalDir = ".kessho/journal";
export const tempPrefix = ".kessho-tmp-";

/** A journal as the core decodes it: the plan, and each op's target's states before and after it ("absent", "sha256:<hex>", "present"). */
export interface Journal {
  id: string;
  plan: Plan;
  states: { before: string; after: string }[];
}

/** own holds the ids of the journals this plugin wrote and has not removed: calls run one at a time, so a later call never waits on them. */
const own = new Set<string>();

export interface RecoverOptions {
  /** How long, in ms, a journal another host wrote is left to it (by its id's age) before this host rolls it forward; default 10 000, the Go host's lock wait. */
  lockWaitMs?: number;
  /** The clock, for tests (also the time in a conflict copy's name). */
  nowMs?: () => number;
  /** How to wait, for tests. */
  sleep?: (ms: number) => Promise<void>;
}

/** newJournalRequest is the request that has the core encode p's journal (new_journal), at this time. */
export function newJournalRequest(p: Plan): string {
  return JSON.stringify({ kind: "new_journal", plan: p, now: new Date().toISOString(), suffix: randomHex(4) });
}

/**
 * writeJournal makes p the vault's journal (the core encodes it; temporary
 * name, then renamed into place). answer, when given, is the core's answer
 * to request, asked already (apply). A full disk is DISK_FULL naming the
 * journal: nothing was written.
 */
export async function writeJournal(core: HostCore, v: VaultPort, p: Plan, request = newJournalRequest(p), answer?: string): Promise<Journal> {
  const { id, text } = JSON.parse(answer ?? (await core.host(request))) as { id: string; text: string };
  try {
    await writeState(v, jfile(id, "json"), text);
  } catch (err) {
    // Nothing is written yet, and writeState removed its temporary file.
    if (diskFull(err)) throw await refusal(core, "disk_full", jfile(id, "json"));
    throw new Error(`writing the journal: ${messageOf(err)}`);
  }
  own.add(id);
  return { id, plan: p, states: [] };
}

/** writeState writes one of Kessho's files under a temporary name, then renames it into place. */
export async function writeState(v: VaultPort, p: string, data: string): Promise<void> {
  const tmp = join(parent(p), tempPrefix + randomHex(8));
  try {
    await v.state.write(tmp, data);
    await v.state.remove(p);
    await v.state.rename(tmp, p);
  } catch (err) {
    await v.state.remove(tmp).catch(() => undefined);
    throw err;
  }
}

/** jfile is the vault path of journal id's file of extension ext: "json" (the journal), "done" (its progress), "conflict" (its record). */
export function jfile(id: string, ext: string): string {
  return join(journalDir, `${id}.${ext}`);
}

/** markDone records op k of journal id as finished. */
export async function markDone(v: VaultPort, id: string, k: number): Promise<void> {
  await v.state.append(jfile(id, "done"), `${k}\n`);
}

/** removeJournal removes the journal, then its progress and its conflict. */
export async function removeJournal(v: VaultPort, id: string): Promise<void> {
  await failing("removing the journal", async () => {
    for (const ext of ["json", "done", "conflict"]) await v.state.remove(jfile(id, ext));
  });
  own.delete(id);
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
    const sweep = { names, now: new Date(nowMs()).toISOString(), wait_ms: wait, own: [...own] };
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
  const req: { id: string; journal?: string | null; read_error?: string; done?: string | null; record?: string | null } = { id };
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
