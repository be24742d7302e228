// The request a new instance runs once before its first real call.

/**
 * warmupRequest is a whole call's last round, vault included, that each new
 * instance runs once: a phase set in a note with frontmatter. It touches no
 * vault (the core is pure; its answer is dropped).
 */
export const warmupRequest = JSON.stringify({
  tool: "mem_update_phase",
  args: { slug: "warm-up", phase: "review" },
  now: "2026-01-01T00:00:00Z",
  tz: "UTC",
  files: { "10-episodes/projects/warm-up/context.md": { sha256: "0".repeat(64), text: "---\nphase: draft # a comment\ntags: [a, b]\n---\n# Warm-up\n" } },
  missing: ["10-episodes/archived/warm-up/context.md", "10-episodes/domains/warm-up/context.md"],
  dirs: { "10-episodes/projects": ["warm-up/"], "10-episodes/domains": [], "10-episodes/archived": [] },
});
