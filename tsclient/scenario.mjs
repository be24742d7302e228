// The two-week agent scenario: what a model reads when an agent keeps its
// memory in Kessho for two weeks of work on the demo vault
// (testdata/demo/vault, copied to a temporary folder). Each working day
// is one session, one `kessho mcp` process whose clock is that day's
// (--now), driven by the official TypeScript SDK's client over stdio:
// recall at the start, list, search, read what the search found, set
// the phase and summary, archive during the day (incremental) and at
// its end (full), the worklog on Fridays. About 90 calls.
//
// What the model reads of an answer is counted as the clients hand it
// over: JSON.stringify(structuredContent) when the result has one (what
// Claude Code, Codex and Copilot CLI give the model), else the text
// content; a client that forwards the text content instead reads the
// text column. `node scenario.mjs` prints the figures per tool and in
// total (KESSHO_BIN: the kessho binary, default ../bin/kessho; --json
// prints them as JSON); scenario.test.mjs holds the budgets.

import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const here = dirname(fileURLToPath(import.meta.url));
const demo = join(here, "..", "testdata", "demo", "vault");

// day is one session: its clock and the calls it makes, given what the
// earlier calls of the day answered (a function of the session's state).
const days = [];
function day(now, calls) {
  days.push({ now, calls });
}

const docs = "kessho-docs";
const garden = "garden-sensor";

// archiveBody is a session's archive note, as an agent writes one: what
// was done, the decisions, the next steps.
function archiveBody(done, decisions, next) {
  return `${done}\n\n## Decisions\n${decisions.map((d) => `- ${d}`).join("\n")}\n\n## Next steps\n${next.map((n) => `- ${n}`).join("\n")}\n`;
}

function context(where, decisions, next) {
  return `# Kessho docs — context\n\n## Where we are\n${where}\n\n## Decisions\n${decisions.map((d) => `- ${d}`).join("\n")}\n\n## Next\n${next.map((n) => `- ${n}`).join("\n")}\n`;
}

const decided = [
  "Use the vault layout of memory-kit as it is: no migration step.",
  "Examples run on the demo vault, never on a real one.",
];

// Week 1 (2026-11-30 → 2026-12-04): the CLI chapter, then the Obsidian one.
day("2026-11-30T09:10:00+01:00", [
  ["mem_list", {}],
  ["mem_recall", { slug: docs }],
  ["mem_search", { query: "CLI chapter examples", limit: 10 }],
  ["mem_read_archive", { slug: docs, archive: "latest" }],
  ["mem_update_phase", { slug: docs, phase: "cli chapter" }],
  ["mem_read_context", { slug: garden }],
  ["mem_archive", { slug: docs, mode: "incremental", context_md: context(
    "The install chapter is done and reviewed. The CLI chapter covers `call`, `script` and the global flags.",
    decided, ["Write the tool commands section.", "Then the Obsidian chapter."]) }],
  ["mem_search", { query: "global flags vault", limit: 10 }],
  ["mem_archive", { slug: docs, mode: "full", phase: "cli chapter",
    archive_subject: "CLI chapter, global flags",
    archive_body_md: archiveBody(
      "Wrote the CLI chapter's first half: `kessho call`, `kessho script`, the global flags (`--vault`, `--now`, `--tz`, `--lang`, `--engine`, `--timeout`) with one example each, all run on the demo vault.",
      ["Every CLI example names its vault with --vault.", "Flags are documented once, in the global table, not per command."],
      ["Write the tool commands section (phase, summary, archive, rollback).", "Check every example against `make demo`."]),
    archive_aliases: ["command line chapter"],
    derive: [{ fact: "Every CLI example names its vault", body: "Readers copy examples; an example without --vault edits whatever folder they stand in.", kind: "principle" }] }],
]);

day("2026-12-01T09:05:00+01:00", [
  ["mem_recall", { slug: docs, max_chars: 4000 }],
  ["mem_search", { query: "rollback archive restore context", limit: 10 }],
  ["mem_read_history", { slug: docs }],
  ["mem_read_context", { slug: docs }],
  ["mem_archive", { slug: docs, mode: "full",
    archive_subject: "Tool commands section",
    archive_body_md: archiveBody(
      "Wrote the tool commands section: phase, summary, archive and rollback, each with the output of the demo vault and the diff it makes. The rollback example shows the refusal on a second try.",
      ["Show the diff after every writing command.", "Refusals are shown, not hidden: the reader learns the error codes."],
      ["Worklog and hygiene commands.", "Proofread the whole chapter."]),
    no_derived_because: "decisions specific to this chapter" }],
  ["mem_set_summary", { slug: docs, summary: "Writing the user guide; the install chapter is done, the CLI chapter nearly." }],
  ["mem_list", {}],
  ["mem_recall", { slug: garden, max_chars: 2000 }],
  ["mem_search", { query: "soil moisture sensor calibration", limit: 10 }],
]);

day("2026-12-02T14:20:00+01:00", [
  ["mem_recall", { slug: garden }],
  ["mem_update_phase", { slug: garden, phase: "field test" }],
  ["mem_read_history", { slug: garden }],
  ["mem_search", { query: "home server report interval", slug: garden, limit: 10 }],
  ["mem_archive", { slug: garden, mode: "full", phase: "field test",
    archive_subject: "First field test",
    archive_body_md: archiveBody(
      "Put the sensor in the raised bed for six hours. Readings every 10 minutes reached the home server; two were lost when the Wi-Fi dropped. Battery went from 100 % to 96 %.",
      ["Report every 10 minutes, buffer up to 12 readings when offline.", "Calibrate dry and wet points per bed, not once for all."],
      ["Add the offline buffer.", "Calibrate the raised bed's wet point after rain."]),
    derive: [{ fact: "Calibrate soil sensors per bed", body: "Soil differs between beds; one calibration for all gives readings off by 15 points.", kind: "knowledge" }] }],
  ["mem_recall", { slug: docs, max_chars: 3000 }],
  ["mem_search", { query: "worklog hygiene commands", limit: 10 }],
  ["mem_read_archive", { slug: docs, archive: "0" }],
  ["mem_archive", { slug: docs, mode: "full",
    archive_subject: "Worklog and hygiene commands",
    archive_body_md: archiveBody(
      "Documented `kessho worklog` (collect, then persist) and `kessho hygiene init|check|trim`, with the week of the demo vault as the example.",
      ["The worklog example uses a fixed --week-of so its output never changes."],
      ["Proofread the CLI chapter.", "Start the Obsidian chapter."]),
    no_derived_because: "covered by the principle on examples" }],
]);

day("2026-12-03T09:30:00+01:00", [
  ["mem_list", {}],
  ["mem_recall", { slug: docs }],
  ["mem_search", { query: "Obsidian plugin buttons commands", limit: 10 }],
  ["mem_search", { query: "links resolve file name", zone: "knowledge", limit: 10 }],
  ["mem_update_phase", { slug: docs, phase: "obsidian chapter" }],
  ["mem_archive", { slug: docs, mode: "incremental", context_md: context(
    "The install and CLI chapters are done. The Obsidian chapter is started: installing the plugin, the recall view.",
    [...decided, "Every CLI example names its vault with --vault."], ["Finish the Obsidian chapter: forms, notices, conflicts."]) }],
  ["mem_read_context", { slug: docs }],
  ["mem_archive", { slug: docs, mode: "full",
    archive_subject: "Obsidian chapter begun",
    archive_body_md: archiveBody(
      "Wrote how to install the plugin from the release and from a build, and the recall view with a screenshot of the demo vault's kessho-docs.",
      ["Screenshots come from the demo vault in a fresh Obsidian profile."],
      ["Forms and notices.", "What a conflict looks like and how to retry."]),
    no_derived_because: "nothing beyond this chapter" }],
]);

day("2026-12-04T10:00:00+01:00", [
  ["mem_recall", { slug: docs, max_chars: 4000 }],
  ["mem_search", { query: "conflict retry plugin", limit: 10 }],
  ["mem_search", { query: "notice text", kind: "archive", slug: docs, limit: 10 }],
  ["mem_read_archive", { slug: docs, archive: "latest" }],
  ["mem_archive", { slug: docs, mode: "full",
    archive_subject: "Forms, notices and conflicts",
    archive_body_md: archiveBody(
      "Wrote the forms section (every tool's form is drawn from the catalogue), the notices, and the conflict section: an edit made in Obsidian during a call makes the call write nothing; run it again.",
      ["A conflict is explained with the exact notice text."],
      ["Review the Obsidian chapter with a fresh eye.", "Start the agents chapter (MCP)."]),
    no_derived_because: "chapter-specific" }],
  ["mem_recall", { slug: garden, max_chars: 2000 }],
  ["mem_archive", { slug: garden, mode: "full",
    archive_subject: "Offline buffer",
    archive_body_md: archiveBody(
      "Added the 12-reading buffer; tested by unplugging the router for an hour: all six readings arrived in order when it came back.",
      ["The buffer is a ring: the oldest reading is dropped past 12."],
      ["Calibrate the wet point after rain."]),
    no_derived_because: "specific to this firmware" }],
  ["mem_worklog", { phase: "collect", week_of: "2026-12-04" }],
  ["mem_worklog", { phase: "persist", week_of: "2026-12-04",
    brief_md: "Kessho docs: CLI chapter done, Obsidian chapter well under way. Garden sensor: first field test, offline buffer.",
    detailed_md: "- Kessho docs: global flags, tool commands, worklog and hygiene; Obsidian install, recall view, forms, notices, conflicts.\n- Garden sensor: field test in the raised bed, offline buffer of 12 readings.",
    digest_md: "CLI chapter finished; Obsidian chapter begun; sensor field-tested." }],
  ["mem_list", {}],
]);

// Week 2 (2026-12-07 → 2026-12-11): the agents chapter, review, release.
day("2026-12-07T09:15:00+01:00", [
  ["mem_list", {}],
  ["mem_recall", { slug: docs }],
  ["mem_search", { query: "MCP agents stdio configuration", limit: 10 }],
  ["mem_read_archive", { slug: garden, archive: "latest" }],
  ["mem_search", { query: "examples demo vault", zone: "principles", limit: 10 }],
  ["mem_update_phase", { slug: docs, phase: "agents chapter" }],
  ["mem_read_history", { slug: docs, limit: 5 }],
  ["mem_archive", { slug: docs, mode: "full", phase: "agents chapter",
    archive_subject: "Agents chapter: stdio",
    archive_body_md: archiveBody(
      "Wrote how to register `kessho mcp` in Claude Code, Claude Desktop, Cursor and VS Code, each snippet checked or marked as not run.",
      ["Each client snippet says how it was checked.", "Absolute paths in every client configuration."],
      ["HTTP transport and the token.", "Prompts and resources."]),
    derive: [{ fact: "Client snippets say how they were checked", body: "A configuration that was never run looks the same as one that was; saying which is which saves the reader an evening.", kind: "principle" }] }],
  ["mem_set_summary", { slug: docs, summary: "Writing the user guide; install, CLI and Obsidian chapters done, agents chapter started." }],
]);

day("2026-12-08T09:40:00+01:00", [
  ["mem_recall", { slug: docs, max_chars: 3000 }],
  ["mem_search", { query: "HTTP token bearer", limit: 10 }],
  ["mem_search", { query: "token", since: "2026-12-01", limit: 10 }],
  ["mem_read_context", { slug: docs }],
  ["mem_archive", { slug: docs, mode: "full",
    archive_subject: "Agents chapter: HTTP",
    archive_body_md: archiveBody(
      "Wrote the HTTP transport: --http, the generated token and where it is kept, --no-auth on loopback only, the reverse proxy advice.",
      ["The token is never shown on a command line in the examples."],
      ["Prompts, resources and notifications.", "Review week: read the guide end to end."]),
    no_derived_because: "chapter-specific" }],
  ["mem_recall", { slug: garden }],
  ["mem_search", { query: "calibrate wet point rain", limit: 10 }],
  ["mem_archive", { slug: garden, mode: "full",
    archive_subject: "Wet point after rain",
    archive_body_md: archiveBody(
      "Calibrated the raised bed's wet point the morning after 12 mm of rain: 412 raw, against 380 for the lawn bed.",
      ["Store calibration per bed on the home server, not in the firmware."],
      ["Enclosure for the winter."]),
    no_derived_because: "covered by the knowledge note on calibration" }],
  ["mem_update_phase", { slug: garden, phase: "winter enclosure" }],
]);

day("2026-12-09T10:10:00+01:00", [
  ["mem_list", {}],
  ["mem_recall", { slug: docs }],
  ["mem_search", { query: "prompts resources notifications", limit: 10 }],
  ["mem_read_archive", { slug: docs, archive: "1" }],
  ["mem_archive", { slug: docs, mode: "incremental", phase: "review" }],
  ["mem_archive", { slug: docs, mode: "full",
    archive_subject: "Agents chapter done",
    archive_body_md: archiveBody(
      "Wrote prompts (start-session, archive-session), resources (the kessho:// templates) and notifications. The agents chapter is complete.",
      ["Resources are documented with one read example each."],
      ["Review week: read the whole guide, fix every example that drifted."]),
    no_derived_because: "chapter-specific" }],
  ["mem_search", { query: "review examples drifted", limit: 10 }],
  ["mem_list", { include_archived: false }],
  ["mem_read_history", { slug: docs }],
]);

day("2026-12-10T09:00:00+01:00", [
  ["mem_recall", { slug: docs, max_chars: 4000 }],
  ["mem_search", { query: "install chapter make demo cache", limit: 10 }],
  ["mem_read_archive", { slug: docs, archive: "2026-11-27-17h40-kessho-docs-install-chapter.md" }],
  ["mem_search", { query: "flags documented once global table", limit: 10 }],
  ["mem_archive", { slug: docs, mode: "full",
    archive_subject: "Review of the guide",
    archive_body_md: archiveBody(
      "Read the guide end to end; fixed four examples whose output had drifted (the recall view, the worklog week, two refusals).",
      ["Examples are checked by a script before each release."],
      ["Release the guide with the next version."]),
    derive: [{ fact: "Check examples before each release", body: "Examples drift as the tool changes; a script that runs them catches the drift before readers do.", kind: "principle" }] }],
  ["mem_recall", { slug: garden, max_chars: 2000 }],
  ["mem_read_context", { slug: garden }],
]);
day("2026-12-10T17:45:00+01:00", [
  ["mem_recall", { slug: garden, max_chars: 2000 }],
  ["mem_archive", { slug: garden, mode: "full", phase: "winter enclosure",
    archive_subject: "Enclosure design",
    archive_body_md: archiveBody(
      "Sketched a printed enclosure with a vent under the lid; the board sits 2 cm above the soil line.",
      ["PETG, not PLA, for the winter enclosure."],
      ["Print and fit the enclosure."]),
    no_derived_because: "design detail" }],
]);

day("2026-12-11T16:30:00+01:00", [
  ["mem_list", {}],
  ["mem_recall", { slug: docs }],
  ["mem_search", { query: "release guide version", limit: 10 }],
  ["mem_update_phase", { slug: docs, phase: "released" }],
  ["mem_set_summary", { slug: docs, summary: "The user guide is released with the next version; only fixes from now on." }],
  ["mem_archive", { slug: docs, mode: "full",
    archive_subject: "Guide released",
    archive_body_md: archiveBody(
      "Tagged the guide with the release; the examples script passed on the release build.",
      ["Fixes to the guide go with patch releases."],
      ["Watch for readers' questions."]),
    no_derived_because: "release routine" }],
  ["mem_worklog", { phase: "collect", week_of: "2026-12-11" }],
  ["mem_worklog", { phase: "persist", week_of: "2026-12-11",
    brief_md: "Kessho docs: agents chapter written, guide reviewed and released. Garden sensor: calibrated after rain, enclosure next.",
    detailed_md: "- Kessho docs: stdio and HTTP agents, prompts and resources; review of every example; release.\n- Garden sensor: wet point calibration per bed.",
    digest_md: "Guide released; sensor calibrated." }],
  ["mem_list", {}],
  ["mem_recall", { slug: docs, max_chars: 1000 }],
]);

// modelChars is what a model reads of a result (see the top), and the
// characters of its text content.
export function modelChars(res) {
  const text = (res.content ?? []).reduce((n, c) => n + (c.type === "text" ? c.text.length : JSON.stringify(c).length), 0);
  const structured = res.structuredContent === undefined ? text : JSON.stringify(res.structuredContent).length;
  return { read: structured, text };
}

// run plays the scenario with the kessho binary bin on a copy of the demo
// vault and returns every call with what the model read of its answer.
export async function run(bin) {
  const dir = mkdtempSync(join(tmpdir(), "kessho-scenario-"));
  const vault = join(dir, "vault");
  cpSync(demo, vault, { recursive: true });
  const calls = [];
  try {
    for (const d of days) {
      const transport = new StdioClientTransport({
        command: bin,
        args: ["mcp", "--vault", vault, "--now", d.now, "--tz", "Europe/Paris", "--engine", "native"],
        stderr: "ignore",
      });
      const client = new Client({ name: "kessho-scenario", version: "1.0.0" });
      await client.connect(transport);
      try {
        for (const [tool, args] of d.calls) {
          const res = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 120_000 });
          if (res.isError) {
            throw new Error(`${d.now} ${tool} ${JSON.stringify(args)}: refused: ${res.content?.[0]?.text}`);
          }
          calls.push({ day: d.now.slice(0, 10), tool, args, result: res, ...modelChars(res) });
        }
      } finally {
        await client.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return calls;
}

// tally sums the characters read per tool and in total.
export function tally(calls) {
  const tools = {};
  let read = 0, text = 0;
  for (const c of calls) {
    const t = (tools[c.tool] ??= { calls: 0, read: 0, text: 0, max: 0 });
    t.calls++;
    t.read += c.read;
    t.text += c.text;
    t.max = Math.max(t.max, c.read);
    read += c.read;
    text += c.text;
  }
  return { calls: calls.length, read, text, tools };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bin = process.env.KESSHO_BIN ?? join(here, "..", "bin", "kessho");
  const t = tally(await run(bin));
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(t, null, 2));
  } else {
    const rows = Object.entries(t.tools).sort((a, b) => b[1].read - a[1].read);
    console.log("tool                       calls   read (chars)   max   text content");
    for (const [name, v] of rows) {
      console.log(`${name.padEnd(26)} ${String(v.calls).padStart(5)} ${String(v.read).padStart(14)} ${String(v.max).padStart(5)} ${String(v.text).padStart(14)}`);
    }
    console.log(`${"total".padEnd(26)} ${String(t.calls).padStart(5)} ${String(t.read).padStart(14)} ${"".padStart(5)} ${String(t.text).padStart(14)}`);
  }
}
