// "Search memory": a suggest modal that calls mem_search as the user types
// and opens the chosen note at its matched line. Read-only.

import { Notice, SuggestModal, type App } from "obsidian";
import type { Lang } from "../catalog/catalog";
import type { Words } from "../i18n";
import type { Answer } from "./tool-modal";
import {
  noFilters,
  projectSlugs,
  renderFilters,
  renderHit,
  renderStatus,
  runSearch,
  type SearchFilters,
  type SearchHit,
  type SearchOutcome,
} from "./search-results";

export type { SearchHit } from "./search-results";
export { searchLimit } from "./search-results";

/**
 * searchDelayMs is how long typing must pause before a search runs: a
 * quick typist's next key comes sooner, so a word typed at speed costs one
 * call, and a warm search (a few ms) still feels immediate.
 */
export const searchDelayMs = 180;

/** What the search modal needs from the plugin: the app, its words and language (a refusal's), a call. */
export interface SearchHost {
  app: App;
  words(): Words;
  lang(): Lang;
  run(tool: string, args: Record<string, unknown>): Promise<Answer>;
}

/**
 * openNote opens the note at path in the active leaf, its editor on line
 * (1-based, as mem_search counts; Obsidian's editor counts from 0). A line
 * of 0 opens the note at its top.
 */
export async function openNote(h: SearchHost, path: string, line = 0): Promise<void> {
  const file = h.app.vault.getFileByPath(path);
  if (file === null) {
    new Notice(h.words().noSuchNote + path);
    return;
  }
  await h.app.workspace.getLeaf(false).openFile(file, line > 0 ? { eState: { line: line - 1 } } : {});
}

/**
 * SearchModal searches as the user types. Each keystroke supersedes the
 * previous one: its search starts only after searchDelayMs without a new
 * key, and an answer that comes back after a newer keystroke is dropped.
 * Every promise getSuggestions returned resolves with the newest query's
 * hits (or nothing when the newest input is blank), so results shown are
 * never stale, whatever order the promises settle in. Above the hits, the
 * zone, project and kind filters (a change searches again), and the
 * "nothing confident" state when the answer says so. A refusal shows in
 * place of the hits, in the plugin's words (runSearch, shownSearch).
 */
export class SearchModal extends SuggestModal<SearchHit> {
  private seq = 0;
  private timer: number | null = null;
  private waiting: ((hits: SearchHit[]) => void)[] = [];
  readonly filters: SearchFilters = { ...noFilters };
  /** The filters' row and the "nothing confident" line, between the input and the hits. */
  readonly filtersEl: HTMLElement;
  readonly statusEl: HTMLElement;

  constructor(private h: SearchHost) {
    super(h.app);
    const w = h.words();
    this.modalEl.addClass("kessho-search-modal");
    this.setPlaceholder(w.searchPlaceholder);
    this.emptyStateText = w.searchEmpty;
    this.setInstructions([
      { command: "↑↓", purpose: w.navigate },
      { command: "↵", purpose: w.openAtLine },
      { command: "esc", purpose: w.dismiss },
    ]);
    this.filtersEl = this.modalEl.createDiv();
    this.statusEl = this.modalEl.createDiv({ cls: "kessho-search-status" });
    this.resultContainerEl.before(this.filtersEl, this.statusEl);
    // A filter chosen searches again for what the input holds, as a keystroke does.
    renderFilters(this.filtersEl, this.filters, projectSlugs(h.app), w, () => {
      this.inputEl.dispatchEvent(new Event("input"));
      this.inputEl.focus();
    });
  }

  getSuggestions(query: string): SearchHit[] | Promise<SearchHit[]> {
    const seq = ++this.seq;
    this.cancelTimer();
    if (query.trim() === "") {
      this.emptyStateText = ""; // blank input: no "nothing matches" either
      this.resultContainerEl.removeClass("kessho-search-refused");
      renderStatus(this.statusEl, null, this.h.words());
      this.settle([]);
      return [];
    }
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.timer = window.setTimeout(() => {
        this.timer = null;
        void this.search(seq, query);
      }, searchDelayMs);
    });
  }

  renderSuggestion(hit: SearchHit, el: HTMLElement): void {
    renderHit(el, hit, this.h.words());
  }

  onChooseSuggestion(hit: SearchHit): void {
    void openNote(this.h, hit.path, hit.line_number);
  }

  override onClose(): void {
    this.seq++;
    this.cancelTimer();
    this.settle([]);
    super.onClose();
  }

  private async search(seq: number, query: string): Promise<void> {
    const w = this.h.words();
    const o: SearchOutcome = await runSearch(this.h, query, this.filters);
    if (seq !== this.seq) return; // a newer keystroke's search settles the waiting promises
    this.emptyStateText = o.error ?? w.searchEmpty;
    this.resultContainerEl.toggleClass("kessho-search-refused", o.error !== null);
    renderStatus(this.statusEl, o, w);
    this.settle(o.hits);
  }

  private settle(hits: SearchHit[]): void {
    for (const resolve of this.waiting.splice(0)) resolve(hits);
  }

  private cancelTimer(): void {
    if (this.timer !== null) window.clearTimeout(this.timer);
    this.timer = null;
  }
}
