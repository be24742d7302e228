// The journal's I/O, in the format of docs/HOSTS.md, shared with the Go
// host so that either can finish or resolve what the other began. The core
// writes and reads the files' text (new_journal, open_journal, sweep); this
// file moves them. Each is written under a temporary name and renamed into
// place, so a <id>.json that exists is complete.

import { ask, fromWire, type HostCore, type WireError } from "./core";
import { HostError, internal, messageOf } from "./fault";
import { join, parent, type Plan } from "./plan";
import type { VaultPort } from "./port";
import { rollForward } from "./apply";

export const journalDir = ".kessho/journal";
export const tempPrefix = ".kessho-tmp-";

/** What an op's target holds before and after the op: "absent", "sha256:<hex>" or "present". */
export interface OpState {
  before: string;
  after: string;
}

export interface Journal {
  version: number;
  id: string;
  created: string;
  plan: Plan;
  states: OpState[];
}

/** A stop of recovery on a conflict (<id>.conflict), and the refusal it makes while its copy exists. */
export interface Marker {
  op: number;
  path: string;
  copy: string;
  stop: HostError;
}

/**
 * own holds the ids of the journals this plugin wrote and has not removed.
 * Calls run one at a time, so such a journal found by a later call is a
 * plan this plugin abandoned half-way: it is finished at once, never
 * waited on (see recoverJournals).
 */
const own = new Set<string>();

export interface RecoverOptions {
  /**
   * How long a journal another host wrote, younger than this (by its id),
   * is left to that host before this one rolls it forward, in
   * milliseconds. Default 10 000 (the Go host's lock wait): Kessho's calls
   * take milliseconds, so an older journal is a crash's. The plugin's own
   * journals and journals stopped on a conflict are never waited on.
   */
  lockWaitMs?: number;
  /** The clock, for tests (also the time in a conflict copy's name). */
  nowMs?: () => number;
  /** How to wait, for tests. */
  sleep?: (ms: number) => Promise<void>;
}

function randomHex(bytes: number): string {
  const b = new Uint8Array(bytes);
  crypto.getRandomValues(b);
  let out = "";
  for (const x of b) out += x.toString(16).padStart(2, "0");
  return out;
}


/** writeJournal makes p the vault's journal (the core encodes it; temporary name, then renamed into place). */
export async function writeJournal(core: HostCore, v: VaultPort, p: Plan): Promise<Journal> {
  const { id, text } = await ask<{ id: string; text: string }>(core, "new_journal", { plan: p, now: new Date().toISOString(), suffix: randomHex(4) });
  try {
    await writeState(v, join(journalDir, id + ".json"), text);
  } catch (err) {
    throw internal(`writing the journal: ${messageOf(err)}`);
  }
  own.add(id);
  return { version: 2, id, created: "", plan: p, states: [] };
}

/** writeState writes one of Kessho's files under a temporary name, then renames it into place. */
async function writeState(v: VaultPort, p: string, data: string): Promise<void> {
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

/** journalPath is the vault path of journal id. */
export function journalPath(id: string): string {
  return join(journalDir, id + ".json");
}

/** writeMarker records that recovery of journal id stopped on a conflict (<id>.conflict, the core's text). */
export async function writeMarker(v: VaultPort, id: string, data: string): Promise<void> {
  try {
    await writeState(v, join(journalDir, id + ".conflict"), data);
  } catch (err) {
    throw internal(`writing the conflict of journal ${id}: ${messageOf(err)}`);
  }
}

/** removeMarker removes <id>.conflict. */
export async function removeMarker(v: VaultPort, id: string): Promise<void> {
  await v.state.remove(join(journalDir, id + ".conflict"));
}

/** forgetProgress removes <id>.done: a recovery then looks at every op again. */
export async function forgetProgress(v: VaultPort, id: string): Promise<void> {
  await v.state.remove(join(journalDir, id + ".done"));
}

/** journalExists reports whether journal id is still in the vault. */
export async function journalExists(v: VaultPort, id: string): Promise<boolean> {
  return (await v.state.read(journalPath(id))) !== null;
}

/** markDone records op k of journal id as finished. */
export async function markDone(v: VaultPort, id: string, k: number): Promise<void> {
  await v.state.append(join(journalDir, id + ".done"), `${k}\n`);
}

/** removeJournal removes the journal, then its progress and its conflict. */
export async function removeJournal(v: VaultPort, id: string): Promise<void> {
  try {
    await v.state.remove(join(journalDir, id + ".json"));
    await v.state.remove(join(journalDir, id + ".done"));
    await v.state.remove(join(journalDir, id + ".conflict"));
  } catch (err) {
    throw internal(`removing the journal: ${messageOf(err)}`);
  }
  own.delete(id);
}

/**
 * recoverJournals rolls forward every plan a crash left half-applied, oldest
 * first, as the Go host's Recover does (docs/HOSTS.md, "The journal and
 * recovery"; the core's sweep orders it). A journal another host wrote less
 * than lockWaitMs ago (the core's "young") is first given that long to
 * disappear: that host may be applying it at this instant, and rolling it
 * forward beside it would race its re-checks.
 */
export async function recoverJournals(core: HostCore, v: VaultPort, opts: RecoverOptions = {}): Promise<void> {
  const wait = opts.lockWaitMs ?? 10_000;
  const nowMs = opts.nowMs ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let names = await v.state.list(journalDir);
  if (names === null) return;
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
  resume: "none" | "stale" | "pending";
  record?: { op: number; path: string; copy: string };
  error?: WireError;
  temp_dirs: string[];
}

async function recoverOne(core: HostCore, v: VaultPort, id: string, nowMs: () => number): Promise<void> {
  const name = join(journalDir, id + ".json");
  const req: { id: string; journal?: string | null; read_error?: string; done?: string | null; record?: string | null } = { id };
  try {
    req.journal = await v.state.read(name);
  } catch (err) {
    req.read_error = messageOf(err);
  }
  if (req.journal === null) return; // finished by someone else since the listing
  req.done = await v.state.read(join(journalDir, id + ".done"));
  req.record = await v.state.read(join(journalDir, id + ".conflict"));
  const o = await ask<Opened>(core, "open_journal", req);
  if (o.error !== undefined && o.resume === undefined) throw fromWire(o.error);
  const j = o.journal!;
  j.plan ??= [];
  let marker: Marker | null = null;
  if (o.resume === "stale") await removeMarker(v, id); // recorded done before its record was removed (a crash)
  if (o.resume === "pending") marker = { ...o.record!, stop: fromWire(o.error!) };
  if (req.done !== null && req.done !== o.done) await v.state.write(join(journalDir, id + ".done"), o.done);
  await removeTemps(v, o.temp_dirs);
  await rollForward(core, v, j, o.from, marker, nowMs);
}

/** removeTemps removes temporary files the Go host may have left in dirs (the core's temp_dirs: the folders of the writes left to do). */
async function removeTemps(v: VaultPort, dirs: string[]): Promise<void> {
  for (const dir of dirs) {
    if ((dir === "." ? "folder" : await v.kind(dir)) !== "folder") continue;
    const { files } = await v.list(dir);
    for (const n of files) if (n.startsWith(tempPrefix)) await v.state.remove(join(dir, n));
  }
}
