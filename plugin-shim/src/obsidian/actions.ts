// The buttons: a command per available action, and the ribbon's menu.

import { Menu, Notice, type App } from "obsidian";
import { available } from "../catalog/actions";
import { textIn, type Catalog, type Lang, type Tool } from "../catalog/catalog";
import { initialValues, slugFromPath, type Values } from "../catalog/form";
import type { Words } from "../i18n";
import { ToolModal, type Answer } from "./tool-modal";

/** What the actions need from the plugin. */
export interface ActionHost {
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
    run: (args) => h.run(tool.name, args),
    remember: (keep) => {
      if (keep) h.drafts.set(tool.name, values);
      else h.drafts.delete(tool.name);
    },
  });
  modal.open();
  return modal;
}

/** showMenu lists the available actions under the ribbon button. */
export function showMenu(h: ActionHost, evt: MouseEvent): void {
  const list = available(h.catalog);
  if (list.length === 0) {
    new Notice(h.words().noTools);
    return;
  }
  const menu = new Menu();
  for (const { action, tool } of list) {
    menu.addItem((item) =>
      item
        .setTitle(textIn(tool.title, h.lang()))
        .setIcon(action.icon)
        .onClick(() => openTool(h, tool)),
    );
  }
  menu.showAtMouseEvent(evt);
}
