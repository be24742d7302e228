// Words that name what the user sees, and settings that cannot break calls
// (issue 31): a refusal shown in Obsidian names the command, button, field
// or setting to use (core/i18n/hosts/obsidian.json), in English and
// French, while the API keeps the core's message byte for byte; a time
// zone is checked as it is typed, by the device and then by the core (a
// zone the device knows but the core does not is refused too), an invalid
// one is not saved and says why; a call refused because of a saved zone
// names the setting.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { App, ButtonComponent, Modal, Notice, setLanguage, Setting, TFile, type FakeEl, type TextComponent } from "../fake/obsidian";
import { loadPlugin } from "../fake/plugin";
import { mainJs, until } from "../node";
import { contextPath, freshPlugin, openedForm, reset, vault } from "../screens/screens";

function input(modal: Modal, name: string): TextComponent {
  for (const s of Setting.all) {
    for (const c of s.components) {
      const el = (c as { inputEl?: FakeEl }).inputEl;
      if (el?.dataset["param"] === name && modal.modalEl.all().includes(el)) return c as TextComponent;
    }
  }
  throw new Error(`no field ${name}`);
}

function mainButton(modal: Modal): ButtonComponent {
  for (const s of Setting.all) for (const c of s.components) if (c instanceof ButtonComponent && c.cta && modal.modalEl.all().includes(c.buttonEl)) return c;
  throw new Error("no main button");
}

const other = `10-episodes/projects/webshop/context.md`;

async function refusal(lang: "en" | "fr", slug: string, files: Record<string, string> = {}): Promise<string> {
  reset();
  setLanguage(lang);
  const c = await freshPlugin(lang, files);
  c.app.workspace.activeFile = null;
  void c.plugin.commands.find((x) => x.id === "kessho:set-phase")!.callback!();
  const modal = await openedForm("the form");
  input(modal, "slug").input(slug);
  input(modal, "phase").input("done");
  mainButton(modal).click();
  await until(() => Notice.messages.length > 0, "the refusal");
  return Notice.messages.at(-1)!;
}

describe("words and settings", () => {
  beforeEach(() => {
    reset();
    setLanguage("en");
  });

  test("a refusal names the command to use, not the tool; the API keeps the core's words", async () => {
    const files = { [other]: "---\nslug: webshop\nkind: project\n---\n" };
    assert.equal(await refusal("en", "zzz", files), 'no project or domain is named "zzz"; “Recall this project” lists them');
    assert.equal(await refusal("fr", "zzz", files), "aucun projet ni domaine ne s'appelle \"zzz\" ; « Remémorer ce projet » les liste");
    const c = await freshPlugin("en", files);
    const a = (await c.plugin.api.call("mem_update_phase", { slug: "zzz", phase: "done" })) as { error: { message: string } };
    assert.equal(a.error.message, 'no project or domain is named "zzz"; mem_list shows the existing ones', "the API answers as the CLI");
  });

  test("an archived project's refusal names the button that brings it back", async () => {
    const archived = { "10-episodes/archived/old/context.md": "---\nslug: old\nkind: project\n---\n" };
    assert.match(await refusal("en", "old", archived), /bring it back first with “Historize or revive”, “Bring it back” on$/);
    assert.match(await refusal("fr", "old", archived), /ramenez-le d'abord avec « Historiser ou raviver », « Le ramener » activé$/);
  });

  test("a refusal of one parameter names its field", async () => {
    const c = await freshPlugin("en");
    void c.plugin.commands.find((x) => x.id === "kessho:set-phase")!.callback!();
    const modal = await openedForm("the form");
    input(modal, "phase").input("one\ntwo");
    mainButton(modal).click();
    await until(() => Notice.messages.length > 0, "the refusal");
    assert.match(Notice.messages.at(-1)!, /^Phase: /);
    assert.ok(!Notice.messages.at(-1)!.includes('parameter "phase"'));
  });

  test("a time zone is checked as typed: an invalid one is said and not saved", async () => {
    const c = await freshPlugin("en");
    const tab = c.plugin.settingTabs[0]!;
    tab.display();
    const tz = Setting.all.find((s) => s.nameEl.text === "Vault time zone")!;
    const text = tz.components[0] as TextComponent;
    text.input("Asia/Tokyo");
    await until(() => (c.app.data["kessho"] as { tz?: string }).tz === "Asia/Tokyo", "the zone to be saved");
    text.input("Mars/Olympus");
    await new Promise((r) => setTimeout(r, 10));
    assert.match(tz.descEl.text, /⚠ Mars\/Olympus: not a time zone this device knows; not saved\./);
    assert.equal(c.plugin.settings.tz, "Asia/Tokyo", "the invalid zone is not taken");
    assert.equal((c.app.data["kessho"] as { tz?: string }).tz, "Asia/Tokyo", "nor saved");
    assert.ok(tz.settingEl.hasClass("kessho-setting-invalid"));
    // Obsidian 1.13's tab: the same check, the same refusal.
    const t13 = tab as unknown as { setControlValue(k: string, v: unknown): Promise<void> };
    await t13.setControlValue("tz", "Mars/Olympus");
    assert.equal(c.plugin.settings.tz, "Asia/Tokyo");
  });

  test("a zone the device knows but the core does not is said, with the name the core knows, and not saved", async () => {
    for (const lang of ["en", "fr"] as const) {
      reset();
      setLanguage(lang);
      const c = await freshPlugin(lang);
      // Every round the core is sent, to see that the core is asked.
      const zones: string[] = [];
      const step = c.plugin.engine.step.bind(c.plugin.engine);
      c.plugin.engine.step = (input, r) => {
        if (r !== undefined) zones.push(/"tz":"([^"]*)"/.exec(r.head + r.tail)?.[1] ?? "");
        return step(input, r);
      };
      const tab = c.plugin.settingTabs[0]!;
      tab.display();
      const tz = Setting.all.find((s) => s.nameEl.text === (lang === "fr" ? "Fuseau horaire du coffre" : "Vault time zone"))!;
      const text = tz.components[0] as TextComponent;
      text.input("Asia/Tokyo");
      await until(() => (c.app.data["kessho"] as { tz?: string }).tz === "Asia/Tokyo", "the zone to be saved");
      assert.ok(zones.includes("Asia/Tokyo"), "the core was asked before the zone was saved");
      // Intl takes any case ("asia/tokyo" is Asia/Tokyo to the device); the core's tzdata does not.
      assert.ok(new Intl.DateTimeFormat("en", { timeZone: "asia/tokyo" }).resolvedOptions().timeZone === "Asia/Tokyo");
      text.input("asia/tokyo");
      await until(() => tz.settingEl.hasClass("kessho-setting-invalid"), "the core's refusal");
      assert.ok(zones.includes("asia/tokyo"), "the core was asked");
      const said = lang === "fr" ? "⚠ asia/tokyo : fuseau inconnu du cœur de Kessho (vouliez-vous dire Asia/Tokyo ?) ; non enregistré." : "⚠ asia/tokyo: not a time zone Kessho's core knows (did you mean Asia/Tokyo?); not saved.";
      assert.ok(tz.descEl.text.endsWith(" " + said), tz.descEl.text);
      assert.equal(c.plugin.settings.tz, "Asia/Tokyo", "the zone the core refuses is not taken");
      assert.equal((c.app.data["kessho"] as { tz?: string }).tz, "Asia/Tokyo", "nor saved");
      // Obsidian 1.13's tab: the same checks, the same refusal.
      const t13 = tab as unknown as { setControlValue(k: string, v: unknown): Promise<void>; getSettingDefinitions(): { control: { validate?: (v: string) => unknown } }[] };
      await t13.setControlValue("tz", "asia/tokyo");
      assert.equal(c.plugin.settings.tz, "Asia/Tokyo");
      const validate = t13.getSettingDefinitions()[1]!.control.validate!;
      assert.equal(await validate("asia/tokyo"), said);
      assert.equal(await validate("Europe/Paris"), undefined);
      // Typed right, it is saved.
      text.input("Europe/Paris");
      await until(() => (c.app.data["kessho"] as { tz?: string }).tz === "Europe/Paris", "the corrected zone to be saved");
      assert.equal(tz.settingEl.hasClass("kessho-setting-invalid"), false);
    }
  });

  test("the core's verdict on a zone is what decides: refused, not saved; not asked (no engine), the device's stands", async () => {
    const c = await freshPlugin("en");
    const asked: string[] = [];
    let verdict: boolean | null = false;
    c.plugin.zoneKnown = (tz) => {
      asked.push(tz);
      return Promise.resolve(verdict);
    };
    const tab = c.plugin.settingTabs[0]!;
    tab.display();
    const tz = Setting.all.find((s) => s.nameEl.text === "Vault time zone")!;
    const text = tz.components[0] as TextComponent;
    // A zone every device knows, refused by the (injected) core: not saved, the core's words.
    text.input("Asia/Tokyo");
    await until(() => tz.settingEl.hasClass("kessho-setting-invalid"), "the refusal");
    assert.match(tz.descEl.text, /⚠ Asia\/Tokyo: not a time zone Kessho's core knows; not saved\.$/);
    assert.equal(c.plugin.settings.tz, "Europe/Paris");
    assert.equal((c.app.data["kessho"] as { tz?: string }).tz, "Europe/Paris");
    // One the device refuses is refused at once: the core is not asked.
    asked.length = 0;
    text.input("Mars/Olympus");
    assert.match(tz.descEl.text, /⚠ Mars\/Olympus: not a time zone this device knows; not saved\.$/);
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(asked, []);
    // The core could not say (its engine failed): the device's verdict stands, the zone is saved.
    verdict = null;
    text.input("Asia/Tokyo");
    await until(() => (c.app.data["kessho"] as { tz?: string }).tz === "Asia/Tokyo", "the zone to be saved");
    assert.equal(tz.settingEl.hasClass("kessho-setting-invalid"), false);
  });

  test("a saved zone the core refuses (synced from elsewhere) is said when the settings open: calls fail until it is corrected", async () => {
    setLanguage("fr");
    const app = new App({ ...vault });
    app.data["kessho"] = { lang: "fr", tz: "asia/tokyo", rehearse: false };
    const plugin = await loadPlugin(mainJs(), app);
    plugin.settingTabs[0]!.display();
    const tz = Setting.all.find((s) => s.nameEl.text === "Fuseau horaire du coffre")!;
    await until(() => tz.settingEl.hasClass("kessho-setting-invalid"), "the saved zone's refusal");
    assert.ok(tz.descEl.text.endsWith(" ⚠ asia/tokyo : fuseau inconnu du cœur de Kessho (vouliez-vous dire Asia/Tokyo ?) ; chaque appel échoue tant qu'il n'est pas corrigé."), tz.descEl.text);
  });

  test("a call refused because of a saved zone names the setting", async () => {
    setLanguage("fr");
    const app = new App({ ...vault });
    app.data["kessho"] = { lang: "fr", tz: "Mars/Olympus", rehearse: false };
    const plugin = await loadPlugin(mainJs(), app);
    app.workspace.activeFile = new TFile(app.vault, contextPath);
    void plugin.commands.find((x) => x.id === "kessho:set-phase")!.callback!();
    const modal = await openedForm("the form");
    input(modal, "phase").input("done");
    mainButton(modal).click();
    await until(() => Notice.messages.length > 0, "the refusal");
    assert.equal(
      Notice.messages.at(-1),
      "Le réglage « Fuseau horaire du coffre » de Kessho contient « Mars/Olympus », que le cœur ne connaît pas comme fuseau : corrigez-le dans Paramètres → Kessho (vide : le fuseau de cet appareil).",
    );
  });
});
