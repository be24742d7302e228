// The buttons: a command per available action, and the ribbon's menu.

import { Menu, Notice, type App, type Component } from "obsidian";
import { available } from "../catalog/actions";
import { findTool, textIn, type Catalog, type Lang, type Tool } from "../catalog/catalog";
import { personFields, personValues, prefills, slugFromPath, type Values } from "../catalog/form";
import type { Words } from "../i18n";
import { recallProject } from "./recall-view";
import { SearchModal } from "./search-modal";
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
 * project: the slug preselected, the fields the person form prefills
 * (phase, summary, the context's body) read from the project's context
 * first. A form whose call previews runs its write at the time of its
 * preview, so that it writes what was shown.
 */
export async function openTool(h: ActionHost, tool: Tool): Promise<ToolModal> {
  const slug = slugFromPath(h.app.workspace.getActiveFile()?.path);
  const draft = h.drafts.get(tool.name);
  const values = draft ?? personValues(tool, { slug });
  const baseline: Values = {};
  if (slug !== null) await prefill(h, tool, slug, draft === undefined ? values : null, baseline);
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
    baseline,
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
  return modal;
}

/**
 * prefill reads slug's context (mem_read_context) for the fields tool's
 * person form prefills: it sets them in values (null: a draft, kept as
 * typed) and records what they started with in baseline. A failed read
 * leaves the fields as they are: the call says what is wrong.
 */
async function prefill(h: ActionHost, tool: Tool, slug: string, values: Values | null, baseline: Values): Promise<void> {
  const wanted = prefills(tool);
  if (wanted.length === 0 || !findTool(h.catalog, "mem_read_context")) return;
  let a: Answer;
  try {
    a = await h.run("mem_read_context", { slug });
  } catch {
    return;
  }
  if (!a.ok) return;
  const fm = (a.result["frontmatter"] ?? {}) as Record<string, unknown>;
  for (const { param, from } of wanted) {
    const v = from === "body" ? a.result["body"] : fm[from];
    // A scalar as it reads; anything else (a list, a mapping) is not a text to prefill.
    const text = typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : "";
    baseline[param] = text;
    if (values !== null) values[param] = text;
  }
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
 * available action, then "Search memory" (mem_search) and "Recall this
 * project" (mem_recall, mem_list) when the core has their tools.
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
