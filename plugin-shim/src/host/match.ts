// Go's path.Match on one name, for Match needs (core/vault.Match): `*` any
// run of characters but "/", `?` one such character, `[…]` a class (ranges,
// `^` negation), `\` escapes. A malformed pattern matches nothing (Go
// reports an error, which core/vault.Match.Selects treats as no match).

/** selects reports whether a Match's patterns select the entry name. */
export function selects(patterns: readonly string[], name: string): boolean {
  for (const p of patterns) {
    const neg = p.startsWith("!");
    const ok = pathMatch(neg ? p.slice(1) : p, name);
    if (ok !== null && ok !== neg) return true;
  }
  return false;
}

/** pathMatch is Go's path.Match: true, false, or null for a bad pattern. */
export function pathMatch(pattern: string, name: string): boolean | null {
  const pat = Array.from(pattern);
  const str = Array.from(name);
  // Validate the whole pattern first, as Go does before it can answer.
  if (!valid(pat)) return null;
  return matchAt(pat, 0, str, 0);
}

function valid(p: string[]): boolean {
  for (let i = 0; i < p.length; i++) {
    if (p[i] === "\\") {
      if (++i >= p.length) return false;
    } else if (p[i] === "[") {
      const end = classEnd(p, i);
      if (end < 0) return false;
      i = end;
    }
  }
  return true;
}

/**
 * parseClass reads the class opening at p[i] ("[") the way Go's path.Match
 * does: an optional "^", then one or more ranges "lo" or "lo-hi" (each
 * bound a character other than "-" and "]", or escaped by "\\"), then "]".
 * It returns the index of the closing "]" and the ranges, or null when the
 * class is malformed.
 */
function parseClass(p: string[], i: number): { end: number; neg: boolean; ranges: [number, number][] } | null {
  let j = i + 1;
  const neg = p[j] === "^";
  if (neg) j++;
  const ranges: [number, number][] = [];
  const esc = (): number | null => {
    let c = p[j];
    if (c === undefined || c === "-" || c === "]") return null;
    if (c === "\\") {
      c = p[++j];
      if (c === undefined) return null;
    }
    j++;
    return c.codePointAt(0) ?? null;
  };
  for (;;) {
    if (p[j] === "]" && ranges.length > 0) return { end: j, neg, ranges };
    const lo = esc();
    if (lo === null) return null;
    let hi = lo;
    if (p[j] === "-") {
      j++;
      const h = esc();
      if (h === null) return null;
      hi = h;
    }
    ranges.push([lo, hi]);
  }
}

function classEnd(p: string[], i: number): number {
  return parseClass(p, i)?.end ?? -1;
}

function inClass(p: string[], start: number, c: string): boolean {
  const cls = parseClass(p, start);
  if (cls === null) return false;
  const cc = c.codePointAt(0) ?? -1;
  const hit = cls.ranges.some(([lo, hi]) => lo <= cc && cc <= hi);
  return hit !== cls.neg;
}

function matchAt(p: string[], pi: number, s: string[], si: number): boolean {
  while (pi < p.length) {
    const c = p[pi];
    if (c === "*") {
      while (p[pi] === "*") pi++;
      if (pi === p.length) return !s.slice(si).includes("/");
      for (let k = si; k <= s.length; k++) {
        if (matchAt(p, pi, s, k)) return true;
        if (s[k] === "/") return false;
      }
      return false;
    }
    if (si >= s.length) return false;
    if (c === "?") {
      if (s[si] === "/") return false;
    } else if (c === "[") {
      const end = classEnd(p, pi);
      const ch = s[si];
      if (ch === undefined || ch === "/" || !inClass(p, pi, ch)) return false;
      pi = end;
    } else if (c === "\\") {
      pi++;
      if (p[pi] !== s[si]) return false;
    } else if (c !== s[si]) {
      return false;
    }
    pi++;
    si++;
  }
  return si === s.length;
}
