// The plugin's buttons: one per tool the catalogue offers. This table only
// names which tools get a button, its stable command id and its icon; the
// title, the form and the errors come from the catalogue, so a tool the
// core does not have yet gets no command, and one that appears gets its
// button with no code. The read commands (search, recall) have their own
// screens: src/obsidian/actions.ts adds them.

import type { Catalog, Tool } from "./catalog";

export interface Action {
  /** Stable command id (Obsidian prefixes it with the plugin id). */
  id: string;
  /** The catalogue tool it runs. */
  tool: string;
  /** A Lucide icon name. */
  icon: string;
}

export const actions: readonly Action[] = [
  { id: "archive-session", tool: "mem_archive", icon: "archive" },
  { id: "new-project", tool: "mem_init_project", icon: "folder-plus" },
  { id: "set-phase", tool: "mem_update_phase", icon: "milestone" },
  { id: "set-summary", tool: "mem_set_summary", icon: "text" },
  { id: "note-fact", tool: "mem_note", icon: "sticky-note" },
  { id: "historize-project", tool: "mem_historize", icon: "folder-clock" },
  { id: "roll-back-archive", tool: "mem_rollback_archive", icon: "undo-2" },
  { id: "context-hygiene", tool: "mem_context_hygiene", icon: "brush" },
  { id: "worklog", tool: "mem_worklog", icon: "calendar-range" },
  { id: "check-vault", tool: "mem_check", icon: "stethoscope" },
  { id: "relocate-project", tool: "mem_relocate_project", icon: "folder-input" },
];

/** available returns the actions whose tool the catalogue has, with the tool. */
export function available(c: Catalog): { action: Action; tool: Tool }[] {
  const out: { action: Action; tool: Tool }[] = [];
  for (const action of actions) {
    const tool = c.tools.find((t) => t.name === action.tool);
    if (tool !== undefined) out.push({ action, tool });
  }
  return out;
}
