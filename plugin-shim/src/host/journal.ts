// The journal: the same format as the Go host (host/vaultfs/journal.go), so
// that either host can finish what the other began.
//
//	.kessho/journal/<id>.json   {"version":1,"id":"<id>","created":"<RFC 3339>","plan":[<ops>]}
//	.kessho/journal/<id>.done   one line per finished op: its index, "0\n1\n2\n…"
//
// The id sorts by creation time (UTC "20060102T150405.000000000Z" and a
// random suffix); journals are replayed in id order. A journal is written
// under a temporary name and renamed into place, so a <id>.json that exists
// is complete.

import { compareBytes, goQuote } from "./gojson";
import { HostError, internal } from "./fault";
import { join, opJSON, parent, validatePlan, type Plan } from "./plan";
import type { VaultPort } from "./port";
import { run } from "./apply";

export const journalDir = ".kessho/journal";
export const tempPrefix = ".kessho-tmp-";
const journalVersion = 1;

export interface Journal {
  version: number;
  id: string;
  created: string;
  plan: Plan;
}

export interface RecoverOptions {
  /**
   * How long a journal younger than this (by its id) is left to the
   * process that is applying it before this host rolls it forward, in
   * milliseconds. Default 10 000 (the Go host's lock wait): Kessho's calls
   * take milliseconds, so an older journal is a crash's.
   */
  lockWaitMs?: number;
  /** The clock, for tests. */
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

/** newID returns a journal id that sorts by creation time. */
export function newID(now: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  const stamp =
    p(now.getUTCFullYear(), 4) +
    p(now.getUTCMonth() + 1) +
    p(now.getUTCDate()) +
    "T" +
    p(now.getUTCHours()) +
    p(now.getUTCMinutes()) +
    p(now.getUTCSeconds()) +
    "." +
    p(now.getUTCMilliseconds(), 3) +
    "000000Z";
  return stamp + "-" + randomHex(4);
}

/** idTime returns the creation time an id carries, in ms, or null. */
export function idTime(id: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})\.(\d{3})\d{6}Z-/.exec(id);
  if (m === null) return null;
  const [, y, mo, d, h, mi, s, ms] = m.map(Number) as number[];
  return Date.UTC(y!, mo! - 1, d!, h!, mi!, s!, ms!);
}

/** writeJournal makes p the vault's journal (temporary name, then renamed into place). */
export async function writeJournal(v: VaultPort, p: Plan): Promise<Journal> {
  const now = new Date();
  const j: Journal = { version: journalVersion, id: newID(now), created: now.toISOString(), plan: p };
  const data =
    '{"version":1,"id":' +
    JSON.stringify(j.id) +
    ',"created":' +
    JSON.stringify(j.created) +
    ',"plan":[' +
    p.map(opJSON).join(",") +
    "]}";
  const tmp = join(journalDir, tempPrefix + randomHex(8));
  try {
    await v.state.write(tmp, data);
    await v.state.rename(tmp, join(journalDir, j.id + ".json"));
  } catch (err) {
    await v.state.remove(tmp).catch(() => undefined);
    throw internal(`writing the journal: ${err instanceof Error ? err.message : String(err)}`);
  }
  return j;
}

/** markDone records op k of journal id as finished. */
export async function markDone(v: VaultPort, id: string, k: number): Promise<void> {
  await v.state.append(join(journalDir, id + ".done"), `${k}\n`);
}

/** removeJournal removes the journal, then its progress. */
export async function removeJournal(v: VaultPort, id: string): Promise<void> {
  try {
    await v.state.remove(join(journalDir, id + ".json"));
    await v.state.remove(join(journalDir, id + ".done"));
  } catch (err) {
    throw internal(`removing the journal: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * recoverJournals rolls forward every plan a crash left half-applied, oldest
 * first, as the Go host's Recover does: stray temporary files and progress
 * files without their journal are removed; each journal resumes at the
 * first op its progress does not list, skipping ops whose target already
 * holds the new state. A journal younger than lockWaitMs is first given
 * that long to disappear (another host applying it).
 */
export async function recoverJournals(v: VaultPort, opts: RecoverOptions = {}): Promise<void> {
  const wait = opts.lockWaitMs ?? 10_000;
  const nowMs = opts.nowMs ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let names = await v.state.list(journalDir);
  if (names === null) return;
  // Another host's plan in progress: let it finish, for lockWaitMs at most
  // (a clock set wrong must not make us wait for ever).
  const deadline = nowMs() + wait;
  for (;;) {
    const young = names.filter((n) => {
      if (!n.endsWith(".json") || n.startsWith(".")) return false;
      const t = idTime(n.slice(0, -5));
      return t !== null && nowMs() - t < wait;
    });
    if (young.length === 0 || nowMs() >= deadline) break;
    await sleep(100);
    names = (await v.state.list(journalDir)) ?? [];
  }
  names.sort(compareBytes);
  const ids: string[] = [];
  const jsons = new Set<string>();
  for (const n of names) {
    if (n.endsWith(".json") && !n.startsWith(".")) {
      const id = n.slice(0, -5);
      jsons.add(id);
      ids.push(id);
    }
  }
  for (const n of names) {
    const isDone = n.endsWith(".done");
    if (n.startsWith(tempPrefix) || (isDone && !jsons.has(n.slice(0, -5)))) {
      await v.state.remove(join(journalDir, n));
    }
  }
  for (const id of ids) await recoverOne(v, id);
}

async function recoverOne(v: VaultPort, id: string): Promise<void> {
  const name = join(journalDir, id + ".json");
  const bad = (why: string) =>
    new HostError(
      "INTERNAL",
      `internal error: the journal ${name} of an interrupted change ${why}; the vault may be half-way: look at the journal, finish or undo the change by hand, then delete the journal`,
      `erreur interne : le journal ${name} d'une modification interrompue ${why} ; le coffre est peut-être à mi-chemin : lisez le journal, terminez ou défaites la modification à la main, puis supprimez le journal`,
      { path: name },
    );
  let data: string | null;
  try {
    data = await v.state.read(name);
  } catch (err) {
    throw bad(`cannot be read (${err instanceof Error ? err.message : String(err)})`);
  }
  if (data === null) return; // finished by someone else since the listing
  let j: Journal;
  try {
    j = JSON.parse(data) as Journal;
  } catch (err) {
    throw bad(`is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (j === null || typeof j !== "object") throw bad("is not valid JSON (not an object)");
  const version = typeof j.version === "number" ? j.version : 0;
  if (version !== journalVersion) throw bad(`has version ${version}, and this Kessho reads version ${journalVersion}`);
  if (j.id !== id) throw bad(`names itself ${goQuote(String(j.id ?? ""))}`);
  if (j.plan === null || j.plan === undefined) j.plan = [];
  const invalid = validatePlan(j.plan);
  if (invalid !== null) throw bad(`holds an invalid plan (${invalid})`);
  const done = await progress(v, id);
  if (done > j.plan.length) throw bad(`lists ${done} ops done out of ${j.plan.length}`);
  await rewriteProgress(v, id, done);
  await removeTemps(v, j.plan.slice(done));
  await run(v, j, done);
}

/** progress returns how many ops the .done file lists, as its leading lines "0", "1", …. */
async function progress(v: VaultPort, id: string): Promise<number> {
  const data = await v.state.read(join(journalDir, id + ".done"));
  if (data === null) return 0;
  const lines = data.split("\n");
  lines.pop(); // after the last newline: nothing, or a torn line
  let done = 0;
  for (const line of lines) {
    if (line !== String(done)) break;
    done++;
  }
  return done;
}

/** rewriteProgress cuts the .done file to its first done lines (a torn line goes). */
async function rewriteProgress(v: VaultPort, id: string, done: number): Promise<void> {
  const p = join(journalDir, id + ".done");
  const want = Array.from({ length: done }, (_, i) => `${i}\n`).join("");
  const have = await v.state.read(p);
  if (have !== null && have !== want) await v.state.write(p, want);
}

/** removeTemps removes temporary files the Go host may have left beside its writes' targets. */
async function removeTemps(v: VaultPort, ops: Plan): Promise<void> {
  const seen = new Set<string>();
  for (const op of ops) {
    if (op.op !== "write") continue;
    const dir = parent(op.path!);
    if (seen.has(dir)) continue;
    seen.add(dir);
    if ((dir === "." ? "folder" : await v.kind(dir)) !== "folder") continue;
    const { files } = await v.list(dir);
    for (const n of files) if (n.startsWith(tempPrefix)) await v.state.remove(join(dir, n));
  }
}
