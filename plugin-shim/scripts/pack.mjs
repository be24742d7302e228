// pack: bytes as text at 8/7 of their size (base64 costs 4/3) that both a
// JavaScript string literal and a block comment can hold, for the wasm core
// inside main.js (a comment there: see scripts/build.mjs).
//
// The bytes are read as a stream of 7-bit groups. A group becomes the
// character of that code (one byte of UTF-8), unless it is one a string
// literal cannot hold raw (NUL, LF, CR, '"', '\') or '/' (so that "*/",
// the end of a comment, never occurs); such a group and the
// next one become a single character from U+0080 to U+03FF (two bytes of
// UTF-8): ((index of the group in FORBIDDEN) + 1) << 7 | next group.
// This is base-122's idea. src/engine/unpack.ts decodes it.

export const FORBIDDEN = [0x00, 0x0a, 0x0d, 0x22, 0x5c, 0x2f];

/** pack returns the string for bytes (a Uint8Array). */
export function pack(bytes) {
  const groups = [];
  let acc = 0;
  let n = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    n += 8;
    while (n >= 7) {
      n -= 7;
      groups.push((acc >> n) & 0x7f);
    }
    acc &= (1 << n) - 1;
  }
  if (n > 0) groups.push((acc << (7 - n)) & 0x7f);
  const out = [];
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i];
    const f = FORBIDDEN.indexOf(g);
    if (f < 0) {
      out.push(String.fromCharCode(g));
    } else {
      const next = i + 1 < groups.length ? groups[++i] : 0;
      out.push(String.fromCharCode(((f + 1) << 7) | next));
    }
  }
  return out.join("");
}
