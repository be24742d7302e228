// The plugin's settings and how they resolve. Pure: the settings tab is in
// src/obsidian/settings-tab.ts.

import type { Lang } from "./catalog/catalog";

export interface Settings {
  /** "auto" follows Obsidian's language. */
  lang: "auto" | Lang;
  /** IANA zone of the vault; "" is the device's. */
  tz: string;
  /** Seconds one request to the core may take before its worker is stopped (src/engine/remote.ts). */
  deadline: number;
}

/** The bounds of the deadline setting, in seconds. */
export const minDeadline = 1;
export const maxDeadline = 600;

export const defaultSettings: Settings = { lang: "auto", tz: "", deadline: 10 };

/** validDeadline reports whether v is a deadline the settings accept: seconds from minDeadline to maxDeadline. */
export function validDeadline(v: number): boolean {
  return Number.isFinite(v) && v >= minDeadline && v <= maxDeadline;
}

/** mergeSettings reads saved data, keeping only known, well-typed values. */
export function mergeSettings(saved: unknown): Settings {
  const out: Settings = { ...defaultSettings };
  if (saved !== null && typeof saved === "object") {
    const s = saved as Record<string, unknown>;
    if (s["lang"] === "en" || s["lang"] === "fr" || s["lang"] === "auto") out.lang = s["lang"];
    if (typeof s["tz"] === "string") out.tz = s["tz"].trim();
    const d = s["deadline"];
    if (typeof d === "number" && validDeadline(d)) out.deadline = d;
  }
  return out;
}

/** langOf turns an app language ("fr", "fr-CA", "en-gb", …) into Kessho's: fr or en. */
export function langOf(appLanguage: string | undefined | null): Lang {
  return (appLanguage ?? "").toLowerCase().startsWith("fr") ? "fr" : "en";
}

/** resolveLang returns the language calls use. */
export function resolveLang(s: Settings, appLanguage: string | undefined | null): Lang {
  return s.lang === "auto" ? langOf(appLanguage) : s.lang;
}

/** deviceZone returns the device's IANA zone, UTC when it has none. */
export function deviceZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** resolveTZ returns the zone calls use. */
export function resolveTZ(s: Settings): string {
  return s.tz !== "" ? s.tz : deviceZone();
}

/** validZone reports whether the runtime knows tz as an IANA zone. */
export function validZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
