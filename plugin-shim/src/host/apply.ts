// The ops of a step on the vault (docs/HOSTS.md, "Applying a plan", "The
// journal and recovery"): each one method of the VaultPort, whose
// vault.process keeps the last-instant re-check of a write. What to do
// and when is the core's (core/hostlogic.Step); call.ts runs the loop.

import { fromBase64, messageOf, sha256Hex, Stale, toBase64, type VaultPort } from "./port";
import { owned } from "./journal";
import type { IO, IOResult } from "./step";

/** The ops of a call's own (its snapshot and search index: call.ts's CallState). */
export interface OwnOps {
  owns(io: IO): boolean;
  run(io: IO): Promise<IOResult>;
}

/** execute runs one op (own's when it owns it); what it throws is its result's err (Stale: the re-check that refused it). */
export async function execute(v: VaultPort, io: IO, sleep: (ms: number) => Promise<void>, own?: OwnOps): Promise<IOResult> {
  try {
    if (own?.owns(io) === true) return await own.run(io);
    return await (io.op.startsWith("state_") || io.op === "wait" || io.op === "own" || io.op === "disown" ? runState(v, io, sleep) : runVault(v, io));
  } catch (err) {
    const e: IOResult["err"] = { message: messageOf(err) };
    if (err instanceof Stale) Object.assign(e, { stale: err.why, path: err.path });
    if (diskFull(err)) e.disk_full = true;
    return { err: e };
  }
}

/** runVault runs an op on the vault's files. */
async function runVault(v: VaultPort, io: IO): Promise<IOResult> {
  const p = io.path!;
  switch (io.op) {
    case "look":
      return { v: await stateOf(v, p, io.hash !== undefined) };
    case "kind":
      return { v: (await v.kind(p)) ?? "absent" };
    case "read": {
      const bytes = await v.readBytes(p);
      return { v: "sha256:" + sha256Hex(bytes), data: toBase64(bytes) };
    }
    case "modify":
      return { text: await v.modify(p, io.hash!, io.text!) };
    case "create":
      await v.create(p, io.text ?? fromBase64(io.data ?? ""));
      return {};
    case "remove":
      await v.remove(p);
      return {};
    case "move":
      await v.move(p, io.to!);
      return {};
    case "mkdir":
      return { list: await v.mkdir(p) };
    case "rmdir":
      await v.rmdir(p);
      return {};
    case "list":
      return { list: (await v.list(p)).files };
    case "undo_way": {
      const bad = v.undoWay === undefined ? null : await v.undoWay(p, io.dir === true);
      return bad === null ? {} : { v: JSON.stringify({ at: bad.at, folder: bad.folder }) };
    }
  }
  throw new Error(`kessho: the core asked for an op this host does not know (${io.op})`);
}

/** runState runs an op on Kessho's own files, or of the host itself (a wait, the journals it owns). */
async function runState(v: VaultPort, io: IO, sleep: (ms: number) => Promise<void>): Promise<IOResult> {
  const p = io.path ?? "";
  switch (io.op) {
    case "state_list":
      return { v: JSON.stringify((await v.state.list(p)) ?? []) };
    case "state_read": {
      const text = await v.state.read(p);
      return text === null ? { v: "absent" } : { text };
    }
    case "state_write":
      await v.state.write(p, io.text!);
      return {};
    case "state_append":
      await v.state.append(p, io.text!);
      return {};
    case "state_remove":
      await v.state.remove(p);
      return {};
    case "state_rename":
      await v.state.rename(p, io.to!);
      return {};
    case "wait":
      await sleep(io.ms ?? 0);
      return {};
    case "own":
    case "disown":
      owned(p, io.op === "own");
      return {};
  }
  throw new Error(`kessho: the core asked for an op this host does not know (${io.op})`);
}

/** stateOf returns what is at p as the core reads it: "absent", "folder", "file", or a file's "sha256:<hex>" when hash. */
async function stateOf(v: VaultPort, p: string, hash: boolean): Promise<string> {
  const kind = await v.kind(p);
  if (kind === null) return "absent";
  if (kind === "folder") return "folder";
  return hash ? "sha256:" + sha256Hex(await v.readBytes(p)) : "file";
}

/** diskFull tells whether err is a full disk's (Node's ENOSPC, or EDQUOT: the quota used up), as Obsidian's desktop adapter throws it. */
function diskFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "ENOSPC" || code === "EDQUOT";
}
