// Forms from the catalogue (src/catalog/form.ts) and which tools get a
// button (src/catalog/actions.ts).

import assert from "node:assert/strict";
import { test } from "node:test";
import catalogJSON from "../../src/generated/catalog.json";
import { actions, available } from "../../src/catalog/actions";
import type { Catalog, Tool } from "../../src/catalog/catalog";
import { argsFrom, fields, initialValues, label, slugFromPath } from "../../src/catalog/form";

const catalog = catalogJSON as Catalog;

const archive: Tool = {
  name: "mem_archive",
  title: { en: "Archive session", fr: "Archiver la session" },
  description: { en: "d", fr: "d" },
  errors: [],
  writes: true,
  params: [
    { name: "slug", type: "string", required: true, description: { en: "The project.", fr: "Le projet." } },
    { name: "mode", type: "string", enum: ["incremental", "full"], default: "incremental", description: { en: "", fr: "" } },
    { name: "phase", type: "string", max_length: 200, description: { en: "", fr: "" } },
    { name: "context_md", type: "string", description: { en: "", fr: "" } },
    { name: "expect_decisions", type: "array", items: { type: "string", description: { en: "", fr: "" } }, description: { en: "", fr: "" } },
    { name: "archive_extra_fm", type: "object", description: { en: "", fr: "" } },
    { name: "derive", type: "array", items: { type: "object", description: { en: "", fr: "" } }, description: { en: "", fr: "" } },
    { name: "source_hint", type: "string", enum: ["archeo-git"], description: { en: "", fr: "" } },
    { name: "confirm", type: "boolean", description: { en: "", fr: "" } },
    { name: "include_archived", type: "boolean", default: true, description: { en: "", fr: "" } },
    { name: "amplitude_hours", type: "number", minimum: 0, description: { en: "", fr: "" } },
  ],
};

test("each parameter gets the control its type calls for", () => {
  const kinds = Object.fromEntries(fields(archive, "en").map((f) => [f.name, f.kind]));
  assert.deepEqual(kinds, {
    slug: "text",
    mode: "dropdown",
    phase: "text",
    context_md: "textarea",
    expect_decisions: "lines",
    archive_extra_fm: "json",
    derive: "json",
    source_hint: "dropdown",
    confirm: "toggle",
    include_archived: "toggle",
    amplitude_hours: "number",
  });
  const byName = Object.fromEntries(fields(archive, "fr").map((f) => [f.name, f]));
  assert.deepEqual(byName["mode"]!.options, ["incremental", "full"]);
  assert.deepEqual(byName["source_hint"]!.options, ["", "archeo-git"], "an optional enum can be left out");
  assert.equal(byName["slug"]!.desc, "Le projet.");
  assert.equal(byName["context_md"]!.label, "Context (Markdown)");
  assert.equal(label("archive_subject"), "Archive subject");
});

test("a fresh form holds the defaults and the current project's slug", () => {
  const v = initialValues(archive, { slug: "alpha" });
  assert.equal(v["slug"], "alpha");
  assert.equal(v["mode"], "incremental");
  assert.equal(v["include_archived"], true);
  assert.equal(v["confirm"], false);
  assert.equal(v["context_md"], "");
  assert.equal(initialValues(archive, {})["slug"], "");
});

test("values become arguments: required always, optional only when given", () => {
  const v = initialValues(archive, { slug: "alpha" });
  assert.deepEqual(argsFrom(archive, v), { args: { slug: "alpha", mode: "incremental" } });
  Object.assign(v, {
    phase: "review",
    context_md: "  \n",
    expect_decisions: "Keep the layout\n\n  Pure Markdown  \n",
    archive_extra_fm: '{"tags": ["x"]}',
    confirm: true,
    include_archived: false,
    amplitude_hours: "6.5",
    source_hint: "archeo-git",
  });
  assert.deepEqual(argsFrom(archive, v), {
    args: {
      slug: "alpha",
      mode: "incremental",
      phase: "review",
      context_md: "  \n",
      expect_decisions: ["Keep the layout", "Pure Markdown"],
      archive_extra_fm: { tags: ["x"] },
      source_hint: "archeo-git",
      confirm: true,
      include_archived: false,
      amplitude_hours: 6.5,
    },
  });
  const bad = argsFrom(archive, { ...v, derive: "[{" });
  assert.ok("error" in bad && bad.error.param === "derive" && /not valid JSON/.test(bad.error.en));
  const nan = argsFrom(archive, { ...v, amplitude_hours: "six" });
  assert.ok("error" in nan && nan.error.fr.includes("n'est pas un nombre"));
  const empty = argsFrom(archive, { ...v, slug: "" });
  assert.ok("args" in empty && empty.args["slug"] === "", "a required parameter is sent even empty: the core says what is wrong");
});

test("the slug comes from the active note's folder", () => {
  assert.equal(slugFromPath("10-episodes/projects/alpha/context.md"), "alpha");
  assert.equal(slugFromPath("10-episodes/domains/team/archives/2026-11-30-x.md"), "team");
  assert.equal(slugFromPath("10-episodes/archived/old/history.md"), "old");
  assert.equal(slugFromPath("10-episodes/projects/alpha"), null);
  assert.equal(slugFromPath("20-knowledge/x.md"), null);
  assert.equal(slugFromPath(null), null);
});

test("only tools the catalogue has get a button, with stable ids", () => {
  const names = new Set(catalog.tools.map((t) => t.name));
  const got = available(catalog).map((a) => a.action.id);
  assert.deepEqual(
    got,
    actions.filter((a) => names.has(a.tool)).map((a) => a.id),
  );
  assert.ok(got.includes("set-phase") && got.includes("set-summary"));
  assert.deepEqual(available({ tools: [] }), []);
  assert.deepEqual(
    actions.map((a) => a.id),
    ["archive-session", "new-project", "set-phase", "set-summary", "note-fact", "historize-project", "roll-back-archive", "context-hygiene", "worklog", "check-vault", "relocate-project"],
  );
});
