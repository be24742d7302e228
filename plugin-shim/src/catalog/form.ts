// Forms drawn from the catalogue: which control each parameter gets, what
// it starts with, and how the values typed become the call's arguments.
// Pure: src/obsidian/tool-modal.ts draws these fields with Obsidian's
// Setting components.

import { textIn, type Lang, type Param, type Tool } from "./catalog";
import { messageOf } from "../host/port";

export type FieldKind = "text" | "textarea" | "dropdown" | "toggle" | "number" | "lines" | "json";

/** A form field for one parameter. */
export interface Field {
  name: string;
  label: string;
  desc: string;
  kind: FieldKind;
  required: boolean;
  /** dropdown: the choices; "" first when the parameter may be left out */
  options?: string[];
  /** number: integers only */
  integer?: boolean;
}

/** The values of a form: text for every kind but toggle. */
export type Values = Record<string, string | boolean>;

/** Where a form opens: the current project's slug, when the active note is in one. */
export interface FormContext {
  slug?: string | null;
}

/** label turns a parameter name into a sentence-case label: archive_subject → "Archive subject". */
export function label(name: string): string {
  let s = name.replace(/_md$/, "").replace(/_/g, " ");
  if (name.endsWith("_md")) s += " (Markdown)";
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function kindOf(p: Param): FieldKind {
  switch (p.type) {
    case "boolean":
      return "toggle";
    case "integer":
    case "number":
      return "number";
    case "object":
      return "json";
    case "array":
      return p.items?.type === "string" && !p.items.enum ? "lines" : "json";
    case "string":
      if (p.enum !== undefined && p.enum.length > 0) return "dropdown";
      if (p.name === "slug") return "text";
      // Free text has no bound in the catalogue; bounded strings are one line.
      if ((p.name ?? "").endsWith("_md") || p.max_length === undefined) return "textarea";
      return "text";
  }
}

/** fields returns the form of tool, in lang. */
export function fields(tool: Tool, lang: Lang): Field[] {
  return tool.params.map((p) => {
    const f: Field = {
      name: p.name ?? "",
      label: label(p.name ?? ""),
      desc: textIn(p.description, lang),
      kind: kindOf(p),
      required: p.required === true,
    };
    if (f.kind === "dropdown") f.options = [...(p.required || p.default !== undefined ? [] : [""]), ...(p.enum ?? [])];
    if (f.kind === "number") f.integer = p.type === "integer";
    return f;
  });
}

/** initialValues returns what a fresh form holds: defaults, and the current slug. */
export function initialValues(tool: Tool, ctx: FormContext): Values {
  const out: Values = {};
  for (const f of fields(tool, "en")) {
    const p = tool.params.find((q) => q.name === f.name)!;
    const d = p.default;
    switch (f.kind) {
      case "toggle":
        out[f.name] = d === true;
        break;
      case "lines":
        out[f.name] = Array.isArray(d) ? d.map(String).join("\n") : "";
        break;
      case "json":
        out[f.name] = d === undefined ? "" : JSON.stringify(d, null, 2);
        break;
      default:
        out[f.name] = defaultText(d);
    }
  }
  if ("slug" in out && ctx.slug) out["slug"] = ctx.slug;
  return out;
}

/**
 * defaultText is a parameter's default as a text field shows it: a scalar as
 * it reads, nothing for none, any other value as JSON (never "[object Object]").
 */
function defaultText(d: unknown): string {
  if (d === undefined || d === null) return "";
  if (typeof d === "string" || typeof d === "number" || typeof d === "boolean") return String(d);
  return JSON.stringify(d);
}

/** A value the form itself cannot turn into an argument. */
export interface FormError {
  param: string;
  en: string;
  fr: string;
}

/**
 * argsFrom turns a form's values into the call's arguments. A required
 * parameter is always sent (the core says what is wrong with it); an
 * optional one only when given: text not empty, a list with an item, a
 * toggle away from its default.
 */
export function argsFrom(tool: Tool, values: Values): { args: Record<string, unknown> } | { error: FormError } {
  const args: Record<string, unknown> = {};
  for (const f of fields(tool, "en")) {
    const p = tool.params.find((q) => q.name === f.name)!;
    const v = values[f.name];
    if (f.kind === "toggle") {
      const b = v === true;
      if (f.required || b !== (p.default === true)) args[f.name] = b;
      continue;
    }
    const s = typeof v === "string" ? v : "";
    switch (f.kind) {
      case "number": {
        if (s.trim() === "") continue;
        const n = Number(s.trim());
        if (!Number.isFinite(n)) {
          return { error: { param: f.name, en: `${f.label}: "${s}" is not a number`, fr: `${f.label} : « ${s} » n'est pas un nombre` } };
        }
        args[f.name] = n;
        break;
      }
      case "lines": {
        const items = s
          .split(/\r\n|\r|\n/)
          .map((l) => l.trim())
          .filter((l) => l !== "");
        if (f.required || items.length > 0) args[f.name] = items;
        break;
      }
      case "json": {
        if (s.trim() === "") continue;
        try {
          args[f.name] = JSON.parse(s);
        } catch (err) {
          const why = messageOf(err);
          return { error: { param: f.name, en: `${f.label}: not valid JSON (${why})`, fr: `${f.label} : JSON invalide (${why})` } };
        }
        break;
      }
      default:
        if (f.required || s !== "") args[f.name] = s;
    }
  }
  return { args };
}

/**
 * slugFromPath returns the project or domain a vault path lies in:
 * 10-episodes/(projects|domains|archived)/<slug>/…, or null.
 */
export function slugFromPath(path: string | null | undefined): string | null {
  if (!path) return null;
  const m = /^10-episodes\/(?:projects|domains|archived)\/([^/]+)\//.exec(path);
  return m ? m[1]! : null;
}
