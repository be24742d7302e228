// The journal: the same format as the Go host (host/vaultfs/journal.go), so
// that either host can finish or resolve what the other began.
//
//	.kessho/journal/<id>.json      {"version":2,"id":"<id>","created":"<RFC 3339>","plan":[<ops>],
//	                                "states":[{"before":"…","after":"…"}, …one per op]}
//	.kessho/journal/<id>.done      one line per finished op: its index, "0\n1\n2\n…"
//	.kessho/journal/<id>.conflict  {"op":k,"path":"<target>","copy":"<conflict copy>"}:
//	                               recovery stopped at op k (see rollForward in apply.ts)
//
// Each op's states are what its target holds before and after it lands
// (statesOf); version 1 journals carry none and get them from their plan.
// The id sorts by creation time (UTC "20060102T150405.000000000Z" and a
// random suffix); journals are replayed in id order. A journal is written
// under a temporary name and renamed into place, so a <id>.json that exists
// is complete.

import { compareBytes, goQuote, goString } from "./gojson";
import { HostError, internal } from "./fault";
import { ABSENT, checkPath, join, opJSON, parent, validatePlan, type Plan } from "./plan";
import { textHash, type VaultPort } from "./port";
import { rollForward } from "./apply";

export const journalDir = ".kessho/journal";
export const tempPrefix = ".kessho-tmp-";
const journalVersion = 2;

/** What an op's target holds before and after the op: "absent", "sha256:<hex>", "present" or "folder". */
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

/** A stop of recovery on a conflict: <id>.conflict. */
export interface Marker {
  op: number;
  path: string;
  copy: string;
}

/**
 * statesOf returns each op's before and after states (journal-v2):
 * write: expect, then the text's hash; delete: expect, then absent;
 * check: expect both; move (its target "to"): absent, then present;
 * mkdir: absent, then folder.
 */
export function statesOf(p: Plan): OpState[] {
  return p.map((op) => {
    switch (op.op) {
      case "write":
        return { before: op.expect!, after: textHash(op.text!) };
      case "delete":
        return { before: op.expect!, after: ABSENT };
      case "check":
        return { before: op.expect!, after: op.expect! };
      case "move":
        return { before: ABSENT, after: "present" };
      case "mkdir":
        return { before: ABSENT, after: "folder" };
    }
  });
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
  const j: Journal = { version: journalVersion, id: newID(now), created: now.toISOString(), plan: p, states: statesOf(p) };
  const data =
    '{"version":2,"id":' +
    JSON.stringify(j.id) +
    ',"created":' +
    JSON.stringify(j.created) +
    ',"plan":[' +
    p.map(opJSON).join(",") +
    '],"states":[' +
    j.states.map((s) => '{"before":' + goString(s.before) + ',"after":' + goString(s.after) + "}").join(",") +
    "]}";
  try {
    await writeState(v, join(journalDir, j.id + ".json"), data);
  } catch (err) {
    throw internal(`writing the journal: ${err instanceof Error ? err.message : String(err)}`);
  }
  own.add(j.id);
  return j;
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

/** writeMarker records that recovery of journal id stopped on a conflict (<id>.conflict, Go's JSON). */
export async function writeMarker(v: VaultPort, id: string, m: Marker): Promise<void> {
  const data = '{"op":' + String(m.op) + ',"path":' + goString(m.path) + ',"copy":' + goString(m.copy) + "}";
  try {
    await writeState(v, join(journalDir, id + ".conflict"), data);
  } catch (err) {
    throw internal(`writing the conflict of journal ${id}: ${err instanceof Error ? err.message : String(err)}`);
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
    throw internal(`removing the journal: ${err instanceof Error ? err.message : String(err)}`);
  }
  own.delete(id);
}

/**
 * recoverJournals rolls forward every plan a crash left half-applied, oldest
 * first, as the Go host's Recover does: stray temporary files, and progress
 * and conflict files without their journal, are removed; each journal
 * resumes at the first op its progress does not list (rollForward in
 * apply.ts: an op lands only when its target holds its before-state; an
 * edit made since is kept and answered RECOVERY_CONFLICT).
 *
 * A journal another host wrote less than lockWaitMs ago is first given
 * that long to disappear (that host may be applying it at this instant:
 * rolling it forward beside it would race its re-checks). A journal this
 * plugin wrote (its own apply failed half-way) and one stopped on a
 * conflict are nobody's work in progress: they are finished at once.
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
    const all = new Set(names);
    const young = names.filter((n) => {
      if (!n.endsWith(".json") || n.startsWith(".")) return false;
      const id = n.slice(0, -5);
      if (own.has(id) || all.has(id + ".conflict")) return false;
      const t = idTime(id);
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
    const orphan = (n.endsWith(".done") && !jsons.has(n.slice(0, -5))) || (n.endsWith(".conflict") && !jsons.has(n.slice(0, -9)));
    if (n.startsWith(tempPrefix) || orphan) {
      await v.state.remove(join(journalDir, n));
    }
  }
  for (const id of ids) await recoverOne(v, id, nowMs);
}

async function recoverOne(v: VaultPort, id: string, nowMs: () => number): Promise<void> {
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
  if (version !== 1 && version !== 2) throw bad(`has version ${version}, and this Kessho reads versions 1 and 2`);
  if (j.id !== id) throw bad(`names itself ${goQuote(String(j.id ?? ""))}`);
  if (j.plan === null || j.plan === undefined) j.plan = [];
  const invalid = validatePlan(j.plan);
  if (invalid !== null) throw bad(`holds an invalid plan (${invalid})`);
  const want = statesOf(j.plan);
  const got: unknown = j.states ?? null;
  if (version === 1 && got !== null) throw bad("has version 1 and states");
  if (version === 2) {
    const list = Array.isArray(got) ? (got as (OpState | null)[]) : [];
    const same =
      (got === null || Array.isArray(got)) &&
      list.length === want.length &&
      list.every((s, k) => s !== null && typeof s === "object" && s.before === want[k]!.before && s.after === want[k]!.after);
    if (!same) throw bad("holds states that do not match its plan");
  }
  j.states = want;
  const done = await progress(v, id);
  if (done > j.plan.length) throw bad(`lists ${done} ops done out of ${j.plan.length}`);
  let marker = await readMarker(v, id, bad);
  if (marker !== null) {
    const op = j.plan[marker.op];
    if (marker.op > done || marker.op < 0 || op === undefined || marker.path !== (op.op === "move" ? op.from : op.path) || checkPath(marker.copy) !== null) {
      throw bad(`has a conflict record that does not match its progress (op ${marker.op}, path ${goQuote(marker.path)}, copy ${goQuote(marker.copy)})`);
    }
    if (marker.op < done) {
      // recorded done before its record was removed (a crash): the record goes
      await removeMarker(v, id);
      marker = null;
    }
  }
  await rewriteProgress(v, id, done);
  await removeTemps(v, j.plan.slice(done));
  await rollForward(v, j, done, marker, nowMs);
}

/** readMarker returns journal id's <id>.conflict, or null. */
async function readMarker(v: VaultPort, id: string, bad: (why: string) => HostError): Promise<Marker | null> {
  const p = join(journalDir, id + ".conflict");
  const data = await v.state.read(p);
  if (data === null) return null;
  let m: Marker;
  try {
    m = JSON.parse(data) as Marker;
  } catch (err) {
    throw bad(`has a conflict record that is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (m === null || typeof m !== "object") throw bad("has a conflict record that is not valid JSON (not an object)");
  // Go decodes missing fields as zero values
  return { op: Number.isInteger(m.op) ? m.op : 0, path: typeof m.path === "string" ? m.path : "", copy: typeof m.copy === "string" ? m.copy : "" };
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
