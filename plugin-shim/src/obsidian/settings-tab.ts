// The settings tab: language, the vault's time zone, the time limit of a
// call and the rehearsal after start. Obsidian 1.13 and later draw it from
// getSettingDefinitions (so its settings search finds them); earlier
// versions (minAppVersion is 1.6.6) call display(), which draws the same
// settings by hand. A zone is checked as it is typed by the device's Intl
// (at once), then by the core, which is what uses it (src/host/zone.ts):
// a zone either refuses is said, and not saved.

import { PluginSettingTab, requireApiVersion, Setting, type App, type Plugin, type SettingDefinitionItem } from "obsidian";
import type { Lang } from "../catalog/catalog";
import type { Words } from "../i18n";
import { defaultSettings, deviceZone, maxDeadline, minDeadline, validDeadline, validZone, type Settings } from "../settings";

/** What the tab needs from the plugin. */
export interface SettingsHost extends Plugin {
  settings: Settings;
  saveSettings(): Promise<void>;
  words(): Words;
  /** zoneKnown asks the core whether it can use a zone: true, false, or null when it could not be asked. */
  zoneKnown(tz: string): Promise<boolean | null>;
}

export class KesshoSettingTab extends PluginSettingTab {
  /** Counts the zones typed: a check the core answers after a newer zone was typed is dropped. */
  private zoneSeq = 0;

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
          // A zone this device or the core does not know is refused, its name in the message, and not saved.
          validate: (v: string) => this.zoneCheck(v, w),
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
    else if (key === "tz" && typeof value === "string") {
      if (!(await this.zoneTaken(value))) return;
      this.host.settings.tz = value.trim();
    } else if (key === "deadline" && typeof value === "number" && validDeadline(value)) this.host.settings.deadline = value;
    else if (key === "rehearse" && typeof value === "boolean") this.host.settings.rehearse = value;
    else return;
    await this.host.saveSettings();
    // The tab's own words follow a new language.
    if (requireApiVersion("1.13.0") && key === "lang") this.update();
  }

  /**
   * zoneCheck says why v cannot be the vault's time zone, or undefined
   * when it can: at once when the device does not know it, else once the
   * core has said (a Promise). Said of the saved value (one saved before
   * it was checked, or synced from another device), it says that calls
   * fail until it is corrected, not that it is not saved.
   */
  private zoneCheck(v: string, w: Words): string | undefined | Promise<string | undefined> {
    const z = v.trim();
    const told = (why: string | undefined) => (why === undefined ? undefined : (z === this.host.settings.tz ? w.settingBroken : w.settingRefused).replace("{v}", z).replace("{why}", why));
    const fast = zoneWhy(z, w);
    if (fast !== undefined || z === "") return told(fast);
    return coreZoneWhy(z, w, (tz) => this.host.zoneKnown(tz)).then(told);
  }

  /** zoneTaken tells whether v may be saved as the zone: the device and the core take it, and no zone was typed since. */
  private async zoneTaken(v: string): Promise<boolean> {
    const seq = ++this.zoneSeq;
    const z = v.trim();
    const w = this.host.words();
    const why = zoneWhy(z, w) ?? (await coreZoneWhy(z, w, (tz) => this.host.zoneKnown(tz)));
    return why === undefined && seq === this.zoneSeq;
  }

  /** drawZone draws the zone's setting (Obsidian before 1.13): checked as typed, saved only when both checks pass. */
  private drawZone(containerEl: HTMLElement, w: Words): void {
    const tz = new Setting(containerEl).setName(w.settingsTZ);
    const describe = (bad: string | undefined) => {
      tz.setDesc(`${w.settingsTZDesc} (${deviceZone()}).` + (bad !== undefined ? " " + bad : ""));
      tz.settingEl.toggleClass("kessho-setting-invalid", bad !== undefined);
    };
    // What the value v is said to be, once both checks have said, unless a newer zone was typed meanwhile.
    const show = async (v: string) => {
      const seq = this.zoneSeq;
      const bad = await this.zoneCheck(v, w);
      if (seq === this.zoneSeq) describe(bad);
    };
    // The saved zone is checked when the tab opens: one the core refuses is said.
    describe(undefined);
    void show(this.host.settings.tz);
    tz.addText((t) =>
      t
        .setPlaceholder(deviceZone())
        .setValue(this.host.settings.tz)
        .onChange(async (v) => {
          // The device's verdict at once; the core's when it answers.
          describe(zoneProblem(v, w));
          if (await this.zoneTaken(v)) {
            this.host.settings.tz = v.trim();
            await this.host.saveSettings();
          }
          await show(v);
        }),
    );
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
    this.drawZone(containerEl, w);
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

/**
 * coreZoneWhy says why the core cannot use the zone z (known: its verdict,
 * src/host/zone.ts), or undefined when it takes it or could not be asked
 * (then the device's check stands). When the core refuses z but takes the
 * device's canonical name for it ("Asia/Tokyo" for "asia/tokyo": Intl
 * ignores case, the core's tzdata does not), that name is suggested.
 */
export async function coreZoneWhy(z: string, w: Words, known: (tz: string) => Promise<boolean | null>): Promise<string | undefined> {
  if (z === "" || (await known(z)) !== false) return undefined;
  const canon = canonicalZone(z);
  return w.badZoneCore + (canon !== z && (await known(canon)) === true ? " " + w.zoneMeant.replace("{z}", canon) : "");
}

/** canonicalZone is the device's name for the zone tz (its case, a link's target), tz when it has none. */
function canonicalZone(tz: string): string {
  try {
    return new Intl.DateTimeFormat("en", { timeZone: tz }).resolvedOptions().timeZone || tz;
  } catch {
    return tz;
  }
}

/** zoneWhy says why the device does not know z as a time zone, or undefined when it does (or z is empty: the device's). */
function zoneWhy(z: string, w: Words): string | undefined {
  return z !== "" && !validZone(z) ? w.badZone : undefined;
}

/** zoneProblem says why v cannot be the vault's time zone for this device (its name in the sentence), or undefined when it can (empty: the device's). */
export function zoneProblem(v: string, w: Words): string | undefined {
  const z = v.trim();
  const why = zoneWhy(z, w);
  return why !== undefined ? refused(w, z, why) : undefined;
}

/** refused is the sentence for a typed value a setting refuses: the value, why, and that it is not saved. */
function refused(w: Words, value: string, why: string): string {
  return w.settingRefused.replace("{v}", value).replace("{why}", why);
}
