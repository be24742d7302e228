// The settings tab: language and the vault's time zone.

import { PluginSettingTab, Setting, type App, type Plugin } from "obsidian";
import type { Lang } from "../catalog/catalog";
import type { Words } from "../i18n";
import { deviceZone, validZone, type Settings } from "../settings";

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

  override display(): void {
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
            this.display();
          }),
      );
    const tz = new Setting(containerEl).setName(w.settingsTZ);
    const describe = (value: string) => {
      const bad = value !== "" && !validZone(value);
      tz.setDesc(`${w.settingsTZDesc} (${deviceZone()}).` + (bad ? ` ⚠ ${value}: ${w.badZone}.` : ""));
    };
    describe(this.host.settings.tz);
    tz.addText((t) =>
      t
        .setPlaceholder(deviceZone())
        .setValue(this.host.settings.tz)
        .onChange(async (v) => {
          this.host.settings.tz = v.trim();
          describe(this.host.settings.tz);
          await this.host.saveSettings();
        }),
    );
  }
}
