// The core's messages in the words of Obsidian's buttons: the host variant
// core/i18n/hosts/obsidian.json (its Go package checks that every message
// of the core naming a tool or a parameter is rewritten there), applied
// as its Go side does, to what the plugin's screens show (a refusal, a
// success's summary and warnings). The API (app.plugins.plugins.kessho.api)
// and the differential with the CLI keep the core's messages byte for byte.
//
// A refusal of one parameter (INVALID_ARGUMENT, `parameter "phase": …`)
// names the form's field instead ("Phase: …"); one of the vault's time
// zone, which the plugin's settings give every call, names that setting.

import variant from "../../../core/i18n/hosts/obsidian.json";
import type { Lang } from "./catalog";
import type { Field } from "./form";

interface Rewrite {
  from: string;
  to: string;
}

const rewrites = variant.rewrites as Record<Lang, Rewrite[]>;

/** inObsidian returns msg, a message of the core in lang, in the words of the plugin's buttons. */
export function inObsidian(lang: Lang, msg: string): string {
  for (const r of rewrites[lang]) msg = msg.split(r.from).join(r.to);
  return msg;
}

/** A refusal as the core gives it. */
export interface Refusal {
  code: string;
  message: string;
  details?: unknown;
}

/** What shownRefusal needs: the form's fields (their labels) and the sentence naming the time zone setting. */
export interface RefusalWords {
  fields?: Field[];
  /** The sentence for a zone the core refuses: {v} is the zone. */
  badSettingZone: string;
}

/**
 * shownRefusal is a refusal's message as the plugin shows it: in the
 * buttons' words, a parameter named by its field's label, a refused time
 * zone by its setting.
 */
export function shownRefusal(lang: Lang, e: Refusal, w: RefusalWords): string {
  const param = (e.details as { parameter?: unknown } | undefined)?.parameter;
  if (e.code === "INVALID_ARGUMENT" && param === "tz") {
    const zone = /"([^"]*)"/.exec(e.message.replace(/^[^:]*: /, ""))?.[1] ?? "";
    return w.badSettingZone.replace("{v}", zone);
  }
  let msg = inObsidian(lang, e.message);
  const field = typeof param === "string" ? w.fields?.find((f) => f.name === param) : undefined;
  if (field !== undefined) {
    const prefix = lang === "fr" ? `paramètre « ${param as string} » : ` : `parameter "${param as string}": `;
    if (msg.startsWith(prefix)) msg = `${field.label}${lang === "fr" ? " : " : ": "}${msg.slice(prefix.length)}`;
  }
  return msg;
}
