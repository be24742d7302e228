// The realistic project both benches call (bench.ts in Node,
// chromium-page.ts in headless Chromium): a context of 60-odd decisions,
// its history and one archive.

export const context = "10-episodes/projects/alpha/context.md";

export const files: Record<string, string> = {
  [context]:
    "---\n# alpha's context\nslug: alpha\nkind: project\nphase: 'build'   # build → review\nsummary: Kessho's archive tool.\ntags: [project, \"kessho\"]\nlast-session: 2026-11-27T17:40:00+01:00\n---\n# Alpha — context\n\n## Decisions\n- Use the vault layout as it is.\n" +
    "- A decision line of some length, to make the note realistic.\n".repeat(60),
  "10-episodes/projects/alpha/history.md": "# History — alpha\n\n- [2026-11-27 17h40 — First](archives/2026-11-27-17h40-alpha-first.md)\n",
  "10-episodes/projects/alpha/archives/2026-11-27-17h40-alpha-first.md": "---\nslug: alpha\n---\nBody\n",
};

/** The time, zone and language of every call. */
export const when = { now: "2026-11-30T10:15:00+01:00", tz: "Europe/Paris", lang: "en" };

/** median of xs (the upper one of an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

/** p90 of xs. */
export function p90(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length * 0.9)]!;
}

/** warmCalls times n calls of mem_update_phase and n of mem_read_context, alternately, through call. */
export async function warmCalls(call: (tool: string, args: object) => Promise<string>, n: number): Promise<{ write: number[]; read: number[] }> {
  const write: number[] = [];
  const read: number[] = [];
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    const a = await call("mem_update_phase", { slug: "alpha", phase: i % 2 ? "review" : "build" });
    write.push(performance.now() - t);
    if (!a.startsWith('{"ok":true')) throw new Error(a);
    t = performance.now();
    const r = await call("mem_read_context", { slug: "alpha" });
    read.push(performance.now() - t);
    if (!r.startsWith('{"ok":true')) throw new Error(r);
  }
  return { write, read };
}
