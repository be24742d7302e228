// Forms drawn from the catalogue: which control each parameter gets, what
// it starts with, and how the values typed become the call's arguments.
// Pure: src/obsidian/tool-modal.ts draws these fields with Obsidian's
// Setting components.

import { textIn, type Lang, type Param, type Tool } from "./catalog";
import { people, type PersonParam } from "./people";
import { messageOf } from "../host/port";

export type FieldKind = "text" | "textarea" | "dropdown" | "toggle" | "number" | "lines" | "json" | "chips" | "atoms" | "pairs";

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
  /** dropdown, atoms: what each value reads as (the value itself when absent) */
  optionLabels?: Record<string, string>;
  /** Under "More", collapsed. */
  more?: boolean;
  /** The most characters, counted as the user types. */
  max?: number;
  /** Sent only when another field holds this value. */
  only?: { param: string; value: string };
}

/** A fact of the atom editor (mem_archive's derive): a sentence, its kind, why it holds. */
export interface AtomValue {
  fact: string;
  kind: string;
  body: string;
  /** Other words to find it by (sent only when there are some). */
  aliases?: string[];
}

/** A row of the properties editor (an object of free keys, archive_extra_fm): a property's name and its value, as typed. */
export interface PairValue {
  key: string;
  value: string;
}

/** The values of a form: text for most kinds, a boolean for toggles, a list for chips, facts for atoms, rows for pairs. */
export type Values = Record<string, string | boolean | string[] | AtomValue[] | PairValue[]>;

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

/** Options of argsFrom: the fields drawn (the catalogue's when absent), what prefilled fields started with. */
export interface ArgsOptions {
  fields?: Field[];
  /** A field left as it was prefilled is not sent, unless required (context_md: kept as it is). */
  baseline?: Values;
}

/**
 * argsFrom turns a form's values into the call's arguments. A required
 * parameter is always sent (the core says what is wrong with it); an
 * optional one only when given: text not empty, a list with an item, a
 * toggle away from its default, a prefilled text changed; and a field that
 * applies to one value of another (mode "full") only with it.
 */
export function argsFrom(tool: Tool, values: Values, o: ArgsOptions = {}): { args: Record<string, unknown> } | { error: FormError } {
  const args: Record<string, unknown> = {};
  for (const f of o.fields ?? fields(tool, "en")) {
    const p = tool.params.find((q) => q.name === f.name)!;
    const v = values[f.name];
    if (f.only !== undefined && values[f.only.param] !== f.only.value) continue;
    if (!f.required && o.baseline !== undefined && f.name in o.baseline && o.baseline[f.name] === v) continue;
    if (f.kind === "toggle") {
      const b = v === true;
      if (f.required || b !== (p.default === true)) args[f.name] = b;
      continue;
    }
    if (f.kind === "chips" || f.kind === "atoms") {
      const list = f.kind === "chips" ? chipsOf(v) : atomsOf(v);
      if (f.required || list.length > 0) args[f.name] = list;
      continue;
    }
    if (f.kind === "pairs") {
      const got = pairsArg(f, p, v);
      if ("error" in got) return got;
      if (f.required || Object.keys(got.value).length > 0) args[f.name] = got.value;
      continue;
    }
    const got = scalarArg(f, typeof v === "string" ? v : "");
    if (got === undefined) continue;
    if ("error" in got) return got;
    args[f.name] = got.value;
  }
  return { args };
}

/** chipsOf is a chips field's items, trimmed, blanks dropped. */
function chipsOf(v: unknown): string[] {
  return Array.isArray(v) ? (v as unknown[]).map((x) => String(x).trim()).filter((x) => x !== "") : [];
}

/** atomsOf is the atom editor's facts, trimmed; a fact left wholly blank is dropped. */
function atomsOf(v: unknown): AtomValue[] {
  if (!Array.isArray(v)) return [];
  return (v as AtomValue[])
    .map((a) => {
      const aliases = chipsOf(a.aliases);
      return { fact: a.fact.trim(), kind: a.kind, body: a.body.trim(), ...(aliases.length > 0 ? { aliases } : {}) };
    })
    .filter((a) => a.fact !== "" || a.body !== "");
}

/**
 * pairsArg is the properties editor's object: each row's name (trimmed)
 * and its value, typed as the parameter's props say for that name
 * (propValue), text otherwise: archive_extra_fm's schema is an object
 * with no props, so each value goes as the text typed. A row left wholly
 * blank is dropped; one with a value and no name, or a name given twice,
 * is refused, naming the field and the row.
 */
function pairsArg(f: Field, p: Param, v: unknown): { value: Record<string, unknown> } | { error: FormError } {
  const out: Record<string, unknown> = {};
  const rows = Array.isArray(v) ? (v as PairValue[]) : [];
  for (const [i, row] of rows.entries()) {
    const key = row.key.trim();
    if (key === "" && row.value.trim() === "") continue;
    const n = i + 1;
    if (key === "") {
      return { error: { param: f.name, en: `${f.label}: row ${n} has a value but no name; name the property, or remove the row`, fr: `${f.label} : la ligne ${n} a une valeur mais pas de nom ; nommez la propriété, ou retirez la ligne` } };
    }
    if (key in out) {
      return { error: { param: f.name, en: `${f.label}: “${key}” is given twice; keep one row for it`, fr: `${f.label} : « ${key} » est donné deux fois ; gardez-en une seule ligne` } };
    }
    const got = propValue(f, p.props?.find((q) => q.name === key), key, row.value);
    if ("error" in got) return got;
    out[key] = got.value;
  }
  return { value: out };
}

/**
 * propValue is one property's value as its schema (prop) types it: a
 * number, a boolean (true or false), a list of strings (one per comma);
 * text, as typed, when the schema says nothing of it or says a string.
 */
function propValue(f: Field, prop: Param | undefined, key: string, s: string): { value: unknown } | { error: FormError } {
  const t = s.trim();
  switch (prop?.type) {
    case "integer":
    case "number": {
      const n = Number(t);
      if (t !== "" && Number.isFinite(n) && (prop.type === "number" || Number.isInteger(n))) return { value: n };
      return { error: { param: f.name, en: `${f.label}: “${key}” is “${s}”, not a number`, fr: `${f.label} : « ${key} » vaut « ${s} », pas un nombre` } };
    }
    case "boolean":
      if (t === "true" || t === "false") return { value: t === "true" };
      return { error: { param: f.name, en: `${f.label}: “${key}” is “${s}”, not true or false`, fr: `${f.label} : « ${key} » vaut « ${s} », pas true ni false` } };
    case "array":
      return { value: t === "" ? [] : t.split(",").map((x) => x.trim()).filter((x) => x !== "") };
    default:
      return { value: s };
  }
}

/** scalarArg is a text-like field's argument: undefined when it is not sent. */
function scalarArg(f: Field, s: string): { value: unknown } | { error: FormError } | undefined {
  switch (f.kind) {
    case "number": {
      if (s.trim() === "") return undefined;
      const n = Number(s.trim());
      if (!Number.isFinite(n)) {
        return { error: { param: f.name, en: `${f.label}: "${s}" is not a number`, fr: `${f.label} : « ${s} » n'est pas un nombre` } };
      }
      return { value: n };
    }
    case "lines": {
      const items = s
        .split(/\r\n|\r|\n/)
        .map((l) => l.trim())
        .filter((l) => l !== "");
      return f.required || items.length > 0 ? { value: items } : undefined;
    }
    case "json": {
      if (s.trim() === "") return undefined;
      try {
        return { value: JSON.parse(s) };
      } catch (err) {
        const why = messageOf(err);
        return { error: { param: f.name, en: `${f.label}: not valid JSON (${why})`, fr: `${f.label} : JSON invalide (${why})` } };
      }
    }
    default:
      return f.required || s !== "" ? { value: s } : undefined;
  }
}

/**
 * personFields is the form a person fills for tool (src/catalog/people.ts):
 * its fields in their order there, then the catalogue's others under
 * "More"; the slug under "More" when the form opens on a project (ctx).
 * Without a person form, the catalogue's fields.
 */
export function personFields(tool: Tool, lang: Lang, ctx: FormContext = {}): Field[] {
  const spec = people[tool.name];
  const base = fields(tool, lang);
  if (spec === undefined) return base;
  const order = Object.keys(spec.params);
  const rank = (n: string) => (order.includes(n) ? order.indexOf(n) : order.length);
  const out = base.map((f) => personField(f, tool, spec.params[f.name], lang, ctx));
  return out.sort((a, b) => Number(a.more === true) - Number(b.more === true) || rank(a.name) - rank(b.name));
}

function personField(f: Field, tool: Tool, pp: PersonParam | undefined, lang: Lang, ctx: FormContext): Field {
  if (pp === undefined) return { ...f, more: true };
  const p = tool.params.find((q) => q.name === f.name)!;
  const out: Field = { ...f, label: textIn(pp.label, lang), desc: textIn(pp.help, lang), more: pp.more === true };
  if (f.name === "slug") out.more = pp.fresh !== true && ctx.slug != null && ctx.slug !== "";
  if (pp.control === "chips" || pp.control === "atoms" || pp.control === "pairs") out.kind = pp.control;
  if (pp.control === "line") out.kind = "text";
  if (pp.control === "counter") {
    out.kind = "textarea";
    out.max = pp.max;
  }
  if (pp.only !== undefined) out.only = pp.only;
  if (pp.options !== undefined) {
    out.optionLabels = Object.fromEntries(Object.entries(pp.options).map(([k, v]) => [k, textIn(v, lang)]));
    if (out.kind === "atoms") out.options = p.items?.props?.find((q) => q.name === "kind")?.enum ?? Object.keys(pp.options);
  }
  return out;
}

/** personValues is what a person's fresh form holds: the catalogue's defaults, the person form's, the slug. */
export function personValues(tool: Tool, ctx: FormContext): Values {
  const spec = people[tool.name];
  const out = initialValues(tool, spec?.params["slug"]?.fresh === true ? {} : ctx);
  for (const f of personFields(tool, "en", ctx)) {
    if (f.kind === "chips" || f.kind === "atoms" || f.kind === "pairs") out[f.name] = [];
    // A required choice with no default starts on its first option: a select shows one, so it is what is sent.
    if (f.kind === "dropdown" && f.required && out[f.name] === "") out[f.name] = f.options?.[0] ?? "";
    const start = spec?.params[f.name]?.start;
    if (start !== undefined) out[f.name] = start;
  }
  return out;
}

/** prefills lists the fields of tool's person form read from the project's context when it opens. */
export function prefills(tool: Tool): { param: string; from: "phase" | "summary" | "body" }[] {
  const spec = people[tool.name];
  if (spec === undefined) return [];
  return Object.entries(spec.params).flatMap(([param, pp]) => (pp.prefill !== undefined && tool.params.some((q) => q.name === param) ? [{ param, from: pp.prefill }] : []));
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
