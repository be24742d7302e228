// The forms as a person fills them (issue 31): the archive form fills and
// runs with no JSON typed (subject, what happened, a fact in the atom
// editor, an alias as a chip), shows what it will write before writing,
// and writes exactly that; the phase and summary forms start with the
// project's values; "More" holds the rest.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { ButtonComponent, DropdownComponent, Modal, Notice, setLanguage, Setting, type FakeEl, type TextComponent } from "../fake/obsidian";
import { until } from "../node";
import { contextPath, freshPlugin, openedForm, reset, slug } from "../screens/screens";

/** input returns the text control of the open modal whose input carries data-param name. */
function input(modal: Modal, name: string): TextComponent {
  for (const s of Setting.all) {
    for (const c of s.components) {
      const el = (c as { inputEl?: FakeEl }).inputEl;
      if (el?.dataset["param"] === name && modal.modalEl.all().includes(el)) return c as TextComponent;
    }
  }
  throw new Error(`no field ${name}`);
}

/** button returns the button of the open modal that reads text. */
function button(modal: Modal, text: string): ButtonComponent {
  for (const s of Setting.all) for (const c of s.components) if (c instanceof ButtonComponent && c.buttonEl.text === text && modal.modalEl.all().includes(c.buttonEl)) return c;
  throw new Error(`no button ${text} in ${modal.modalEl.findAll("button").map((b) => b.text).join(", ")}`);
}

/** visibleNames lists the field names shown outside "More". */
function visibleNames(modal: Modal): string[] {
  const more = modal.modalEl.find("kessho-more-body")[0];
  return Setting.all.filter((s) => modal.modalEl.all().includes(s.settingEl) && !(more?.all().includes(s.settingEl) ?? false) && s.nameEl.text !== "").map((s) => s.nameEl.text);
}

async function openForm(c: Awaited<ReturnType<typeof freshPlugin>>, id: string): Promise<Modal> {
  void c.plugin.commands.find((x) => x.id === `kessho:${id}`)!.callback!();
  return openedForm(`the form of ${id}`);
}

const read = (c: Awaited<ReturnType<typeof freshPlugin>>, p: string) => {
  const b = c.app.vault.files.get(p);
  return b === undefined ? undefined : new TextDecoder().decode(b);
};

describe("forms for people", () => {
  beforeEach(() => {
    reset();
    setLanguage("en");
  });

  test("the archive form fills and runs with no JSON typed, after showing what it will write", async () => {
    const c = await freshPlugin("en");
    const modal = await openForm(c, "archive-session");
    assert.deepEqual(visibleNames(modal), ["Subject", "What happened", "What stays", "Facts to keep", "No fact to keep, because", "Other words for it"]);
    assert.equal(modal.modalEl.find("kessho-more-body")[0]!.hasClass("is-collapsed"), true, "the rest is under a collapsed More");
    assert.match(input(modal, "context_md").getValue(), /^# Kessho docs — context\n/, "what stays starts as the project's context");
    input(modal, "archive_subject").input("French guide proofread");
    input(modal, "archive_body_md").input("Proofread the French guide.\n\n## Next steps\n- Publish it.");
    button(modal, "Add a fact").click();
    input(modal, "derive.0.fact").input("The French guide is proofread by a native speaker");
    const kind = Setting.all.find((s) => s.nameEl.text === "Kind" && modal.modalEl.all().includes(s.settingEl))!.components[0] as DropdownComponent;
    assert.deepEqual(
      kind.options.map(([v]) => v),
      ["principle", "goal", "knowledge"],
    );
    kind.input("principle");
    input(modal, "derive.0.body").input("Machine translation missed the tone twice.");
    // The fact's own other words: typed and left in the input, they are taken when the form is sent.
    input(modal, "derive.0.aliases").input("native review");
    const alias = input(modal, "archive_aliases");
    alias.input("relecture");
    alias.inputEl.dispatch("keydown", { key: "Enter", preventDefault: () => undefined });
    assert.deepEqual(
      modal.modalEl.find("kessho-chip").map((e) => e.text),
      ["relecture"],
    );
    const before = c.app.vault.snapshot();

    button(modal, "Show what it will write").click();
    await until(() => modal.modalEl.find("kessho-preview").length === 1, "the preview");
    assert.deepEqual(c.app.vault.snapshot(), before, "a preview writes nothing");
    const changes = modal.modalEl.find("kessho-change").map((e) => e.getText());
    const archive = `10-episodes/projects/${slug}/archives/2026-11-30-10h15-${slug}-french-guide-proofread.md`;
    assert.ok(changes.includes(`Creates ${archive}`), changes.join("\n"));
    assert.ok(changes.some((l) => l.startsWith(`Changes 10-episodes/projects/${slug}/history.md`)), changes.join("\n"));
    assert.ok(changes.some((l) => /^Creates .*The French guide is proofread by a native speaker\.md$/.test(l)), changes.join("\n"));

    button(modal, "Write").click();
    await until(() => !modal.isOpen, "the modal to close");
    assert.match(read(c, archive) ?? "", /Proofread the French guide\./);
    assert.match(read(c, archive) ?? "", /relecture/);
    assert.match(read(c, contextPath)!, /## Decisions\n- One page per tool in the reference\./, "the context left as it was is kept");
    const atom = read(c, "40-principles/The French guide is proofread by a native speaker.md") ?? "";
    assert.match(atom, /Machine translation missed the tone twice\./);
    assert.match(atom, /native review/);
    assert.match(Notice.messages.at(-1)!, /Archived kessho-docs/);
  });

  test("the archive's extra properties are rows of name and value: a nameless one is refused in the form, the others written", async () => {
    const c = await freshPlugin("en");
    const modal = await openForm(c, "archive-session");
    input(modal, "archive_subject").input("Guide published");
    input(modal, "archive_body_md").input("Published the guide.\n\n## Next steps\n- Nothing.");
    input(modal, "no_derived_because").input("nothing durable");
    assert.equal(modal.modalEl.find("kessho-pair").length, 0, "no row at first");
    for (let i = 0; i < 3; i++) button(modal, "Add a property").click();
    assert.equal(modal.modalEl.find("kessho-pair").length, 3);
    input(modal, "archive_extra_fm.0.key").input("reviewer");
    input(modal, "archive_extra_fm.0.value").input("Camille");
    input(modal, "archive_extra_fm.1.value").input("orphan");
    input(modal, "archive_extra_fm.2.key").input("tags");
    input(modal, "archive_extra_fm.2.value").input("published");
    const before = c.app.vault.snapshot();
    button(modal, "Show what it will write").click();
    await until(() => Notice.messages.length > 0, "the form's refusal");
    const msg = "Extra properties: row 2 has a value but no name; name the property, or remove the row";
    assert.equal(Notice.messages.at(-1), msg);
    assert.equal(modal.contentEl.find("kessho-error")[0]!.text, msg);
    assert.equal(modal.modalEl.find("kessho-preview").length, 0, "nothing previewed");
    assert.deepEqual(c.app.vault.snapshot(), before);

    // The nameless row removed (its ×): the rows left are what is written.
    const remove = modal.modalEl.find("kessho-pair-remove");
    assert.equal(remove[1]!.attrs["aria-label"], "Remove this property");
    const x = Setting.all.flatMap((s) => s.components).find((b) => b instanceof ButtonComponent && b.buttonEl === remove[1]) as ButtonComponent;
    x.click();
    assert.deepEqual(
      modal.modalEl.find("kessho-pair").map((row) => row.findAll("input").map((e) => e.value)),
      [["reviewer", "Camille"], ["tags", "published"]],
    );
    button(modal, "Show what it will write").click();
    await until(() => modal.modalEl.find("kessho-preview").length === 1, "the preview");
    button(modal, "Write").click();
    await until(() => !modal.isOpen, "the modal to close");
    const archive = read(c, `10-episodes/projects/${slug}/archives/2026-11-30-10h15-${slug}-guide-published.md`) ?? "";
    assert.match(archive, /\nreviewer: Camille\n/);
    assert.match(archive, /\ntags:\n {2}- kind\/archive\n {2}- zone\/episodes\n {2}- published\n/, "a tags row adds a tag to the archive's");
  });

  test("an archive rebuilt from git gets its keys as rows: the refusal of a missing one names the field, all given it is written", async () => {
    const c = await freshPlugin("en");
    const modal = await openForm(c, "archive-session");
    input(modal, "archive_subject").input("Rebuilt session");
    input(modal, "archive_body_md").input("Rebuilt from the repository.\n\n## Next steps\n- None.");
    input(modal, "no_derived_because").input("rebuilt from git");
    const rebuilt = Setting.all.find((s) => s.nameEl.text === "Rebuilt from git" && modal.modalEl.all().includes(s.settingEl))!.components[0] as DropdownComponent;
    rebuilt.input("archeo-git");
    const keys = ["source", "scope", "collective", "modality", "branch", "branch_base", "branch_base_sha", "milestone_kind", "source_milestone", "commit_sha", "granularity", "friction_detected", "derived_atoms", "content_hash", "previous_atom", "topology_snapshot_hash", "repo_path"];
    const row = (i: number, k: string, v: string) => {
      button(modal, "Add a property").click();
      input(modal, `archive_extra_fm.${i}.key`).input(k);
      input(modal, `archive_extra_fm.${i}.value`).input(v);
    };
    row(0, "source", "archeo-git");
    button(modal, "Show what it will write").click();
    await until(() => Notice.messages.length > 0, "the refusal");
    assert.match(Notice.messages.at(-1)!, /missing or null: scope, collective, .*, repo_path \(add them under “Extra properties”, a row each; a value may be left empty\)$/);
    keys.slice(1).forEach((k, i) => row(i + 1, k, k === "commit_sha" ? "0042abc" : ""));
    button(modal, "Show what it will write").click();
    await until(() => modal.modalEl.find("kessho-preview").length === 1, "the preview");
    button(modal, "Write").click();
    await until(() => !modal.isOpen, "the modal to close");
    const archive = read(c, `10-episodes/projects/${slug}/archives/2026-11-30-10h15-${slug}-rebuilt-session.md`) ?? "";
    assert.match(archive, /\nsource: archeo-git\n/);
    assert.match(archive, /\ncommit_sha: 0042abc\n/);
    assert.match(archive, /\nrepo_path: ""\n/);
  });

  test("a refusal in the preview stays in the form, nothing written", async () => {
    const c = await freshPlugin("en");
    const modal = await openForm(c, "archive-session");
    input(modal, "archive_subject").input("No body");
    const before = c.app.vault.snapshot();
    button(modal, "Show what it will write").click();
    await until(() => Notice.messages.length > 0, "the refusal");
    assert.ok(modal.isOpen);
    assert.equal(modal.modalEl.find("kessho-preview").length, 0);
    assert.notEqual(modal.contentEl.find("kessho-error")[0]!.text, "");
    assert.deepEqual(c.app.vault.snapshot(), before);
    assert.equal(input(modal, "archive_subject").getValue(), "No body", "what was typed stays");
  });

  test("the phase form starts with the project's phase; the summary form counts to 300", async () => {
    const c = await freshPlugin("en");
    const phase = await openForm(c, "set-phase");
    assert.deepEqual(visibleNames(phase), ["Phase"]);
    assert.equal(input(phase, "phase").getValue(), "review");
    assert.equal(input(phase, "slug").getValue(), slug, "the project, under More");
    input(phase, "phase").input("published");
    button(phase, "Set phase").click();
    await until(() => !phase.isOpen, "the phase form to close");
    assert.match(read(c, contextPath)!, /phase: published/);

    reset();
    const summary = await openForm(c, "set-summary");
    const text = input(summary, "summary");
    assert.equal(text.getValue(), "The user guide and reference of Kessho.");
    assert.equal(summary.modalEl.find("kessho-counter")[0]!.text, "39 / 300 characters");
    text.input("x".repeat(301));
    text.inputEl.dispatch("input");
    assert.equal(summary.modalEl.find("kessho-counter")[0]!.hasClass("is-over"), true);
    const before = c.app.vault.snapshot();
    button(summary, "Save summary").click();
    await until(() => Notice.messages.length > 0, "the form's refusal");
    assert.match(Notice.messages.at(-1)!, /Summary: 301 characters, at most 300/);
    assert.deepEqual(c.app.vault.snapshot(), before);
  });

  test("French labels are the person's words, not the catalogue's", async () => {
    setLanguage("fr");
    const c = await freshPlugin("fr");
    const modal = await openForm(c, "archive-session");
    assert.deepEqual(visibleNames(modal), ["Sujet", "Ce qui s'est passé", "Ce qui reste", "Faits à garder", "Aucun fait à garder, parce que", "Autres mots pour la retrouver"]);
    assert.equal(modal.modalEl.find("kessho-more-toggle")[0]!.text, "▸ Plus");
    assert.ok(!modal.modalEl.getText().includes("context_md"), "no parameter name is shown");
  });

  test("historize and roll back show what they will move and delete before they do", async () => {
    const c = await freshPlugin("en");
    const dir = `10-episodes/projects/${slug}`;
    const roll = await openForm(c, "roll-back-archive");
    const before = c.app.vault.snapshot();
    button(roll, "Show what it will write").click();
    await until(() => roll.modalEl.find("kessho-preview").length === 1, "the rollback's preview");
    assert.deepEqual(c.app.vault.snapshot(), before, "a preview writes nothing");
    const rows = roll.modalEl.find("kessho-change").map((e) => e.getText());
    assert.ok(rows.includes(`Deletes ${dir}/archives/2026-11-27-17h30-${slug}-reference-pages.md`), rows.join("\n"));
    assert.ok(rows.some((r) => r.startsWith(`Changes ${dir}/history.md− - [2026-11-27 17h30 — Reference pages]`)), rows.join("\n"));
    button(roll, "Back").click();
    assert.equal(roll.modalEl.find("kessho-preview").length, 0, "Back returns to the form");
    roll.close();

    reset();
    const hist = await openForm(c, "historize-project");
    button(hist, "Show what it will write").click();
    await until(() => hist.modalEl.find("kessho-preview").length === 1, "the historize preview");
    assert.deepEqual(c.app.vault.snapshot(), before);
    const moves = hist.modalEl.find("kessho-change-move").map((e) => e.getText());
    assert.deepEqual(moves, [`Moves ${dir} → 10-episodes/archived/${slug}`]);
    button(hist, "Write").click();
    await until(() => !hist.isOpen, "the historize form to close");
    assert.ok(read(c, `10-episodes/archived/${slug}/context.md`) !== undefined);
    assert.equal(read(c, contextPath), undefined);
  });

  test("a required choice starts on its first option: noting a fact needs only the sentence and why", async () => {
    const c = await freshPlugin("en");
    const modal = await openForm(c, "note-fact");
    assert.deepEqual(visibleNames(modal), ["Fact", "Kind", "Why it holds"]);
    input(modal, "fact").input("Examples in the reference are real calls");
    input(modal, "body").input("A made-up example drifted from the code twice.");
    const before = c.app.vault.snapshot();
    button(modal, "Note it").click();
    await until(() => !modal.isOpen, "the form to close");
    const made = [...c.app.vault.snapshot().keys()].filter((p) => !before.has(p));
    assert.equal(made.length, 1, made.join(", "));
    assert.match(made[0]!, /Examples in the reference are real calls\.md$/);
    assert.match(read(c, made[0]!)!, /kind: knowledge/);
  });

  test("a form opens at once; the project's values fill only the fields not typed in yet", async () => {
    const c = await freshPlugin("en");
    void c.plugin.commands.find((x) => x.id === "kessho:set-summary")!.callback!();
    assert.equal(Modal.opened.length, 1, "the form is open before the context is read");
    const modal = Modal.opened[0]!;
    assert.ok(modal.modalEl.hasClass("kessho-loading"));
    input(modal, "summary").input("Typed before the read came back.");
    await openedForm("the read");
    assert.equal(input(modal, "summary").getValue(), "Typed before the read came back.");
    modal.close();

    reset();
    void c.plugin.commands.find((x) => x.id === "kessho:set-summary")!.callback!();
    const again = await openedForm("the summary form");
    assert.equal(input(again, "summary").getValue(), "The user guide and reference of Kessho.");
    assert.equal(again.modalEl.find("kessho-counter")[0]!.text, "39 / 300 characters", "the counter follows the prefilled text");
  });
});
