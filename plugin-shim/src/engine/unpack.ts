// unpack decodes the wasm core as main.js carries it: see scripts/pack.mjs
// (7-bit groups, 8/7 of the bytes' size, where base64 costs 4/3).

const forbidden = [0x00, 0x0a, 0x0d, 0x22, 0x5c, 0x2f];

/**
 * packedIn returns the packed module that main.js carries in a block
 * comment in f's body (scripts/build.mjs): a comment costs the page's
 * parser a quick scan, where a 2 MB string literal would block the UI
 * thread for tens of milliseconds when main.js loads.
 */
export function packedIn(f: () => unknown): string {
  const src = f.toString();
  const i = src.indexOf("/*");
  const j = src.lastIndexOf("*/");
  if (i < 0 || j < i) throw new Error("unpack: the packed module is missing from main.js");
  return src.slice(i + 2, j);
}

/** unpack returns the n bytes packed in s. */
export function unpack(s: string, n: number): Uint8Array {
  const out = new Uint8Array(n);
  let o = 0;
  let acc = 0;
  let bits = 0;
  const push = (g: number) => {
    acc = ((acc << 7) | g) & 0x7fff;
    bits += 7;
    if (bits >= 8) {
      bits -= 8;
      if (o < n) out[o++] = (acc >> bits) & 0xff;
    }
  };
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      push(c);
    } else {
      const f = (c >> 7) - 1;
      if (f < 0 || f >= forbidden.length) throw new Error(`unpack: bad character U+${c.toString(16)} at ${i}`);
      push(forbidden[f]!);
      push(c & 0x7f);
    }
  }
  if (o !== n) throw new Error(`unpack: ${o} bytes decoded, ${n} expected`);
  return out;
}
