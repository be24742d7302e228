// Go-compatible JSON: the Go host prints answers with encoding/json, and the
// plugin must print the same bytes. Answers from the core are copied
// verbatim (rawFields); only the host's own refusals are encoded here, the
// way encoding/json encodes them.

const hex = "0123456789abcdef";

/**
 * goString encodes s as encoding/json does: HTML-safe (<, > and & as
 * \u003c, \u003e, \u0026), U+2028 and U+2029 escaped, \b \f \n \r \t as
 * short escapes, other control characters as \u00XX, and lone surrogates
 * (which Go would have read as invalid UTF-8) as \ufffd.
 */
export function goString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += s[i]! + s[i + 1]!;
        i++;
        continue;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      out += "\\ufffd";
      continue;
    }
    switch (c) {
      case 0x22:
        out += '\\"';
        continue;
      case 0x5c:
        out += "\\\\";
        continue;
      case 0x08:
        out += "\\b";
        continue;
      case 0x0c:
        out += "\\f";
        continue;
      case 0x0a:
        out += "\\n";
        continue;
      case 0x0d:
        out += "\\r";
        continue;
      case 0x09:
        out += "\\t";
        continue;
      case 0x3c:
      case 0x3e:
      case 0x26:
      case 0x2028:
      case 0x2029:
        out += "\\u" + c.toString(16).padStart(4, "0");
        continue;
    }
    if (c < 0x20) {
      out += "\\u00" + hex[c >> 4]! + hex[c & 15]!;
      continue;
    }
    out += s[i]!;
  }
  return out + '"';
}

/** A value goValue can encode: what the host's refusals carry. */
export type GoValue = string | number | boolean | null | GoValue[] | { [key: string]: GoValue };

/**
 * goValue encodes v as encoding/json encodes the Go value it stands for:
 * map keys sorted (by bytes), integers without exponent, strings with
 * goString.
 */
export function goValue(v: GoValue): string {
  if (v === null) return "null";
  if (typeof v === "string") return goString(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error(`goValue: ${v} is not a JSON number`);
    if (Number.isInteger(v) && Math.abs(v) < 1e21) return v.toFixed(0);
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) return "[" + v.map(goValue).join(",") + "]";
  const keys = Object.keys(v).sort(compareBytes);
  return "{" + keys.map((k) => goString(k) + ":" + goValue(v[k]!)).join(",") + "}";
}

/**
 * compareBytes orders strings as Go's sort.Strings does: by their UTF-8
 * bytes, which is code point order (JavaScript's < compares UTF-16 units,
 * which differs for characters above U+FFFF).
 */
export function compareBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/**
 * rawFields returns the top-level members of a JSON object as their raw
 * text, exactly as written: the core's result and error are copied into
 * the printed answer byte for byte. It throws on text that is not one
 * JSON object.
 */
export function rawFields(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = skipWS(text, 0);
  if (text[i] !== "{") throw new Error("rawFields: not a JSON object");
  i = skipWS(text, i + 1);
  if (text[i] === "}") return out;
  for (;;) {
    if (text[i] !== '"') throw new Error(`rawFields: expected a key at offset ${i}`);
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipWS(text, keyEnd);
    if (text[i] !== ":") throw new Error(`rawFields: expected ':' at offset ${i}`);
    i = skipWS(text, i + 1);
    const end = skipValue(text, i);
    out.set(key, text.slice(i, end));
    i = skipWS(text, end);
    if (text[i] === ",") {
      i = skipWS(text, i + 1);
      continue;
    }
    if (text[i] === "}") return out;
    throw new Error(`rawFields: expected ',' or '}' at offset ${i}`);
  }
}

function skipWS(s: string, i: number): number {
  while (i < s.length && (s[i] === " " || s[i] === "\n" || s[i] === "\r" || s[i] === "\t")) i++;
  return i;
}

function skipString(s: string, i: number): number {
  for (i++; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === '"') return i + 1;
  }
  throw new Error("rawFields: unterminated string");
}

function skipValue(s: string, i: number): number {
  const c = s[i];
  if (c === '"') return skipString(s, i);
  if (c === "{" || c === "[") {
    let depth = 0;
    for (; i < s.length; i++) {
      const d = s[i];
      if (d === '"') {
        i = skipString(s, i) - 1;
      } else if (d === "{" || d === "[") {
        depth++;
      } else if (d === "}" || d === "]") {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    throw new Error("rawFields: unterminated value");
  }
  let j = i;
  while (j < s.length && !/[\s,}\]]/.test(s[j]!)) j++;
  if (j === i) throw new Error(`rawFields: expected a value at offset ${i}`);
  return j;
}

/**
 * goQuote is Go's strconv.Quote (%q) for the strings the host's messages
 * quote: paths and names. Printable characters stay; the rest are escaped.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case "\\":
        out += "\\\\";
        continue;
      case "\x07":
        out += "\\a";
        continue;
      case "\b":
        out += "\\b";
        continue;
      case "\f":
        out += "\\f";
        continue;
      case "\n":
        out += "\\n";
        continue;
      case "\r":
        out += "\\r";
        continue;
      case "\t":
        out += "\\t";
        continue;
      case "\v":
        out += "\\v";
        continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      out += "\ufffd"; // Go would have read it as U+FFFD, which it prints as is
    } else if (c < 0x20 || c === 0x7f) {
      out += "\\x" + hex[c >> 4]! + hex[c & 15]!;
    } else if ((c >= 0x80 && c < 0xa0) || c === 0xad || c === 0x2028 || c === 0x2029 || c === 0xfeff) {
      out += "\\u" + c.toString(16).padStart(4, "0");
    } else {
      out += ch;
    }
  }
  return out + '"';
}
