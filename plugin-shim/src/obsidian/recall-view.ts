// "Recall this project": mem_recall's briefing for the active note's
// project or domain, in a view of the right sidebar, each path it names a
// link to its note. Read-only.

import { ItemView, MarkdownRenderer, Notice, requireApiVersion, SuggestModal, type ViewStateResult, type WorkspaceLeaf } from "obsidian";
import { slugFromPath } from "../catalog/form";
import { openNote, type SearchHost } from "./search-modal";
import { messageOf } from "../host/port";
import { shownAnswer, type Answer } from "./tool-modal";

/** What the recall view needs of the plugin: the search modal's (its language too, its refusals' words). */
export type RecallHost = SearchHost;

/** The view type the briefing is shown in. */
export const recallViewType = "kessho-recall";

/** A project of mem_list's answer (core/tools/list.go, ListEntry). */
interface Listed {
  slug: string;
  kind: string;
  archived: boolean;
  summary: string | null;
}

/**
 * recallProject briefs the active note's project or domain (its path
 * under 10-episodes/projects, domains or archived); from any other note,
 * or with none open, it first asks which one, among mem_list's.
 */
export async function recallProject(h: RecallHost): Promise<void> {
  const slug = slugFromPath(h.app.workspace.getActiveFile()?.path);
  if (slug !== null) return showRecall(h, slug);
  let answer: Answer;
  try {
    answer = shown(h, await h.run("mem_list", {}));
  } catch (err) {
    new Notice(h.words().engineFailed + messageOf(err));
    return;
  }
  if (!answer.ok) {
    new Notice(answer.error.message);
    return;
  }
  const projects = (answer.result["projects"] as Listed[] | undefined) ?? [];
  if (projects.length === 0) {
    new Notice(h.words().noProjects);
    return;
  }
  new SlugModal(h, projects).open();
}

/** shown is an answer in the words of the plugin's buttons (src/catalog/host-words.ts). */
function shown(h: RecallHost, a: Answer): Answer {
  return shownAnswer(h.lang(), a, { badSettingZone: h.words().badSettingZone });
}

/** showRecall shows slug's briefing in the recall view, opened in the right sidebar when none is. */
export async function showRecall(h: RecallHost, slug: string): Promise<void> {
  const ws = h.app.workspace;
  const leaf = ws.getLeavesOfType(recallViewType)[0] ?? ws.getRightLeaf(false);
  if (leaf === null) return;
  await leaf.setViewState({ type: recallViewType, active: true, state: { slug } });
  // revealLeaf also opens a collapsed sidebar; before 1.7.2 it is not in the API.
  if (requireApiVersion("1.7.2")) await ws.revealLeaf(leaf);
  else ws.setActiveLeaf(leaf, { focus: true });
}

/** SlugModal asks which project or domain to recall. */
class SlugModal extends SuggestModal<Listed> {
  constructor(
    private h: RecallHost,
    private projects: Listed[],
  ) {
    super(h.app);
    this.setPlaceholder(h.words().recallPick);
  }

  getSuggestions(query: string): Listed[] {
    const q = query.trim().toLowerCase();
    return this.projects.filter((p) => p.slug.toLowerCase().includes(q));
  }

  renderSuggestion(p: Listed, el: HTMLElement): void {
    const w = this.h.words();
    el.createDiv({ cls: "suggestion-title", text: p.slug });
    const note = [p.archived ? w.archived : p.kind, p.summary ?? ""].filter((s) => s !== "").join(" · ");
    el.createDiv({ cls: "suggestion-note", text: note });
  }

  onChooseSuggestion(p: Listed): void {
    void showRecall(this.h, p.slug);
  }
}

/**
 * RecallView shows one project's briefing (summary_md) rendered as
 * Markdown. Its state is the slug, so Obsidian restores it at the next
 * start and recalls again. Every inline code span that names a note of
 * the vault (the briefing names each part's path so) opens that note
 * when clicked.
 */
export class RecallView extends ItemView {
  slug = "";
  private seq = 0;

  constructor(
    leaf: WorkspaceLeaf,
    private h: RecallHost,
  ) {
    super(leaf);
    this.addAction("refresh-cw", h.words().recallAgain, () => void this.refresh());
  }

  getViewType(): string {
    return recallViewType;
  }

  getDisplayText(): string {
    const title = this.h.words().recallTitle;
    return this.slug === "" ? title : `${title} — ${this.slug}`;
  }

  override getIcon(): string {
    return "history";
  }

  override getState(): Record<string, unknown> {
    return { ...super.getState(), slug: this.slug };
  }

  override async setState(state: unknown, result: ViewStateResult): Promise<void> {
    const slug = (state as { slug?: unknown } | null)?.slug;
    if (typeof slug === "string" && slug !== "") {
      this.slug = slug;
      // Not awaited: restoring the layout at start-up does not wait for the core.
      void this.refresh();
    }
    await super.setState(state, result);
  }

  /** refresh calls mem_recall and draws its answer; a newer refresh supersedes it. */
  async refresh(): Promise<void> {
    const seq = ++this.seq;
    const w = this.h.words();
    const el = this.contentEl;
    el.empty();
    el.addClass("kessho-recall");
    el.createDiv({ cls: "kessho-recall-status", text: w.recalling });
    let answer: Answer;
    try {
      answer = shown(this.h, await this.h.run("mem_recall", { slug: this.slug }));
    } catch (err) {
      answer = { ok: false as const, error: { code: "", message: w.engineFailed + messageOf(err) } };
    }
    if (seq !== this.seq) return;
    el.empty();
    if (!answer.ok) {
      el.createDiv({ cls: "kessho-error", text: answer.error.message });
      return;
    }
    const body = el.createDiv({ cls: "kessho-recall-briefing" });
    await MarkdownRenderer.render(this.app, answer.result.summary_md ?? "", body, "", this);
    if (seq !== this.seq) return;
    for (const code of body.findAll("code")) {
      const path = code.getText();
      if (this.app.vault.getFileByPath(path) === null) continue;
      code.addClass("kessho-path");
      code.setAttr("role", "link");
      code.setAttr("tabindex", "0");
      code.setAttr("title", w.openNote);
      // The elements go with the next refresh's empty(), their listeners with them.
      code.addEventListener("click", () => void openNote(this.h, path));
      code.addEventListener("keydown", (evt) => {
        if (evt.key === "Enter") void openNote(this.h, path);
      });
    }
    const warnings = answer.result.warnings ?? [];
    if (warnings.length > 0) {
      const list = el.createEl("ul", { cls: "kessho-recall-warnings" });
      for (const msg of warnings) list.createEl("li", { text: "⚠ " + msg });
    }
  }
}
