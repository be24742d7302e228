// A hit's line as a person reads it: its inline Markdown rendered (code,
// emphasis, links, wikilinks), its block marks (heading, list, quote, task)
// dropped, and the words mem_search matched highlighted. Pure text
// handling, no HTML parsing: every piece shown is a slice of the line, so
// the answer's marks (UTF-16 offsets in the line) apply as they are, and
// note text only ever reaches the DOM as text.

/** The inline styles a piece can have, outermost first. */
export type Style = "code" | "strong" | "em" | "del" | "hl" | "link";

/** A piece of the line shown: line.slice(from, to), in styles. */
export interface Piece {
  from: number;
  to: number;
  styles: Style[];
}

/** The block marks at a line's start: headings, quotes, list bullets and numbers, task boxes. */
const blockMark = /^(?:\s*(?:#{1,6}\s+|>\s?|[-*+]\s+(?:\[[ xX/-]\]\s+)?|\d{1,9}[.)]\s+(?:\[[ xX/-]\]\s+)?))+/;

/** Delimiters of inline spans: each opens and closes a style around parsed content. */
const pairs: [string, Style][] = [
  ["**", "strong"],
  ["__", "strong"],
  ["~~", "del"],
  ["==", "hl"],
  ["*", "em"],
  ["_", "em"],
];

const punct = /[!-/:-@[-`{-~]/;
const wordChar = /[\p{L}\p{N}]/u;

/** pieces cuts line into what a reader sees of it. */
export function pieces(line: string): Piece[] {
  const out: Piece[] = [];
  const start = blockMark.exec(line)?.[0].length ?? 0;
  inline(line, start, line.length, [], out);
  return out;
}

/** inline parses s[from, to) in styles, appending its pieces to out. */
function inline(s: string, from: number, to: number, styles: Style[], out: Piece[]): void {
  let text = from; // where the pending plain text began
  let i = from;
  const flush = (end: number) => {
    if (end > text) push(out, text, end, styles);
  };
  while (i < to) {
    const span = spanAt(s, i, to, styles, out, flush);
    if (span > i) {
      i = text = span;
    } else i++;
  }
  flush(to);
}

/**
 * spanAt parses the inline span that opens at s[i], if any: it flushes the
 * plain text before it, appends the span's pieces and returns where it
 * ends; else it returns i.
 */
function spanAt(s: string, i: number, to: number, styles: Style[], out: Piece[], flush: (end: number) => void): number {
  const c = s[i]!;
  if (c === "\\" && i + 1 < to && punct.test(s[i + 1]!)) {
    flush(i);
    push(out, i + 1, i + 2, styles);
    return i + 2;
  }
  if (c === "`") return code(s, i, to, styles, out, flush);
  if (c === "[" || (c === "!" && s[i + 1] === "[")) return link(s, i, to, styles, out, flush);
  if (c === "<") {
    const tag = /^<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/.exec(s.slice(i, to));
    if (tag === null) return i;
    flush(i);
    return i + tag[0].length;
  }
  if (c === "%" && s.startsWith("%%", i)) {
    const end = s.indexOf("%%", i + 2);
    if (end < 0 || end + 2 > to) return i;
    flush(i);
    return end + 2;
  }
  return emphasis(s, i, to, styles, out, flush);
}

/** code: a run of backticks up to the same run; its content verbatim. */
function code(s: string, i: number, to: number, styles: Style[], out: Piece[], flush: (end: number) => void): number {
  let n = 0;
  while (s[i + n] === "`") n++;
  const fence = "`".repeat(n);
  let end = s.indexOf(fence, i + n);
  while (end >= 0 && s[end + n] === "`") end = s.indexOf(fence, end + n + 1);
  if (end < 0 || end + n > to) return i;
  flush(i);
  push(out, i + n, end, [...styles, "code"]);
  return end + n;
}

/**
 * link: [[target]], [[target|alias]] (the alias shown), [text](url) (the
 * text shown), each maybe an embed (!); a footnote mark [^1] is dropped.
 */
function link(s: string, i: number, to: number, styles: Style[], out: Piece[], flush: (end: number) => void): number {
  const at = s[i] === "!" ? i + 1 : i;
  if (s.startsWith("[[", at)) {
    const end = s.indexOf("]]", at + 2);
    if (end < 0 || end + 2 > to) return i;
    const bar = s.indexOf("|", at + 2);
    flush(i);
    push(out, bar >= 0 && bar < end ? bar + 1 : at + 2, end, [...styles, "link"]);
    return end + 2;
  }
  const close = s.indexOf("]", at + 1);
  if (close < 0 || close >= to) return i;
  if (s[at + 1] === "^") {
    flush(i);
    return close + 1;
  }
  if (s[close + 1] !== "(") return i;
  const paren = closing(s, close + 1, to);
  if (paren < 0) return i;
  flush(i);
  inline(s, at + 1, close, [...styles, "link"], out);
  return paren + 1;
}

/** closing is where the parenthesis open at s[at] closes (nested ones balanced) before to, or -1. */
function closing(s: string, at: number, to: number): number {
  let depth = 0;
  for (let k = at; k < to; k++) {
    if (s[k] === "(") depth++;
    else if (s[k] === ")" && --depth === 0) return k;
  }
  return -1;
}

/** emphasis: **, __, ~~, ==, * or _ up to the same delimiter, its content parsed in the style. */
function emphasis(s: string, i: number, to: number, styles: Style[], out: Piece[], flush: (end: number) => void): number {
  for (const [d, style] of pairs) {
    if (!s.startsWith(d, i) || styles.includes(style)) continue;
    // _ inside a word (snake_case) is a letter, as in CommonMark; so is a delimiter before a space.
    if (d[0] === "_" && i > 0 && wordChar.test(s[i - 1]!)) continue;
    const inner = i + d.length;
    if (inner >= to || /\s/.test(s[inner]!)) continue;
    let end = s.indexOf(d, inner + 1);
    while (end >= 0 && end + d.length <= to && (/\s/.test(s[end - 1]!) || (d[0] === "_" && wordChar.test(s[end + d.length] ?? "")))) {
      end = s.indexOf(d, end + 1);
    }
    if (end < 0 || end + d.length > to) continue;
    flush(i);
    inline(s, inner, end, [...styles, style], out);
    return end + d.length;
  }
  return i;
}

/** push appends s[from, to) in styles, joined to the previous piece when it continues it. */
function push(out: Piece[], from: number, to: number, styles: Style[]): void {
  if (to <= from) return;
  const last = out.at(-1);
  if (last !== undefined && last.to === from && last.styles.join() === styles.join()) last.to = to;
  else out.push({ from, to, styles });
}

/** A run of a piece: line.slice(from, to), matched or not. */
export interface Run {
  from: number;
  to: number;
  matched: boolean;
}

/** runs cuts a piece at the marks' bounds: each run is wholly in a mark or wholly out of every mark. */
export function runs(p: Piece, marks: readonly (readonly [number, number])[]): Run[] {
  const cuts = new Set([p.from, p.to]);
  for (const [a, b] of marks) {
    if (a > p.from && a < p.to) cuts.add(a);
    if (b > p.from && b < p.to) cuts.add(b);
  }
  const at = [...cuts].sort((x, y) => x - y);
  const out: Run[] = [];
  for (let k = 0; k + 1 < at.length; k++) {
    const from = at[k]!;
    const to = at[k + 1]!;
    out.push({ from, to, matched: marks.some(([a, b]) => a <= from && to <= b) });
  }
  return out;
}

/** The element of each style: code, strong, em, del as HTML has them; Obsidian's highlight and a link as spans. */
const tags: Record<Style, [string, string]> = {
  code: ["code", "kessho-md-code"],
  strong: ["strong", "kessho-md-strong"],
  em: ["em", "kessho-md-em"],
  del: ["del", "kessho-md-del"],
  hl: ["span", "kessho-md-hl"],
  link: ["span", "kessho-md-link"],
};

/** The class of a matched word's span. */
export const matchClass = "kessho-match";

/**
 * renderExcerpt draws line into el, its inline Markdown rendered and the
 * words at marks in spans of class kessho-match. Text only: no note text
 * is ever parsed as HTML.
 */
export function renderExcerpt(el: HTMLElement, line: string, marks: readonly (readonly [number, number])[] = []): void {
  for (const p of pieces(line)) {
    let into = el;
    for (const st of p.styles) {
      const [tag, cls] = tags[st];
      into = into.createEl(tag as "span", { cls });
    }
    for (const r of runs(p, marks)) {
      into.createSpan({ cls: r.matched ? matchClass : undefined, text: line.slice(r.from, r.to) });
    }
  }
}

/** plainExcerpt is the text renderExcerpt shows of line. */
export function plainExcerpt(line: string): string {
  return pieces(line)
    .map((p) => line.slice(p.from, p.to))
    .join("");
}
