// The catalogue as `kessho catalog` prints it (core/catalog): every tool,
// its parameters and errors. The plugin draws its commands and forms from
// it and hard-codes no parameter.

/** A sentence in each supported language. */
export interface Text {
  en: string;
  fr: string;
}

/** A parameter, or one part of a value (items, props). */
export interface Param {
  name?: string;
  type: "string" | "integer" | "number" | "boolean" | "array" | "object";
  required?: boolean;
  default?: unknown;
  enum?: string[];
  min_length?: number;
  max_length?: number;
  minimum?: number;
  maximum?: number;
  min_items?: number;
  max_items?: number;
  items?: Param;
  props?: Param[];
  description: Text;
}

export interface Tool {
  name: string;
  title: Text;
  description: Text;
  params: Param[];
  errors: string[];
  writes: boolean;
  /** The code a host gives a failed precondition of this tool's plan, instead of CONFLICT. */
  conflict_code?: string;
  cli?: { command: string; args?: string[] };
}

export interface Catalog {
  tools: Tool[];
  shared_errors?: string[];
}

export type Lang = "en" | "fr";

/** textIn picks a catalogue text in lang (English when the French is missing). */
export function textIn(t: Text | undefined, lang: Lang): string {
  if (t === undefined) return "";
  return lang === "fr" && t.fr !== "" ? t.fr : t.en;
}

/** findTool returns the tool named name, or undefined. */
export function findTool(c: Catalog, name: string): Tool | undefined {
  return c.tools.find((t) => t.name === name);
}
