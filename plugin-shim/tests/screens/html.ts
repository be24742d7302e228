// The fake DOM (tests/fake/dom.ts) as HTML, for the screenshot tests: each
// FakeEl becomes the element Obsidian's real DOM would hold (its tag,
// classes, attributes, text, and an input's value, placeholder, rows,
// disabled and checked state), so that Chromium lays out what the plugin
// drew.

import type { FakeEl } from "../fake/dom";

const voidTags = new Set(["input", "br", "hr", "img"]);

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function attrsOf(el: FakeEl): string {
  const a: Record<string, string> = { ...el.attrs };
  if (el.classes.size > 0) a["class"] = [...el.classes].join(" ");
  if (el.tag === "input" && el.type !== "") a["type"] = el.type;
  if (el.tag === "input") a["value"] = el.value;
  if (el.placeholder !== "") a["placeholder"] = el.placeholder;
  if (el.rows > 0) a["rows"] = String(el.rows);
  if (el.disabled) a["disabled"] = "";
  if (el.tag === "input" && el.type === "checkbox" && el.checked) a["checked"] = "";
  for (const [k, v] of Object.entries(el.dataset)) a["data-" + k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase())] = v;
  return Object.entries(a)
    .map(([k, v]) => (v === "" && (k === "disabled" || k === "checked") ? ` ${k}` : ` ${k}="${esc(v)}"`))
    .join("");
}

/** toHTML returns el and its descendants as HTML. */
export function toHTML(el: FakeEl): string {
  if (el.tag === "#fragment") return el.children.map(toHTML).join("");
  const tag = el.tag;
  const open = `<${tag}${attrsOf(el)}>`;
  if (voidTags.has(tag)) return open;
  if (tag === "textarea") return `${open}${esc(el.value)}</textarea>`;
  if (tag === "select") {
    const opts = el.children.map((o) => `<option value="${esc(o.value)}"${o.value === el.value ? " selected" : ""}>${esc(o.text)}</option>`);
    return `${open}${opts.join("")}</select>`;
  }
  return `${open}${esc(el.text)}${el.children.map(toHTML).join("")}</${tag}>`;
}
