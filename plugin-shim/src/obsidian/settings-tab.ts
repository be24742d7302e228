// The settings tab: language, the vault's time zone, the time limit of a
// call and the rehearsal after start. Obsidian 1.13 and later draw it from
// getSettingDefinitions (so its settings search finds them); earlier
// versions (minAppVersion is 1.6.6) call display(), which draws the same
// settings by hand.

import { PluginSettingTab, requireApiVersion, Setting, type App, type Plugin, type SettingDefinitionItem } from "obsidian";
import type { Lang } from "../catalog/catalog";
import type { Words } from "../i18n";
import { defaultSettings, deviceZone, maxDeadline, minDeadline, validDeadline, validZone, type Settings } from "../settings";

/** What the tab needs from the plugin. */
export interface SettingsHost extends Plugin {
  settings: Settings;
  saveSettings(): Promise<void>;
  words(): Words;
}

export class KesshoSettingTab extends PluginSettingTab {
  constructor(
    app: App,
    private host: SettingsHost,
  ) {
    super(app, host);
  }

  override getSettingDefinitions(): SettingDefinitionItem[] {
    const w = this.host.words();
    return [
      {
        name: w.settingsLang,
        desc: w.settingsLangDesc,
        control: { type: "dropdown", key: "lang", options: { auto: w.langAuto, en: "English", fr: "Français" } },
      },
      {
        name: w.settingsTZ,
        desc: `${w.settingsTZDesc} (${deviceZone()}).`,
        control: {
          type: "text",
          key: "tz",
          placeholder: deviceZone(),
          // A zone this device does not know is refused, its name in the message, and not saved.
          validate: (v: string) => zoneProblem(v, w),
        },
      },
      {
        name: w.settingsDeadline,
        desc: w.settingsDeadlineDesc,
        control: {
          type: "number",
          key: "deadline",
          min: minDeadline,
          max: maxDeadline,
          defaultValue: defaultSettings.deadline,
          placeholder: String(defaultSettings.deadline),
          validate: (v: number) => (validDeadline(v) ? undefined : refused(w, String(v), w.badDeadline)),
        },
      },
      { name: w.settingsRehearse, desc: w.settingsRehearseDesc, control: { type: "toggle", key: "rehearse" } },
    ];
  }

  override getControlValue(key: string): unknown {
    if (key === "lang") return this.host.settings.lang;
    if (key === "tz") return this.host.settings.tz;
    if (key === "deadline") return this.host.settings.deadline;
    if (key === "rehearse") return this.host.settings.rehearse;
    return undefined;
  }

  override async setControlValue(key: string, value: unknown): Promise<void> {
    if (key === "lang" && (value === "auto" || value === "en" || value === "fr")) this.host.settings.lang = value;
    else if (key === "tz" && typeof value === "string" && zoneProblem(value, this.host.words()) === undefined) this.host.settings.tz = value.trim();
    else if (key === "deadline" && typeof value === "number" && validDeadline(value)) this.host.settings.deadline = value;
    else if (key === "rehearse" && typeof value === "boolean") this.host.settings.rehearse = value;
    else return;
    await this.host.saveSettings();
    // The tab's own words follow a new language.
    if (requireApiVersion("1.13.0") && key === "lang") this.update();
  }

  /** display is what Obsidian before 1.13 calls to show the tab. */
  override display(): void {
    this.draw();
  }

  /** draw shows the settings by hand, and again when the language changes. */
  private draw(): void {
    const { containerEl } = this;
    const w = this.host.words();
    containerEl.empty();
    new Setting(containerEl)
      .setName(w.settingsLang)
      .setDesc(w.settingsLangDesc)
      .addDropdown((d) =>
        d
          .addOption("auto", w.langAuto)
          .addOption("en", "English")
          .addOption("fr", "Français")
          .setValue(this.host.settings.lang)
          .onChange(async (v) => {
            this.host.settings.lang = v as "auto" | Lang;
            await this.host.saveSettings();
            this.draw();
          }),
      );
    const tz = new Setting(containerEl).setName(w.settingsTZ);
    // A zone is checked as it is typed: one this device does not know is said, and not saved.
    const describe = (value: string) => {
      const bad = zoneProblem(value, w);
      tz.setDesc(`${w.settingsTZDesc} (${deviceZone()}).` + (bad !== undefined ? " " + bad : ""));
      tz.settingEl.toggleClass("kessho-setting-invalid", bad !== undefined);
      return bad === undefined;
    };
    describe(this.host.settings.tz);
    tz.addText((t) =>
      t
        .setPlaceholder(deviceZone())
        .setValue(this.host.settings.tz)
        .onChange(async (v) => {
          if (!describe(v)) return;
          this.host.settings.tz = v.trim();
          await this.host.saveSettings();
        }),
    );
    const deadline = new Setting(containerEl).setName(w.settingsDeadline).setDesc(w.settingsDeadlineDesc);
    deadline.addText((t) =>
      t
        .setPlaceholder(String(defaultSettings.deadline))
        .setValue(String(this.host.settings.deadline))
        .onChange(async (v) => {
          // A value out of bounds is not kept, and the description says why.
          const n = Number(v.trim());
          const ok = v.trim() !== "" && validDeadline(n);
          deadline.setDesc(w.settingsDeadlineDesc + (ok ? "" : " " + refused(w, v.trim(), w.badDeadline)));
          deadline.settingEl.toggleClass("kessho-setting-invalid", !ok);
          if (!ok) return;
          this.host.settings.deadline = n;
          await this.host.saveSettings();
        }),
    );
    new Setting(containerEl)
      .setName(w.settingsRehearse)
      .setDesc(w.settingsRehearseDesc)
      .addToggle((t) =>
        t.setValue(this.host.settings.rehearse).onChange(async (v) => {
          this.host.settings.rehearse = v;
          await this.host.saveSettings();
        }),
      );
  }
}

/** zoneProblem says why v cannot be the vault's time zone (its name in the sentence), or undefined when it can (empty: the device's). */
export function zoneProblem(v: string, w: Words): string | undefined {
  const z = v.trim();
  return z !== "" && !validZone(z) ? refused(w, z, w.badZone) : undefined;
}

/** refused is the sentence for a typed value a setting refuses: the value, why, and that it is not saved. */
function refused(w: Words, value: string, why: string): string {
  return w.settingRefused.replace("{v}", value).replace("{why}", why);
}
