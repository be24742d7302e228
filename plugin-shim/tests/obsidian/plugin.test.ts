// The plugin in the (fake) app: commands and the ribbon drawn from the
// catalogue, forms that keep what the user typed on a refusal, settings.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { App, ButtonComponent, Menu, Modal, Notice, setLanguage, Setting, TFile, type TextComponent } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { mainJs, until } from "../node";

const context = "10-episodes/projects/alpha/context.md";
const js = mainJs();

function field(name: string): TextComponent {
  const s = Setting.all.find((x) => x.nameEl.text === name);
  if (!s) throw new Error(`no field ${name}: ${Setting.all.map((x) => x.nameEl.text).join(", ")}`);
  return s.components[0] as TextComponent;
}

function button(text: string): ButtonComponent {
  for (const s of Setting.all) for (const c of s.components) if (c instanceof ButtonComponent && c.buttonEl.text === text) return c;
  throw new Error(`no button ${text}`);
}

async function freshPlugin(files: Record<string, string> = {}): Promise<{ app: App; plugin: LoadedPlugin }> {
  const app = new App(files);
  const plugin = await loadPlugin(js, app);
  plugin.clock = () => new Date(Date.UTC(2026, 10, 30, 9, 15, 0));
  return { app, plugin };
}

describe("plugin", () => {
  beforeEach(() => {
    Setting.all.length = 0;
    Modal.opened = [];
    Notice.messages = [];
    Notice.fragments = [];
    Menu.last = null;
    setLanguage("en");
  });

  test("one command per catalogue tool with a button; stable ids; no default hotkeys", async () => {
    const { plugin } = await freshPlugin();
    const tools = new Set(plugin.api.catalog.tools.map((t) => t.name));
    const want = [
      ["kessho:archive-session", "mem_archive", "Archive session"],
      ["kessho:new-project", "mem_init_project", "New project"],
      ["kessho:set-phase", "mem_update_phase", "Set phase"],
      ["kessho:set-summary", "mem_set_summary", "Set summary"],
      ["kessho:note-fact", "mem_note", "Note a fact"],
      ["kessho:historize-project", "mem_historize", "Historize or revive"],
      ["kessho:roll-back-archive", "mem_rollback_archive", "Roll back last archive"],
      ["kessho:context-hygiene", "mem_context_hygiene", null],
      ["kessho:worklog", "mem_worklog", null],
      ["kessho:check-vault", "mem_check", "Check the vault"],
      ["kessho:relocate-project", "mem_relocate_project", "Move a repository"],
      ["kessho:search", "mem_search", "Search memory"],
      ["kessho:search-view", "mem_search", "Open memory search in the sidebar"],
      ["kessho:recall-project", "mem_recall", "Recall this project"],
    ].filter(([, tool]) => tools.has(tool!));
    assert.deepEqual(
      plugin.commands.map((c) => c.id),
      want.map(([id]) => id),
    );
    for (const [id, , name] of want) {
      const c = plugin.commands.find((x) => x.id === id)!;
      if (name !== null) assert.equal(c.name, name);
      assert.equal(c.hotkeys, undefined);
    }
    assert.ok(plugin.commands.some((c) => c.id === "kessho:set-phase"));
  });

  test("without WebAssembly (iOS Lockdown Mode) it says so once at start, and each call says why", async () => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, "WebAssembly")!;
    Reflect.deleteProperty(globalThis, "WebAssembly");
    try {
      setLanguage("fr");
      const { app, plugin } = await freshPlugin({ [context]: "---\nphase: draft\n---\n" });
      const said = Notice.messages.filter((m) => m.includes("WebAssembly"));
      assert.equal(said.length, 1, `notices: ${JSON.stringify(Notice.messages)}`);
      assert.match(said[0]!, /mode Isolement/);
      // The API rejects as for any engine failure; the plugin's buttons show the message.
      await assert.rejects(plugin.api.call("mem_update_phase", { slug: "alpha", phase: "review" }), /WebAssembly y est désactivé/);
      assert.equal(new TextDecoder().decode(app.vault.files.get(context)), "---\nphase: draft\n---\n");
    } finally {
      Object.defineProperty(globalThis, "WebAssembly", saved);
    }
  });

  test("command names follow Obsidian's language", async () => {
    setLanguage("fr-CA");
    const { plugin } = await freshPlugin();
    assert.equal(plugin.lang(), "fr");
    assert.equal(plugin.commands.find((c) => c.id === "kessho:set-phase")!.name, "Changer la phase");
  });

  test("the ribbon menu lists the actions and opens their forms", async () => {
    const { plugin } = await freshPlugin();
    assert.equal(plugin.ribbonIcons.length, 1);
    plugin.ribbonIcons[0]!.callback({});
    assert.ok(Menu.last !== null);
    const titles = Menu.last!.items.map((i) => i.title);
    assert.deepEqual(titles, plugin.commands.map((c) => c.name));
    Menu.last!.items.find((i) => i.title === "Set summary")!.click();
    assert.equal(Modal.opened.length, 1);
    assert.equal(Modal.opened[0]!.titleEl.text, "Set summary");
  });

  test("a form keeps what the user typed on a refusal, then runs", async () => {
    const { app, plugin } = await freshPlugin({ [context]: "---\nphase: draft # keep me\n---\nBody\n" });
    app.workspace.activeFile = new TFile(app.vault, context);
    plugin.commands.find((c) => c.id === "kessho:set-phase")!.callback!();
    await until(() => Modal.opened.length === 1 && !Modal.opened[0]!.modalEl.hasClass("kessho-loading"), "the form");
    const modal = Modal.opened[0]!;
    assert.equal(field("Project").getValue(), "alpha", "the active note's project is preselected");
    assert.equal(field("Phase").getValue(), "draft", "the phase starts as the project's");
    field("Project").input("alpah");
    field("Phase").input("review");
    button("Set phase").click();
    await until(() => Notice.messages.length === 1, "the refusal");
    assert.match(Notice.messages[0]!, /alpah/);
    assert.ok(modal.isOpen, "the modal stays open on a refusal");
    assert.equal(field("Phase").getValue(), "review");
    assert.equal(field("Project").getValue(), "alpah");
    assert.match(modal.contentEl.find("kessho-error")[0]!.text, /alpah/);

    // Closed and opened again, the form still holds what was typed.
    modal.close();
    Setting.all.length = 0;
    plugin.commands.find((c) => c.id === "kessho:set-phase")!.callback!();
    await until(() => Modal.opened.length === 1 && !Modal.opened[0]!.modalEl.hasClass("kessho-loading"), "the form again");
    const again = Modal.opened[0]!;
    assert.equal(field("Project").getValue(), "alpah");
    assert.equal(field("Phase").getValue(), "review", "the draft, not the project's phase");
    field("Project").input("alpha");
    button("Set phase").click();
    await until(() => !again.isOpen, "the modal to close");
    // The summary is rendered as Markdown, not shown with its stars and backticks.
    assert.equal(Notice.messages[1], "Phase of alpha set to review (was draft).");
    const shown = Notice.fragments.at(-1)!;
    assert.deepEqual(
      shown.all().filter((e) => e.tag === "strong" || e.tag === "code").map((e) => `${e.tag}:${e.text}`),
      ["strong:alpha", "code:review", "code:draft"],
    );
    assert.equal(new TextDecoder().decode(app.vault.files.get(context)), "---\nphase: review # keep me\n---\nBody\n");
    assert.equal(plugin.drafts.size, 0);
  });

  test("the check command runs mem_check and shows its report", async () => {
    const { plugin } = await freshPlugin({ [context]: "---\nphase: draft\n---\nSee [[nowhere]].\n" });
    plugin.commands.find((c) => c.id === "kessho:check-vault")!.callback!();
    await until(() => Modal.opened.length === 1, "the form");
    const modal = Modal.opened[0]!;
    assert.equal(modal.titleEl.text, "Check the vault");
    button("Check").click();
    await until(() => Notice.messages.length === 1, "the report");
    assert.match(Notice.messages[0]!, /Findings \(1\)/);
    assert.match(Notice.messages[0]!, /BROKEN_LINK 10-episodes\/projects\/alpha\/context\.md:4/);
  });

  test("settings: language and time zone are saved and used by calls", async () => {
    const { app, plugin } = await freshPlugin({ [context]: "---\nphase: draft\n---\n" });
    const seen: string[] = [];
    const step = plugin.engine.step.bind(plugin.engine);
    plugin.engine.step = (input, r) => {
      if (r !== undefined) seen.push(r.head + JSON.stringify(r.now) + r.tail);
      return step(input, r);
    };
    const tab = plugin.settingTabs[0]!;
    tab.display();
    const lang = Setting.all.find((s) => s.nameEl.text === "Language")!.components[0] as unknown as { options: [string, string][]; input(v: string): void };
    assert.deepEqual(
      lang.options.map(([v]) => v),
      ["auto", "en", "fr"],
    );
    lang.input("fr");
    await until(() => (app.data["kessho"] as { lang?: string } | undefined)?.lang === "fr", "the setting to be saved");
    Setting.all.length = 0;
    tab.display();
    const tz = Setting.all.find((s) => s.nameEl.text === "Fuseau horaire du coffre")!;
    (tz.components[0] as TextComponent).input("Asia/Tokyo");
    await until(() => (app.data["kessho"] as { tz?: string }).tz === "Asia/Tokyo", "the zone to be saved");
    (tz.components[0] as TextComponent).input("Mars/Olympus");
    assert.match(tz.descEl.text, /Mars\/Olympus/);
    (tz.components[0] as TextComponent).input("Asia/Tokyo");
    // The time limit: out of bounds is said and not kept; in bounds is saved.
    const limit = Setting.all.find((s) => s.nameEl.text === "Durée maximale d'un appel")!;
    (limit.components[0] as TextComponent).input("0");
    assert.match(limit.descEl.text, /⚠ 0 : pas un nombre de secondes de 1 à 600 ; non enregistré\./);
    assert.equal(plugin.settings.deadline, 10);
    (limit.components[0] as TextComponent).input("25");
    await until(() => (app.data["kessho"] as { deadline?: number }).deadline === 25, "the time limit to be saved");
    // The rehearsal after start: a toggle, off in the tests' plugins, saved when turned on and off.
    const warm = Setting.all.find((s) => s.nameEl.text === "Préchauffer après le démarrage")!;
    const toggle = warm.components[0] as unknown as { getValue(): boolean; input(v: boolean): void };
    assert.equal(toggle.getValue(), false);
    toggle.input(true);
    await until(() => (app.data["kessho"] as { rehearse?: boolean }).rehearse === true, "the rehearsal to be turned on");
    toggle.input(false);
    await until(() => (app.data["kessho"] as { rehearse?: boolean }).rehearse === false, "the rehearsal to be turned off");

    const a = (await plugin.api.call("mem_update_phase", { slug: "alpha", phase: "x" })) as { ok: boolean };
    assert.equal(a.ok, true);
    // The time as the clock gives it; the core makes it canonical. (The rounds before are the zone's checks by the core.)
    assert.ok(seen.some((r) => r.startsWith('{"tool":"mem_list","args":{},') && r.includes('"tz":"Asia/Tokyo"')), "the core checked the zone");
    const phase = seen.find((r) => r.startsWith('{"tool":"mem_update_phase"'));
    assert.match(phase ?? "", /"now":"2026-11-30T09:15:00.000Z","tz":"Asia\/Tokyo","lang":"fr"/);

    // Saved settings come back at the next load.
    const again = await loadPlugin(js, app);
    assert.deepEqual(again.settings, { lang: "fr", tz: "Asia/Tokyo", deadline: 25, rehearse: false });
  });

  test("settings on Obsidian 1.13: both are declared for its search, read, saved and checked", async () => {
    const { app, plugin } = await freshPlugin();
    type Def = { name: string; control: { key: string; options?: Record<string, string>; validate?: (v: string) => string | undefined | Promise<string | undefined> } };
    const tab = plugin.settingTabs[0]! as unknown as {
      getSettingDefinitions(): Def[];
      getControlValue(k: string): unknown;
      setControlValue(k: string, v: unknown): Promise<void>;
      updates: number;
    };
    const defs = tab.getSettingDefinitions();
    assert.deepEqual(
      defs.map((d) => [d.name, d.control.key]),
      [
        ["Language", "lang"],
        ["Vault time zone", "tz"],
        ["Time limit of a call", "deadline"],
        ["Warm up after start", "rehearse"],
      ],
    );
    assert.deepEqual(Object.keys(defs[0]!.control.options!), ["auto", "en", "fr"]);
    assert.equal(tab.getControlValue("lang"), "auto");
    await tab.setControlValue("lang", "fr");
    assert.equal((app.data["kessho"] as { lang?: string }).lang, "fr");
    assert.equal(tab.updates, 1, "the tab redraws in the new language");
    assert.equal(tab.getSettingDefinitions()[1]!.name, "Fuseau horaire du coffre");
    await tab.setControlValue("tz", " Asia/Tokyo ");
    assert.equal((app.data["kessho"] as { tz?: string }).tz, "Asia/Tokyo");
    assert.equal(tab.getControlValue("tz"), "Asia/Tokyo");
    const validate = tab.getSettingDefinitions()[1]!.control.validate!;
    // A zone the device refuses is said at once; one it knows, once the core has said too.
    assert.match((validate("Mars/Olympus") as string | undefined) ?? "", /Mars\/Olympus/);
    assert.ok(validate("Asia/Tokyo") instanceof Promise);
    assert.equal(await validate("Asia/Tokyo"), undefined);
    assert.equal(validate(""), undefined);
    await tab.setControlValue("lang", "xx");
    assert.equal(plugin.settings.lang, "fr", "an unknown value is not taken");
    assert.equal(tab.getControlValue("deadline"), 10);
    await tab.setControlValue("deadline", 30);
    assert.equal((app.data["kessho"] as { deadline?: number }).deadline, 30);
    await tab.setControlValue("deadline", 0);
    assert.equal(plugin.settings.deadline, 30, "a time limit out of bounds is not taken");
    const limit = tab.getSettingDefinitions()[2]!.control.validate as unknown as (v: number) => string | undefined;
    assert.match(limit(0) ?? "", /pas un nombre de secondes/);
    assert.equal(limit(10), undefined);
    // The rehearsal: a boolean, saved (the tests' plugins load with it off).
    assert.equal(tab.getControlValue("rehearse"), false);
    await tab.setControlValue("rehearse", true);
    assert.equal((app.data["kessho"] as { rehearse?: boolean }).rehearse, true);
    await tab.setControlValue("rehearse", "yes");
    assert.equal(plugin.settings.rehearse, true, "a value that is not a boolean is not taken");
  });

  test("unload leaves nothing behind", async () => {
    const { plugin } = await freshPlugin();
    plugin.unload();
  });
});
