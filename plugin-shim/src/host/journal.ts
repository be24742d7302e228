// The journal's I/O (docs/HOSTS.md, "The journal and recovery"): the core
// writes and reads the files' text, this file moves them, each written
// under a temporary name and renamed into place. Recovery, which lands
// what a journal has left to do, is apply.ts's.

import { diskFull, failing, messageOf, refusal, type HostCore } from "./core";
import { join, parent, type Plan } from "./plan";
import { randomHex, type VaultPort } from "./port";
import type { HostRequest, OpState } from "../wire.gen";

export const journalDir = ".kessho/journal";
export const tempPrefix = ".kessho-tmp-";

/** A journal as the core decodes it: the plan, and each op's target's states before and after it ("absent", "sha256:<hex>", "present"). */
export interface Journal {
  id: string;
  plan: Plan;
  states: OpState[];
}

/** own holds the ids of the journals this plugin wrote and has not removed: calls run one at a time, so a later call never waits on them. */
const own = new Set<string>();

/** ownJournals returns the ids of the journals this plugin wrote and has not removed (own). */
export function ownJournals(): string[] {
  return [...own];
}

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
  return JSON.stringify({ kind: "new_journal", plan: p, now: new Date().toISOString(), suffix: randomHex(4) } satisfies Partial<HostRequest>);
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
