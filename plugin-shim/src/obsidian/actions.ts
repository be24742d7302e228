// The buttons: a command per available action, and the ribbon's menu.

import { Menu, Notice, type App, type Component } from "obsidian";
import { available } from "../catalog/actions";
import { findTool, textIn, type Catalog, type Lang, type Tool } from "../catalog/catalog";
import { initialValues, slugFromPath, type Values } from "../catalog/form";
import type { Words } from "../i18n";
import { recallProject } from "./recall-view";
import { SearchModal } from "./search-modal";
import { openSearchView } from "./search-view";
import { ToolModal, type Answer } from "./tool-modal";

/** What the actions need from the plugin. */
export interface ActionHost extends Component {
  app: App;
  catalog: Catalog;
  lang(): Lang;
  words(): Words;
  run(tool: string, args: Record<string, unknown>): Promise<Answer>;
  /** What the user typed in forms that were refused, by tool: reopening a form brings it back. */
  drafts: Map<string, Values>;
}

/** openTool opens the form of tool, the current project's slug preselected. */
export function openTool(h: ActionHost, tool: Tool): ToolModal {
  const slug = slugFromPath(h.app.workspace.getActiveFile()?.path);
  const values = h.drafts.get(tool.name) ?? initialValues(tool, { slug });
  const modal = new ToolModal(h.app, {
    tool,
    lang: h.lang(),
    words: h.words(),
    values,
    component: h,
    run: (args) => h.run(tool.name, args),
    remember: (keep) => {
      if (keep) h.drafts.set(tool.name, values);
      else h.drafts.delete(tool.name);
    },
  });
  modal.open();
  return modal;
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
      openTool(h, tool);
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
