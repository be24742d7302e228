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
  /** Rehearse calls on a project held in memory when Obsidian is idle after start (src/host/rehearsal.ts). */
  rehearse: boolean;
}

/** The bounds of the deadline setting, in seconds. */
export const minDeadline = 1;
export const maxDeadline = 600;

export const defaultSettings: Settings = { lang: "auto", tz: "", deadline: 10, rehearse: true };

/** validDeadline reports whether v is a deadline the settings accept: seconds from minDeadline to maxDeadline. */
export function validDeadline(v: number): boolean {
  return Number.isFinite(v) && v >= minDeadline && v <= maxDeadline;
}

/**
 * mergeSettings reads saved data, keeping only known, well-typed values.
 * On a phone or tablet (mobile) the rehearsal is off unless turned on:
 * its few seconds of work after each start cost battery there.
 */
export function mergeSettings(saved: unknown, mobile = false): Settings {
  const out: Settings = { ...defaultSettings, rehearse: !mobile };
  if (saved !== null && typeof saved === "object") {
    const s = saved as Record<string, unknown>;
    if (s["lang"] === "en" || s["lang"] === "fr" || s["lang"] === "auto") out.lang = s["lang"];
    if (typeof s["tz"] === "string") out.tz = s["tz"].trim();
    const d = s["deadline"];
    if (typeof d === "number" && validDeadline(d)) out.deadline = d;
    if (typeof s["rehearse"] === "boolean") out.rehearse = s["rehearse"];
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

/** How long deviceZone keeps the zone it found, in ms. */
const zoneKept = 60_000;
let zone = { name: "", at: -Infinity };

/**
 * deviceZone returns the device's IANA zone, UTC when it has none. It is
 * looked up at most once a minute: a DateTimeFormat made for it cost
 * 0.3-1 ms a call, and the first one in a window 100-150 ms (the locale
 * data loaded), a long task of a call's. A device that changes zone (a
 * laptop that travels) is seen within the minute.
 */
export function deviceZone(now = Date.now()): string {
  if (zone.name !== "" && now - zone.at < zoneKept) return zone.name;
  let name = "UTC";
  try {
    name = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    // no Intl zone data: UTC
  }
  zone = { name, at: now };
  return name;
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
