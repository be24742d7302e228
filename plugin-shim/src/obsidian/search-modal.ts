// "Search memory": a suggest modal that calls mem_search as the user types
// and opens the chosen note at its matched line. Read-only.

import { Notice, SuggestModal, type App } from "obsidian";
import type { Words } from "../i18n";
import type { Answer } from "./tool-modal";
import { messageOf } from "../host/port";

/** A hit of mem_search's answer (core/tools/search.go, SearchHit). */
export interface SearchHit {
  path: string;
  title: string;
  kind: string;
  zone: string | null;
  slug: string | null;
  date: string | null;
  score: number;
  line: string;
  /** 1-based; 0 when no line of the note holds a query word. */
  line_number: number;
  matched: string[];
}

/**
 * searchDelayMs is how long typing must pause before a search runs: a
 * quick typist's next key comes sooner, so a word typed at speed costs one
 * call, and a warm search (a few ms) still feels immediate.
 */
export const searchDelayMs = 180;

/** searchLimit is how many hits a search asks for: a screenful and more. */
export const searchLimit = 20;

/** What the search modal needs from the plugin. */
export interface SearchHost {
  app: App;
  words(): Words;
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
 * never stale, whatever order the promises settle in.
 */
export class SearchModal extends SuggestModal<SearchHit> {
  private seq = 0;
  private timer: number | null = null;
  private waiting: ((hits: SearchHit[]) => void)[] = [];

  constructor(private h: SearchHost) {
    super(h.app);
    const w = h.words();
    this.setPlaceholder(w.searchPlaceholder);
    this.emptyStateText = w.searchEmpty;
    this.setInstructions([
      { command: "↑↓", purpose: w.navigate },
      { command: "↵", purpose: w.openAtLine },
      { command: "esc", purpose: w.dismiss },
    ]);
  }

  getSuggestions(query: string): SearchHit[] | Promise<SearchHit[]> {
    const seq = ++this.seq;
    this.cancelTimer();
    if (query.trim() === "") {
      this.emptyStateText = ""; // blank input: no "nothing matches" either
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
    el.addClass("mod-complex", "kessho-hit");
    const content = el.createDiv({ cls: "suggestion-content" });
    content.createDiv({ cls: "suggestion-title", text: hit.title });
    if (hit.line !== "") content.createDiv({ cls: ["suggestion-note", "kessho-hit-line"], text: hit.line });
    content.createDiv({
      cls: ["suggestion-note", "kessho-hit-path"],
      text: hit.line_number > 0 ? `${hit.path}:${hit.line_number}` : hit.path,
    });
    const aux = el.createDiv({ cls: "suggestion-aux" });
    aux.createSpan({ cls: "suggestion-flair", text: [hit.kind, hit.zone ?? ""].filter((s) => s !== "").join(" · ") });
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
    let hits: SearchHit[] = [];
    let empty = w.searchEmpty;
    try {
      // The last word is still being typed unless a space follows it: it also matches as a prefix.
      const answer = await this.h.run("mem_search", { query, limit: searchLimit, prefix: !/\s$/.test(query) });
      if (answer.ok) hits = (answer.result["hits"] as SearchHit[] | undefined) ?? [];
      else empty = answer.error.message;
    } catch (err) {
      empty = w.engineFailed + messageOf(err);
    }
    if (seq !== this.seq) return; // a newer keystroke's search settles the waiting promises
    this.emptyStateText = empty;
    this.settle(hits);
  }

  private settle(hits: SearchHit[]): void {
    for (const resolve of this.waiting.splice(0)) resolve(hits);
  }

  private cancelTimer(): void {
    if (this.timer !== null) window.clearTimeout(this.timer);
    this.timer = null;
  }
}
