// What the host keeps of the journal between calls (docs/HOSTS.md, "The
// journal and recovery"): the folder it lists before a step, and the ids
// of the journals it wrote. The journal's format, its writes and its
// recovery are the core's (core/hostlogic.Step, run by apply.ts).

export const journalDir = ".kessho/journal";

/** own holds the ids of the journals this plugin wrote and has not removed: calls run one at a time, so a later call never waits on them. */
let own = new Set<string>();

/**
 * OwnStore keeps the ids of own across restarts, on this device only
 * (Obsidian's localStorage for the vault, src/main.ts): a journal left
 * half-way by this plugin before Obsidian was closed, reloaded or
 * crashed is still its own, so the first call after the restart
 * finishes it at once instead of leaving it, as another host's, to its
 * writer for the lock's wait (issue 31, item 6). Not in the plugin's
 * data.json: a sync would hand the ids to another device, which must
 * leave a journal it did not write to its writer.
 */
export interface OwnStore {
  load(): string[];
  save(ids: string[]): void;
}

let store: OwnStore | null = null;

/** keepOwn makes s the store of own and own what s holds (what the plugin wrote before it was last stopped, and this process's). */
export function keepOwn(s: OwnStore): void {
  store = s;
  let saved: unknown = [];
  try {
    saved = s.load();
  } catch {
    // An unreadable store is an empty one: those journals are waited on, as before.
  }
  own = new Set(Array.isArray(saved) ? saved.filter((id): id is string => typeof id === "string") : []);
}

/** ownJournals returns the ids of the journals this plugin wrote and has not removed (own). */
export function ownJournals(): string[] {
  return [...own];
}

/** owned records journal id as this plugin's (written), or no longer (removed), in own and its store. */
export function owned(id: string, yes: boolean): void {
  if (yes) own.add(id);
  else own.delete(id);
  try {
    store?.save([...own]);
  } catch {
    // A full or refused localStorage: own still holds it for this process.
  }
}

export interface RecoverOptions {
  /** How long, in ms, a journal another host wrote is left to it (by its id's age) before this host rolls it forward; default 10 000, the Go host's lock wait. */
  lockWaitMs?: number;
  /** The clock, for tests (also the time in a conflict copy's name). */
  nowMs?: () => number;
  /** How to wait, for tests. */
  sleep?: (ms: number) => Promise<void>;
}
