// The screens the screenshot test (screens.test.ts) takes: a list of named
// render functions. Each gets a fresh plugin (the built main.js in the fake
// app, on the vault below, its clock fixed) in the language of the shot, and
// returns the HTML of what a person sees. To add a screen (the search modal,
// a view), add an entry here and run
//
//	KESSHO_UPDATE_SCREENS=1 node scripts/test.mjs screens
//
// to write its images under tests/screens/; review them, commit them.

import { App, Modal, Notice, Setting, TextComponent, TFile, type FakeEl, type View } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { mainJs, until } from "../node";
import { toHTML } from "./html";

/** What a render function gets: the plugin, its app, and the shot's language. */
export interface ScreenContext {
  app: App;
  plugin: LoadedPlugin;
  lang: "en" | "fr";
}

export interface Screen {
  /** The image's name: tests/screens/<name>.<lang>[.phone].png. */
  name: string;
  /** render draws the screen and returns its HTML. */
  render(c: ScreenContext): Promise<string>;
}

export const slug = "kessho-docs";
const dir = `10-episodes/projects/${slug}`;
export const contextPath = `${dir}/context.md`;

/** The vault every screen opens on: one project, two archives. */
export const vault: Record<string, string> = {
  [contextPath]:
    `---\nproject: ${slug}\nslug: ${slug}\nkind: project\nzone: episodes\ntags:\n- project/${slug}\n- zone/episodes\n- kind/context\n` +
    `phase: review\nsummary: The user guide and reference of Kessho.\nlast-session: '2026-11-27'\ndisplay: ${slug} — context\n---\n` +
    `# Kessho docs — context\n\n## Decisions\n- One page per tool in the reference.\n- Examples are real calls.\n\n## Next\nProofread the French guide.\n`,
  [`${dir}/history.md`]:
    `# Kessho docs — history\n\n- [2026-11-27 17h30 — Reference pages](archives/2026-11-27-17h30-${slug}-reference-pages.md)\n`,
  "10-episodes/archived/old-site/context.md": "---\nslug: old-site\nkind: project\nphase: archived\n---\n# Old site — context\n",
  [`${dir}/archives/2026-11-27-17h30-${slug}-reference-pages.md`]:
    `---\nproject: ${slug}\nslug: ${slug}\nkind: archive\nzone: episodes\ndate: '2026-11-27'\ndisplay: ${slug} — 2026-11-27 Reference pages\n---\n\nOne page per tool.\n\n## Next steps\n- Proofread the French guide.\n`,
};

/** The fixed time of every shot: 30 November 2026, 10:15 in Paris. */
export const now = new Date(Date.UTC(2026, 10, 30, 9, 15, 0));

/** freshPlugin loads main.js in a new fake app on the vault (and more files), the active note the project's context. */
export async function freshPlugin(lang: "en" | "fr", more: Record<string, string> = {}): Promise<ScreenContext> {
  const app = new App({ ...vault, ...more });
  app.data["kessho"] = { lang, tz: "Europe/Paris", rehearse: false };
  const plugin = await loadPlugin(mainJs(), app);
  plugin.clock = () => now;
  app.workspace.activeFile = new TFile(app.vault, contextPath);
  return { app, plugin, lang };
}

/** reset forgets the fake's records of earlier shots. */
export function reset(): void {
  Setting.all.length = 0;
  Modal.opened = [];
  Notice.messages = [];
  Notice.fragments = [];
}

/** modalHTML is the last opened modal as Obsidian draws it. */
export function modalHTML(): string {
  const m = Modal.opened.at(-1);
  if (m === undefined) throw new Error("no modal is open");
  return toHTML(m.modalEl);
}

/** noticeHTML is the last Notice shown. */
export function noticeHTML(): string {
  const frag = Notice.fragments.at(-1);
  const last = Notice.messages.at(-1) ?? "";
  const body = frag !== undefined && frag.getText() === last ? toHTML(frag) : escapeText(last);
  return `<div class="notice-container"><div class="notice">${body}</div></div>`;
}

function escapeText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** viewHTML is a view in its leaf: its header's title, then its content. */
export function viewHTML(view: View & { contentEl: FakeEl }): string {
  return `<div class="workspace-leaf"><div class="view-header"><div class="view-header-title">${escapeText(view.getDisplayText())}</div></div><div class="view-content">${toHTML(view.contentEl)}</div></div>`;
}

/** openedForm waits for the form a command opened, its prefilled fields read, and returns it. */
export async function openedForm(what: string): Promise<Modal> {
  await until(() => Modal.opened.length > 0 && !Modal.opened.at(-1)!.modalEl.hasClass("kessho-loading"), what);
  return Modal.opened.at(-1)!;
}

/** command runs the plugin's command id (without the plugin's prefix). */
export function command(c: ScreenContext, id: string): void {
  const cmd = c.plugin.commands.find((x) => x.id === `kessho:${id}`);
  if (cmd === undefined) throw new Error(`no command ${id}: ${c.plugin.commands.map((x) => x.id).join(", ")}`);
  void cmd.callback?.();
}

/** formScreen is the form a command opens, as it first shows. */
function formScreen(id: string): Screen {
  return {
    name: `form-${id}`,
    async render(c) {
      command(c, id);
      await openedForm(`the form of ${id}`);
      await settle();
      return modalHTML();
    },
  };
}

/** settle lets the promises a screen started (a form's prefill read) run out. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
}

/** The command ids whose forms are shot. */
export const formCommands = ["archive-session", "new-project", "set-phase", "set-summary", "note-fact", "historize-project", "roll-back-archive", "context-hygiene", "worklog", "check-vault", "relocate-project"];

/** fillArchive fills the archive form as a person would: subject, what happened, one fact, one alias. */
async function fillArchive(c: ScreenContext): Promise<Modal> {
  command(c, "archive-session");
  const modal = await openedForm("the archive form");
  const fr = c.lang === "fr";
  typeInto(modal, "archive_subject", fr ? "Guide relu" : "French guide proofread");
  typeInto(modal, "archive_body_md", fr ? "Relu le guide.\n\n## Prochaines étapes\n- Le publier." : "Proofread the French guide.\n\n## Next steps\n- Publish it.");
  clickText(modal, fr ? "Ajouter un fait" : "Add a fact");
  typeInto(modal, "derive.0.fact", fr ? "Un guide est relu par une personne de langue maternelle" : "A guide is proofread by a native speaker");
  typeInto(modal, "derive.0.body", fr ? "La traduction automatique a manqué le ton deux fois." : "Machine translation missed the tone twice.");
  typeInto(modal, "archive_aliases", fr ? "relecture" : "proofreading");
  const alias = modal.modalEl.all().find((e) => e.dataset["param"] === "archive_aliases")!;
  alias.dispatch("keydown", { key: "Enter", preventDefault: () => undefined });
  return modal;
}

export const screens: Screen[] = [
  ...formCommands.map(formScreen),
  {
    name: "form-archive-session-filled",
    async render(c) {
      const modal = await fillArchive(c);
      modal.modalEl.find("kessho-more-toggle")[0]!.dispatch("click");
      // The extra properties under More: a row of name and value, and an empty one just added.
      clickText(modal, c.lang === "fr" ? "Ajouter une propriété" : "Add a property");
      typeInto(modal, "archive_extra_fm.0.key", c.lang === "fr" ? "relecteur" : "reviewer");
      typeInto(modal, "archive_extra_fm.0.value", "Camille");
      clickText(modal, c.lang === "fr" ? "Ajouter une propriété" : "Add a property");
      return modalHTML();
    },
  },
  {
    name: "preview-archive-session",
    async render(c) {
      const modal = await fillArchive(c);
      clickMain(modal);
      await until(() => modal.modalEl.find("kessho-preview").length === 1, "the preview");
      await settle();
      return modalHTML();
    },
  },
  {
    name: "preview-roll-back-archive",
    async render(c) {
      command(c, "roll-back-archive");
      const modal = await openedForm("the rollback form");
      clickMain(modal);
      await until(() => modal.modalEl.find("kessho-preview").length === 1, "the preview");
      await settle();
      return modalHTML();
    },
  },
  {
    name: "recall-view",
    async render(c) {
      command(c, "recall-project");
      await until(() => c.app.workspace.getLeavesOfType("kessho-recall")[0]?.view?.containerEl.find("kessho-recall-briefing").length === 1, "the briefing");
      await settle();
      return viewHTML(c.app.workspace.getLeavesOfType("kessho-recall")[0]!.view as View & { contentEl: FakeEl });
    },
  },
  {
    name: "settings-invalid-zone",
    async render(c) {
      const tab = c.plugin.settingTabs[0]!;
      tab.display();
      const tz = Setting.all.find((s) => tab.containerEl.all().includes(s.settingEl) && s.components[0] instanceof TextComponent)!;
      (tz.components[0] as TextComponent).input("Europe/Pariss");
      await settle();
      return `<div class="vertical-tab-content">${toHTML(tab.containerEl)}</div>`;
    },
  },
  {
    // A zone the device knows (its Intl ignores case) but the core does not: refused by the core, its right name suggested.
    name: "settings-zone-core-refused",
    async render(c) {
      const tab = c.plugin.settingTabs[0]!;
      tab.display();
      const tz = Setting.all.find((s) => tab.containerEl.all().includes(s.settingEl) && s.components[0] instanceof TextComponent)!;
      (tz.components[0] as TextComponent).input("europe/paris");
      await until(() => tz.settingEl.hasClass("kessho-setting-invalid"), "the core's refusal");
      await settle();
      return `<div class="vertical-tab-content">${toHTML(tab.containerEl)}</div>`;
    },
  },
  {
    // The search modal while typing: the last word a prefix ("proofr"), the hits' matched words highlighted.
    name: "search-modal",
    async render(c) {
      command(c, "search");
      await until(() => Modal.opened.length > 0, "the search modal");
      const modal = Modal.opened.at(-1)! as Modal & { type(v: string): void; draws: number; resultContainerEl: FakeEl };
      modal.type(c.lang === "fr" ? "guide proofr" : "french proofr");
      await until(() => modal.resultContainerEl.find("kessho-hit").length > 0, "the search's hits");
      await settle();
      return modalHTML();
    },
  },
  {
    // The search view in the sidebar, restored with a query and a kind filter.
    name: "search-view",
    async render(c) {
      command(c, "search-view");
      await until(() => c.app.workspace.getLeavesOfType("kessho-search")[0]?.view !== undefined, "the search view");
      const leaf = c.app.workspace.getLeavesOfType("kessho-search")[0]!;
      await leaf.setViewState({ type: "kessho-search", state: { query: "guide", zone: "", slug: "", kind: "" } });
      const view = leaf.view as View & { contentEl: FakeEl };
      await until(() => view.contentEl.find("kessho-hit").length > 0, "the view's hits");
      await settle();
      return viewHTML(view);
    },
  },
  {
    // A search refused: the vault's time zone setting holds a zone the core does not know; the refusal names the setting.
    name: "search-refused",
    async render(c) {
      c.plugin.settings.tz = "Europe/Pariss";
      command(c, "search");
      await until(() => Modal.opened.length > 0, "the search modal");
      const modal = Modal.opened.at(-1)! as Modal & { type(v: string): void; resultContainerEl: FakeEl };
      modal.type("guide");
      await until(() => modal.resultContainerEl.hasClass("kessho-search-refused"), "the search's refusal");
      await settle();
      return modalHTML();
    },
  },
  {
    // The same refusal in the sidebar's search view.
    name: "search-view-refused",
    async render(c) {
      c.plugin.settings.tz = "Europe/Pariss";
      command(c, "search-view");
      await until(() => c.app.workspace.getLeavesOfType("kessho-search")[0]?.view !== undefined, "the search view");
      const leaf = c.app.workspace.getLeavesOfType("kessho-search")[0]!;
      await leaf.setViewState({ type: "kessho-search", state: { query: "guide", zone: "", slug: "", kind: "" } });
      const view = leaf.view as View & { contentEl: FakeEl };
      await until(() => view.contentEl.find("kessho-search-refused").length > 0, "the view's refusal");
      await settle();
      return viewHTML(view);
    },
  },
  refusalScreen("refusal", "kessho-doc"),
  // A refusal that names the button to use: the project is archived.
  refusalScreen("refusal-archived", "old-site"),
];

/** refusalScreen is the phase form sent for slug, refused: the notice over the form, which says why. */
function refusalScreen(name: string, slug: string): Screen {
  return {
    name,
    async render(c) {
      c.app.workspace.activeFile = null;
      command(c, "set-phase");
      const modal = await openedForm("the form");
      typeInto(modal, "slug", slug);
      typeInto(modal, "phase", "published");
      clickMain(modal);
      await until(() => Notice.messages.length > 0, "the refusal");
      await settle();
      return noticeHTML() + '<div style="height:12px"></div>' + modalHTML();
    },
  };
}

/** typeInto types value into the field of a modal whose input carries data-param name. */
export function typeInto(modal: Modal, name: string, value: string): void {
  for (const s of Setting.all) {
    for (const comp of s.components) {
      const el = (comp as { inputEl?: FakeEl }).inputEl;
      if (el?.dataset["param"] === name && modal.modalEl.all().includes(el)) {
        (comp as unknown as { input(v: string): void }).input(value);
        return;
      }
    }
  }
  throw new Error(`no field ${name} in the form`);
}

/** clickText presses the button of a modal that reads text. */
export function clickText(modal: Modal, text: string): void {
  for (const s of Setting.all) {
    for (const comp of s.components) {
      const b = comp as { buttonEl?: FakeEl; click?: () => void };
      if (b.buttonEl?.text === text && modal.modalEl.all().includes(b.buttonEl)) {
        b.click!();
        return;
      }
    }
  }
  throw new Error(`no button ${text} in the form`);
}

/** clickMain presses the main button (the call to action) of a modal. */
export function clickMain(modal: Modal): void {
  for (const s of Setting.all) {
    for (const comp of s.components) {
      const b = comp as { buttonEl?: FakeEl; cta?: boolean; click?: () => void };
      if (b.cta === true && b.buttonEl !== undefined && modal.modalEl.all().includes(b.buttonEl)) {
        b.click!();
        return;
      }
    }
  }
  throw new Error("no main button in the form");
}
