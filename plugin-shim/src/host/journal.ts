// What the host keeps of the journal between calls (docs/HOSTS.md, "The
// journal and recovery"): the folder it lists before a step, and the ids
// of the journals it wrote. The journal's format, its writes and its
// recovery are the core's (core/hostlogic.Step, run by apply.ts).

export const journalDir = ".kessho/journal";

/** own holds the ids of the journals this plugin wrote and has not removed: calls run one at a time, so a later call never waits on them. */
const own = new Set<string>();

/** ownJournals returns the ids of the journals this plugin wrote and has not removed (own). */
export function ownJournals(): string[] {
  return [...own];
}

/** owned records journal id as this plugin's (written), or no longer (removed). */
export function owned(id: string, yes: boolean): void {
  if (yes) own.add(id);
  else own.delete(id);
}

export interface RecoverOptions {
  /** How long, in ms, a journal another host wrote is left to it (by its id's age) before this host rolls it forward; default 10 000, the Go host's lock wait. */
  lockWaitMs?: number;
  /** The clock, for tests (also the time in a conflict copy's name). */
  nowMs?: () => number;
  /** How to wait, for tests. */
  sleep?: (ms: number) => Promise<void>;
}
