// The person forms (src/catalog/people.ts) cover every parameter of every
// button's tool, in English and French, every choice with its label: no
// form falls back on a parameter's name or on the catalogue's agent text.

import assert from "node:assert/strict";
import { test } from "node:test";
import catalogJSON from "../../src/generated/catalog.json";
import { available } from "../../src/catalog/actions";
import type { Catalog } from "../../src/catalog/catalog";
import { personFields } from "../../src/catalog/form";
import { people } from "../../src/catalog/people";

const catalog = catalogJSON as Catalog;

test("every button's form has a person's label for each parameter, in both languages", () => {
  for (const { tool } of available(catalog)) {
    const spec = people[tool.name];
    assert.ok(spec !== undefined, `${tool.name} has no person form`);
    assert.ok(spec.intro.en !== "" && spec.intro.fr !== "" && spec.button.en !== "" && spec.button.fr !== "", tool.name);
    for (const p of tool.params) {
      const pp = spec.params[p.name ?? ""];
      assert.ok(pp !== undefined, `${tool.name}.${p.name} has no person label`);
      assert.ok(pp.label.en !== "" && pp.label.fr !== "", `${tool.name}.${p.name}`);
      for (const v of p.enum ?? []) assert.ok(pp.options?.[v] !== undefined, `${tool.name}.${p.name}: the choice ${v} has no label`);
    }
    for (const name of Object.keys(spec.params)) assert.ok(tool.params.some((p) => p.name === name), `${tool.name}: ${name} is no parameter of the tool`);
    for (const lang of ["en", "fr"] as const) {
      for (const f of personFields(tool, lang, { slug: "alpha" })) {
        assert.ok(!/_/.test(f.label), `${tool.name}.${f.name} (${lang}): label ${f.label}`);
        for (const o of f.options ?? []) if (o !== "") assert.ok(f.optionLabels?.[o] !== undefined, `${tool.name}.${f.name}: ${o}`);
      }
    }
  }
});
