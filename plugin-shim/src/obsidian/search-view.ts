// "Memory search" in the sidebar: the search modal's search in a view that
// stays open (as Omnisearch's and Obsidian's own search do). Same call,
// same filters, same drawing of a hit (src/obsidian/search-results.ts); a
// click or Enter on a hit opens its note at its line. Read-only.

import { ItemView, requireApiVersion, type ViewStateResult, type WorkspaceLeaf } from "obsidian";
import { openNote, searchDelayMs, type SearchHost } from "./search-modal";
import { noFilters, projectSlugs, renderFilters, renderResults, renderStatus, runSearch, type SearchFilters, type SearchOutcome } from "./search-results";

/** The view type of the search view. */
export const searchViewType = "kessho-search";

/** openSearchView shows the search view in the right sidebar (the one open, else a new one) and focuses its input. */
export async function openSearchView(h: SearchHost): Promise<void> {
  const ws = h.app.workspace;
  const leaf = ws.getLeavesOfType(searchViewType)[0] ?? ws.getRightLeaf(false);
  if (leaf === null) return;
  await leaf.setViewState({ type: searchViewType, active: true });
  // revealLeaf also opens a collapsed sidebar; before 1.7.2 it is not in the API.
  if (requireApiVersion("1.7.2")) await ws.revealLeaf(leaf);
  else ws.setActiveLeaf(leaf, { focus: true });
  if (leaf.view instanceof SearchView) leaf.view.inputEl.focus();
}

/**
 * SearchView searches as the user types, as the modal does: a search
 * starts once typing pauses (searchDelayMs), and an answer that comes
 * after a newer keystroke's or filter's is dropped. Its state (the query
 * and the filters) is kept with the layout, so the view comes back as it
 * was at the next start.
 */
export class SearchView extends ItemView {
  readonly filters: SearchFilters = { ...noFilters };
  readonly inputEl: HTMLInputElement;
  readonly filtersEl: HTMLElement;
  readonly statusEl: HTMLElement;
  readonly resultsEl: HTMLElement;
  /** The answer shown, null before any search or for a blank input. */
  outcome: SearchOutcome | null = null;
  private seq = 0;
  private timer: number | null = null;

  constructor(
    leaf: WorkspaceLeaf,
    private h: SearchHost,
  ) {
    super(leaf);
    const w = h.words();
    const el = this.contentEl;
    el.addClass("kessho-search-view");
    this.inputEl = el.createEl("input", { type: "search", cls: "kessho-search-input", attr: { placeholder: w.searchViewPlaceholder, "aria-label": w.searchViewTitle } });
    this.filtersEl = el.createDiv();
    this.statusEl = el.createDiv({ cls: "kessho-search-status" });
    this.resultsEl = el.createDiv({ cls: "kessho-search-results" });
  }

  getViewType(): string {
    return searchViewType;
  }

  getDisplayText(): string {
    return this.h.words().searchViewTitle;
  }

  override getIcon(): string {
    return "search";
  }

  protected override async onOpen(): Promise<void> {
    renderFilters(this.filtersEl, this.filters, projectSlugs(this.app), this.h.words(), () => this.schedule(0));
    this.registerDomEvent(this.inputEl, "input", () => this.schedule(searchDelayMs));
    this.draw();
  }

  protected override async onClose(): Promise<void> {
    this.seq++;
    this.cancelTimer();
  }

  override getState(): Record<string, unknown> {
    return { ...super.getState(), query: this.inputEl.value, ...this.filters };
  }

  override async setState(state: unknown, result: ViewStateResult): Promise<void> {
    const s = (state ?? {}) as Record<string, unknown>;
    const text = (k: string): string => {
      const v = s[k];
      return typeof v === "string" ? v : "";
    };
    if (typeof s["query"] === "string") {
      this.inputEl.value = text("query");
      for (const k of ["zone", "slug", "kind"] as const) this.filters[k] = text(k);
      renderFilters(this.filtersEl, this.filters, projectSlugs(this.app), this.h.words(), () => this.schedule(0));
      // Not awaited: restoring the layout at start-up does not wait for the core.
      this.schedule(0);
    }
    await super.setState(state, result);
  }

  /** search runs mem_search for the input and the filters now, and draws its answer unless a newer one superseded it. */
  async search(): Promise<void> {
    this.cancelTimer();
    const seq = ++this.seq;
    const query = this.inputEl.value;
    if (query.trim() === "") {
      this.outcome = null;
      this.draw();
      return;
    }
    const o = await runSearch(this.h, query, this.filters);
    if (seq !== this.seq) return;
    this.outcome = o;
    this.draw();
  }

  /** draw shows the answer: the hits, the "nothing confident" line, or why there are none. */
  private draw(): void {
    const w = this.h.words();
    renderStatus(this.statusEl, this.outcome, w);
    renderResults(this.resultsEl, this.outcome, w, (hit) => void openNote(this.h, hit.path, hit.line_number));
  }

  /** schedule searches after ms without a newer keystroke (0: at once, for a filter). */
  private schedule(ms: number): void {
    this.cancelTimer();
    this.seq++; // an answer under way is now stale
    this.timer = window.setTimeout(() => {
      this.timer = null;
      void this.search();
    }, ms);
  }

  private cancelTimer(): void {
    if (this.timer !== null) window.clearTimeout(this.timer);
    this.timer = null;
  }
}
