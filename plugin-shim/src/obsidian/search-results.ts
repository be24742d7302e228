// What the search modal and the search view share: mem_search's call for
// what the user typed and the filters chosen, and how an answer is drawn
// (each hit titled by its project, its line rendered with the matched
// words highlighted, its tags in the user's language, the filters, the
// "nothing confident" state). One module, so both draw a hit the same way.

import { DropdownComponent, TFolder, type App } from "obsidian";
import type { Lang } from "../catalog/catalog";
import type { Field } from "../catalog/form";
import type { Words } from "../i18n";
import { messageOf } from "../host/port";
import { shownAnswer, type Answer } from "./tool-modal";
import { renderExcerpt } from "./excerpt";

/** A hit of mem_search's answer (core/tools/search.go, searchHit). */
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
  /** The terms line holds, and where: [start, end) in UTF-16 code units of line; absent when it holds none. */
  terms?: string[];
  marks?: [number, number][];
  /** The note covers little of the query. */
  weak?: boolean;
}

/** searchLimit is how many hits a search asks for: a screenful and more. */
export const searchLimit = 20;

/** The filters a search can have; "" is any. */
export interface SearchFilters {
  zone: string;
  slug: string;
  kind: string;
}

export const noFilters: SearchFilters = { zone: "", slug: "", kind: "" };

/** What mem_search answered, as the modal and the view show it. */
export interface SearchOutcome {
  hits: SearchHit[];
  /** false: the best hit covers the query too little ("probably not in memory"). */
  confident: boolean;
  /** The refusal or failure to show instead of hits, or null. */
  error: string | null;
}

/** What searching needs from the plugin: its words and language (a refusal's), and a call. */
export interface SearchRunner {
  words(): Words;
  lang(): Lang;
  run(tool: string, args: Record<string, unknown>): Promise<Answer>;
}

/**
 * searchFields are what a search sends, as the modal and the view show
 * them: what is typed and the three filters, each by the name the user
 * sees, so that a refusal of one of mem_search's parameters names it
 * ("Search: holds no word…", not `parameter "query": …`).
 */
export function searchFields(w: Words): Field[] {
  const field = (name: string, label: string): Field => ({ name, label, desc: "", kind: "text", required: false });
  return [field("query", w.searchQuery), field("zone", w.searchZone), field("slug", w.searchProject), field("kind", w.searchKind)];
}

/**
 * shownSearch is mem_search's answer in the plugin's words (shownAnswer,
 * as the forms and the recall view show theirs): a refusal names the
 * field, the command or the setting to use, never an MCP tool or
 * parameter; a refused time zone names its setting.
 */
export function shownSearch(h: SearchRunner, a: Answer): Answer {
  const w = h.words();
  return shownAnswer(h.lang(), a, { fields: searchFields(w), badSettingZone: w.badSettingZone });
}

/**
 * searchArgs is mem_search's arguments for what the user typed: the last
 * word is still being typed unless a space follows it, so it also matches
 * as a prefix; a filter is sent only when chosen.
 */
export function searchArgs(query: string, f: SearchFilters = noFilters): Record<string, unknown> {
  const args: Record<string, unknown> = { query, limit: searchLimit, prefix: !/\s$/.test(query) };
  if (f.zone !== "") args["zone"] = f.zone;
  if (f.slug !== "") args["slug"] = f.slug;
  if (f.kind !== "") args["kind"] = f.kind;
  return args;
}

/** runSearch calls mem_search for query and filters; a refusal (in the plugin's words, shownSearch) or a failure comes back as its message. */
export async function runSearch(h: SearchRunner, query: string, f: SearchFilters): Promise<SearchOutcome> {
  try {
    const answer = shownSearch(h, await h.run("mem_search", searchArgs(query, f)));
    if (!answer.ok) return { hits: [], confident: false, error: answer.error.message };
    const hits = (answer.result["hits"] as SearchHit[] | undefined) ?? [];
    return { hits, confident: answer.result["confident"] !== false, error: null };
  } catch (err) {
    return { hits: [], confident: false, error: h.words().engineFailed + messageOf(err) };
  }
}

/** label is the user's word for a kind or a zone, the core's own word when it has none. */
function label(w: Words, v: string): string {
  return w.searchLabels[v as keyof Words["searchLabels"]] ?? v;
}

/**
 * hitTitle is a hit's title: a context or history note titled by its
 * file's name (no display in its frontmatter) is titled by its project
 * ("kessho-docs — history"); a display is the note's own title, kept.
 */
export function hitTitle(hit: SearchHit, w: Words): string {
  const named = (hit.kind === "context" || hit.kind === "history") && hit.title === hit.kind;
  return named && hit.slug !== null ? `${hit.slug} — ${label(w, hit.kind)}` : hit.title;
}

/**
 * hitTags are a hit's tags: its kind; its zone, unless episodes (a
 * project's notes: the project says more); its project and an archive's
 * date, unless its title says them.
 */
export function hitTags(hit: SearchHit, w: Words): string[] {
  const title = hitTitle(hit, w);
  const tags = [label(w, hit.kind)];
  if (hit.zone !== null && hit.zone !== "episodes") tags.push(label(w, hit.zone));
  if (hit.slug !== null && !title.includes(hit.slug)) tags.push(hit.slug);
  if (hit.date !== null && hit.kind === "archive" && !title.includes(hit.date)) tags.push(hit.date);
  return tags;
}

/**
 * renderHit draws one hit into el (a suggestion of the modal, an item of
 * the view): its title, its line rendered with the matched words in
 * kessho-match spans, its path and line number, its tags, and a weak
 * match said so.
 */
export function renderHit(el: HTMLElement, hit: SearchHit, w: Words): void {
  el.addClass("mod-complex", "kessho-hit");
  if (hit.weak === true) el.addClass("kessho-hit-weak");
  const content = el.createDiv({ cls: "suggestion-content" });
  content.createDiv({ cls: "suggestion-title", text: hitTitle(hit, w) });
  if (hit.line !== "") renderExcerpt(content.createDiv({ cls: ["suggestion-note", "kessho-hit-line"] }), hit.line, hit.marks ?? []);
  content.createDiv({
    cls: ["suggestion-note", "kessho-hit-path"],
    text: hit.line_number > 0 ? `${hit.path}:${hit.line_number}` : hit.path,
  });
  const aux = el.createDiv({ cls: "suggestion-aux" });
  for (const t of hitTags(hit, w)) aux.createSpan({ cls: ["suggestion-flair", "kessho-hit-tag"], text: t });
  if (hit.weak === true) aux.createSpan({ cls: ["suggestion-flair", "kessho-hit-tag", "kessho-hit-weak-tag"], text: w.searchWeak });
}

/**
 * renderResults draws an answer into el as the search view shows it: a
 * hint before any search (o null), why there is no hit, or each hit (as
 * renderHit draws it) in an item a click or Enter chooses.
 */
export function renderResults(el: HTMLElement, o: SearchOutcome | null, w: Words, choose: (hit: SearchHit) => void): void {
  el.empty();
  if (o === null) {
    el.createDiv({ cls: "kessho-search-hint", text: w.searchViewHint });
    return;
  }
  if (o.hits.length === 0) {
    el.createDiv({ cls: o.error !== null ? ["suggestion-empty", "kessho-search-refused"] : "suggestion-empty", text: o.error ?? w.searchEmpty });
    return;
  }
  for (const hit of o.hits) {
    const item = el.createDiv({ cls: "suggestion-item", attr: { role: "link", tabindex: "0" } });
    renderHit(item, hit, w);
    // The items go with the next empty(), their listeners with them.
    item.addEventListener("click", () => choose(hit));
    item.addEventListener("keydown", (evt) => {
      if (evt.key === "Enter") choose(hit);
    });
  }
}

/** renderStatus says, in el, that nothing is confident when the answer has hits but is not; else el is empty. */
export function renderStatus(el: HTMLElement, o: SearchOutcome | null, w: Words): void {
  el.empty();
  const unsure = o !== null && o.error === null && o.hits.length > 0 && !o.confident;
  el.toggleClass("kessho-search-unsure", unsure);
  if (unsure) el.setText(w.searchNotConfident);
}

/** projectSlugs lists the vault's projects and domains (their folders, SPEC section 1), sorted. */
export function projectSlugs(app: App): string[] {
  const out = new Set<string>();
  for (const dir of ["10-episodes/projects", "10-episodes/domains"]) {
    const f = app.vault.getAbstractFileByPath(dir);
    if (f instanceof TFolder) for (const c of f.children) if (c instanceof TFolder && !c.name.startsWith(".")) out.add(c.name);
  }
  return [...out].sort();
}

/** The values mem_search's zone and kind take (core/tools/search.go). */
export const searchZones = ["episodes", "knowledge", "principles", "goals"];
export const searchKinds = ["archive", "atom", "context", "history"];

/**
 * renderFilters draws the zone, project and kind filters into el, each a
 * dropdown whose first choice is "any", showing f; a choice sets f's
 * field and calls changed.
 */
export function renderFilters(el: HTMLElement, f: SearchFilters, slugs: string[], w: Words, changed: () => void): void {
  el.empty();
  el.addClass("kessho-search-filters");
  const add = (key: keyof SearchFilters, any: string, name: string, values: [string, string][]) => {
    const d = new DropdownComponent(el).addOption("", any);
    for (const [v, text] of values) d.addOption(v, text);
    d.selectEl.addClass("kessho-search-filter", `kessho-search-filter-${key}`);
    d.selectEl.setAttr("aria-label", name);
    d.setValue(f[key]).onChange((v) => {
      f[key] = v;
      changed();
    });
  };
  add("zone", w.searchAnyZone, w.searchZone, searchZones.map((z) => [z, label(w, z)]));
  add("slug", w.searchAnyProject, w.searchProject, slugs.map((s) => [s, s]));
  add("kind", w.searchAnyKind, w.searchKind, searchKinds.map((k) => [k, label(w, k)]));
}
