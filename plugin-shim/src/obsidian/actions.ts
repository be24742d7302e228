// The buttons: a command per available action, and the ribbon's menu.

import { Menu, Notice, type App, type Component } from "obsidian";
import { available } from "../catalog/actions";
import { findTool, textIn, type Catalog, type Lang, type Tool } from "../catalog/catalog";
import { personFields, personValues, prefills, slugFromPath, type Values } from "../catalog/form";
import type { Words } from "../i18n";
import { recallProject } from "./recall-view";
import { SearchModal } from "./search-modal";
import { openSearchView } from "./search-view";
import { shownAnswer, ToolModal, type Answer, type Preview } from "./tool-modal";

/** What the actions need from the plugin. */
export interface ActionHost extends Component {
  app: App;
  catalog: Catalog;
  lang(): Lang;
  words(): Words;
  /** run makes a call; now pins its time (the time its preview ran at). */
  run(tool: string, args: Record<string, unknown>, now?: Date): Promise<Answer>;
  /** preview makes the call on a copy held in memory, at now: its answer and what it would write (src/catalog/preview.ts). */
  preview?(tool: string, args: Record<string, unknown>, now: Date): Promise<Preview>;
  /** The time calls are made at. */
  clock: () => Date;
  /** What the user typed in forms that were refused, by tool: reopening a form brings it back. */
  drafts: Map<string, Values>;
}

/**
 * openTool opens the person's form of tool, for the current note's
 * project: the slug preselected; the fields the person form prefills
 * (phase, summary, the context's body) are filled once the project's
 * context is read (the form opens at once: a core still compiling does not
 * hold it back). A form whose call previews runs its write at the time of
 * its preview, so that it writes what was shown.
 */
export async function openTool(h: ActionHost, tool: Tool): Promise<ToolModal> {
  const slug = slugFromPath(h.app.workspace.getActiveFile()?.path);
  const draft = h.drafts.get(tool.name);
  const values = draft ?? personValues(tool, { slug });
  let pinned: Date | undefined;
  const lang = h.lang();
  const words = h.words();
  const fields = personFields(tool, lang, { slug });
  const modal = new ToolModal(h.app, {
    tool,
    lang,
    words,
    fields,
    values,
    baseline: {},
    component: h,
    run: async (args) => {
      const at = pinned;
      pinned = undefined;
      return h.run(tool.name, args, at);
    },
    ...(h.preview === undefined ? {} : { preview: (args) => h.preview!(tool.name, args, (pinned = h.clock())) }),
    shown: (a) => shownAnswer(lang, a, { fields, badSettingZone: words.badSettingZone }),
    remember: (keep) => {
      if (keep) h.drafts.set(tool.name, values);
      else h.drafts.delete(tool.name);
    },
  });
  modal.open();
  if (slug !== null && prefills(tool).length > 0) {
    modal.loading(true);
    // A draft keeps what was typed; the read still gives what the fields started with.
    modal.prefill(await readPrefill(h, tool, slug), draft === undefined);
  }
  return modal;
}

/**
 * readPrefill reads slug's context (mem_read_context) for the fields tool's
 * person form prefills, by parameter. A failed read gives none: the call
 * says what is wrong.
 */
async function readPrefill(h: ActionHost, tool: Tool, slug: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (!findTool(h.catalog, "mem_read_context")) return out;
  let a: Answer;
  try {
    a = await h.run("mem_read_context", { slug });
  } catch {
    return out;
  }
  if (!a.ok) return out;
  const fm = (a.result["frontmatter"] ?? {}) as Record<string, unknown>;
  for (const { param, from } of prefills(tool)) {
    const v = from === "body" ? a.result["body"] : fm[from];
    // A scalar as it reads; anything else (a list, a mapping) is not a text to prefill.
    out[param] = typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : "";
  }
  return out;
}

/** A button: a command of the palette and an item of the ribbon's menu. */
export interface Button {
  /** Stable command id (Obsidian prefixes it with the plugin id). */
  id: string;
  name: string;
  /** A Lucide icon name. */
  icon: string;
  run: () => void;
}

/**
 * buttons lists what the plugin offers, in the menu's order: a form per
 * available action, then "Search memory" and its sidebar view
 * (mem_search) and "Recall this project" (mem_recall, mem_list) when the
 * core has their tools.
 */
export function buttons(h: ActionHost): Button[] {
  const out: Button[] = available(h.catalog).map(({ action, tool }) => ({
    id: action.id,
    name: textIn(tool.title, h.lang()),
    icon: action.icon,
    run: () => {
      void openTool(h, tool);
    },
  }));
  const w = h.words();
  if (findTool(h.catalog, "mem_search")) {
    out.push({ id: "search", name: w.searchCommand, icon: "search", run: () => new SearchModal(h).open() });
    out.push({ id: "search-view", name: w.searchViewCommand, icon: "search", run: () => void openSearchView(h) });
  }
  if (findTool(h.catalog, "mem_recall") && findTool(h.catalog, "mem_list")) {
    out.push({ id: "recall-project", name: w.recallCommand, icon: "history", run: () => void recallProject(h) });
  }
  return out;
}

/** showMenu lists the buttons under the ribbon button. */
export function showMenu(h: ActionHost, evt: MouseEvent): void {
  const list = buttons(h);
  if (list.length === 0) {
    new Notice(h.words().noTools);
    return;
  }
  const menu = new Menu();
  for (const b of list) menu.addItem((item) => item.setTitle(b.name).setIcon(b.icon).onClick(b.run));
  menu.showAtMouseEvent(evt);
}
