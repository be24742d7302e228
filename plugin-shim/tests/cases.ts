// Conformance cases (testdata/cases/*.txtar), parsed as the Go side parses
// them (host/internal/conformance/cases.go and rogpeppe/go-internal/txtar): the same
// sections, the same [crlf,cr,bom,noeol,latin1] flags, answer.json stored
// indented and compacted as Go's json.Compact does. Pure: runs in Node and
// in the browser.

export interface TxtarFile {
  name: string;
  data: string;
}

/** parseTxtar parses a txtar archive as Go's txtar.Parse does. */
export function parseTxtar(text: string): { comment: string; files: TxtarFile[] } {
  const files: TxtarFile[] = [];
  let [comment, name, rest] = findMarker(text);
  while (name !== "") {
    const [data, next, after] = findMarker(rest);
    files.push({ name, data });
    name = next;
    rest = after;
  }
  return { comment, files };
}

function findMarker(data: string): [string, string, string] {
  let i = 0;
  for (;;) {
    const [name, after] = isMarker(data.slice(i));
    if (name !== "") return [data.slice(0, i), name, after];
    const j = data.indexOf("\n-- ", i);
    if (j < 0) return [fixNL(data), "", ""];
    i = j + 1;
  }
}

function isMarker(data: string): [string, string] {
  if (!data.startsWith("-- ")) return ["", ""];
  let line = data;
  let after = "";
  const i = data.indexOf("\n");
  if (i >= 0) {
    line = data.slice(0, i);
    after = data.slice(i + 1);
    if (line.endsWith("\r")) line = line.slice(0, -1);
  }
  if (!line.endsWith(" --") || line.length < 6) return ["", ""];
  return [line.slice(3, -3).trim(), after];
}

function fixNL(data: string): string {
  return data === "" || data.endsWith("\n") ? data : data + "\n";
}

const enc = new TextEncoder();

/** decodeSection applies a section name's [flags] to its data and returns the name without them. */
export function decodeSection(name: string, data: string): [string, Uint8Array] {
  const i = name.indexOf(" [");
  if (i < 0) return [name, enc.encode(data)];
  if (!name.endsWith("]")) throw new Error(`section ${name}: flags must end with ]`);
  const base = name.slice(0, i);
  let s = data;
  let latin1 = false;
  for (const raw of name.slice(i + 2, -1).split(",")) {
    switch (raw.trim()) {
      case "crlf":
        s = s.replaceAll("\n", "\r\n");
        break;
      case "cr":
        s = s.replaceAll("\n", "\r");
        break;
      case "bom":
        s = "\ufeff" + s;
        break;
      case "noeol":
        if (s.endsWith("\n")) s = s.slice(0, -1);
        if (s.endsWith("\r")) s = s.slice(0, -1);
        break;
      case "latin1":
        latin1 = true;
        break;
      default:
        throw new Error(`section ${name}: unknown flag ${raw}`);
    }
  }
  if (!latin1) return [base, enc.encode(s)];
  const out: number[] = [];
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c > 0xff) throw new Error(`section ${name}: ${ch} is not Latin-1`);
    out.push(c);
  }
  return [base, new Uint8Array(out)];
}

export interface Case {
  name: string;
  comment: string;
  tool: string;
  /** the arguments' JSON text as call.json writes it, or undefined */
  args: string | undefined;
  now: string;
  tz: string;
  lang: string;
  /** answer.json, compacted: the bytes a host prints */
  answer: string;
  vault: Map<string, Uint8Array>;
  want: Map<string, Uint8Array>;
}

/** parseCase reads one case from its txtar text. */
export function parseCase(name: string, text: string): Case {
  const a = parseTxtar(text);
  const c: Case = { name, comment: a.comment, tool: "", args: undefined, now: "", tz: "", lang: "", answer: "", vault: new Map(), want: new Map() };
  const want = new Map<string, Uint8Array>();
  const deleted: string[] = [];
  let haveCall = false;
  for (const f of a.files) {
    const [n, data] = decodeSection(f.name, f.data);
    if (n === "call.json") {
      const text = new TextDecoder().decode(data);
      const call = JSON.parse(text) as { tool?: string; args?: unknown; now?: string; tz?: string; lang?: string };
      c.tool = call.tool ?? "";
      c.now = call.now ?? "";
      c.tz = call.tz ?? "";
      c.lang = call.lang ?? "";
      // The arguments re-encoded: the same values for the core (no case holds a number JavaScript cannot).
      c.args = call.args === undefined || call.args === null ? undefined : JSON.stringify(call.args);
      haveCall = true;
    } else if (n === "answer.json") {
      c.answer = compactJSON(new TextDecoder().decode(data));
    } else if (n.startsWith("vault/")) {
      c.vault.set(n.slice(6), data);
    } else if (n.startsWith("want/")) {
      want.set(n.slice(5), data);
    } else if (n.startsWith("deleted/")) {
      deleted.push(n.slice(8));
    } else {
      throw new Error(`${name}: unknown section ${f.name}`);
    }
  }
  if (!haveCall) throw new Error(`${name}: no call.json`);
  c.want = new Map(c.vault);
  for (const [p, d] of want) c.want.set(p, d);
  for (const p of deleted) {
    if (!c.want.has(p)) throw new Error(`${name}: deleted/${p} is not in the vault`);
    c.want.delete(p);
  }
  return c;
}

/**
 * compactJSON removes the white space between the tokens of a JSON text,
 * as Go's json.Compact does: strings keep their bytes, escapes included
 * (JSON.stringify(JSON.parse(…)) would rewrite them), so the answer a host
 * prints is compared byte for byte. It throws on a string left open.
 */
export function compactJSON(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === "\\") out += text[++i] ?? "";
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch !== " " && ch !== "\t" && ch !== "\n" && ch !== "\r") {
      out += ch;
    }
  }
  if (inString) throw new Error("answer.json: a string is not closed");
  return out;
}

/** diffTrees describes how got differs from want, "" when equal byte for byte. */
export function diffTrees(got: Map<string, Uint8Array>, want: Map<string, Uint8Array>): string {
  const paths = [...new Set([...got.keys(), ...want.keys()])].sort();
  const dec = new TextDecoder();
  const out: string[] = [];
  for (const p of paths) {
    const g = got.get(p);
    const w = want.get(p);
    if (g === undefined) out.push(`missing ${p}`);
    else if (w === undefined) out.push(`unexpected ${p}:\n${JSON.stringify(dec.decode(g))}`);
    else if (g.length !== w.length || g.some((b, i) => b !== w[i])) {
      out.push(`${p}:\n got ${JSON.stringify(dec.decode(g))}\nwant ${JSON.stringify(dec.decode(w))}`);
    }
  }
  return out.join("\n");
}
