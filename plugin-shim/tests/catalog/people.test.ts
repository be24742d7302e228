// The person forms (src/catalog/people.ts) cover every parameter of every
// button's tool, in English and French, every choice with its label: no
// form falls back on a parameter's name or on the catalogue's agent text;
// none asks for JSON (the archive's extra properties are rows of name and
// value).

import assert from "node:assert/strict";
import { test } from "node:test";
import catalogJSON from "../../src/generated/catalog.json";
import { available } from "../../src/catalog/actions";
import { findTool, type Catalog, type Lang, type Param, type Tool } from "../../src/catalog/catalog";
import { argsFrom, personFields, personValues, type Field, type PairValue } from "../../src/catalog/form";
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

test("no person's form asks for JSON: every object or list has a control of its own", () => {
  for (const { tool } of available(catalog)) {
    for (const f of personFields(tool, "en", { slug: "alpha" })) assert.notEqual(f.kind, "json", `${tool.name}.${f.name} is typed as JSON`);
  }
});

/** The archive form (the catalogue's mem_archive, the person's fields) and what its properties editor sends for rows. */
function archiveWith(rows: PairValue[], lang: Lang = "en") {
  const tool = findTool(catalog, "mem_archive")!;
  const fields = personFields(tool, lang, { slug: "alpha" });
  const values = { ...personValues(tool, { slug: "alpha" }), archive_extra_fm: rows };
  return { fields, built: argsFrom(tool, values, { fields }) };
}

test("the archive's extra properties are rows of name and value, sent as an object of text", () => {
  const { fields } = archiveWith([]);
  const f = fields.find((x) => x.name === "archive_extra_fm")!;
  assert.equal(f.kind, "pairs");
  assert.equal(f.label, "Extra properties");
  assert.equal(f.more, true);
  assert.deepEqual(personValues(findTool(catalog, "mem_archive")!, {})["archive_extra_fm"], [], "a fresh form has no row");
  const { built } = archiveWith([
    { key: " source ", value: "archeo-git" },
    { key: "", value: "  " },
    { key: "tags", value: "proofreading" },
    { key: "scope", value: "" },
    { key: "commit_sha", value: "0042" },
  ]);
  assert.ok("args" in built);
  // archive_extra_fm is an object with no props in the catalogue: each value goes as the text typed, in the rows' order.
  assert.deepEqual(built.args["archive_extra_fm"], { source: "archeo-git", tags: "proofreading", scope: "", commit_sha: "0042" });
  assert.deepEqual(Object.keys(built.args["archive_extra_fm"] as object), ["source", "tags", "scope", "commit_sha"]);
});

test("no row, or only blank rows: nothing is sent for the extra properties", () => {
  for (const rows of [[], [{ key: "", value: "" }, { key: "  ", value: "" }]]) {
    const { built } = archiveWith(rows);
    assert.ok("args" in built);
    assert.equal("archive_extra_fm" in built.args, false, JSON.stringify(rows));
  }
});

test("a property with a value and no name, or a name given twice, is refused in the form, naming the field", () => {
  const noName = archiveWith([{ key: "scope", value: "docs" }, { key: " ", value: "x" }]).built;
  assert.ok("error" in noName);
  assert.equal(noName.error.param, "archive_extra_fm");
  assert.equal(noName.error.en, "Extra properties: row 2 has a value but no name; name the property, or remove the row");
  const fr = archiveWith([{ key: "", value: "x" }], "fr").built;
  assert.ok("error" in fr);
  assert.equal(fr.error.fr, "Propriétés en plus : la ligne 1 a une valeur mais pas de nom ; nommez la propriété, ou retirez la ligne");
  const twice = archiveWith([{ key: "scope", value: "a" }, { key: "scope ", value: "b" }]).built;
  assert.ok("error" in twice);
  assert.equal(twice.error.en, "Extra properties: “scope” is given twice; keep one row for it");
  assert.equal(twice.error.fr, "Extra properties : « scope » est donné deux fois ; gardez-en une seule ligne");
});

test("a property the parameter's schema types is sent with that type; another stays text", () => {
  const param: Param = {
    name: "extra",
    type: "object",
    props: [
      { name: "count", type: "integer", description: { en: "", fr: "" } },
      { name: "ratio", type: "number", description: { en: "", fr: "" } },
      { name: "draft", type: "boolean", description: { en: "", fr: "" } },
      { name: "labels", type: "array", items: { type: "string", description: { en: "", fr: "" } }, description: { en: "", fr: "" } },
    ],
    description: { en: "", fr: "" },
  };
  const tool: Tool = { name: "t", title: { en: "T", fr: "T" }, description: { en: "", fr: "" }, errors: [], writes: true, params: [param] };
  const fields: Field[] = [{ name: "extra", label: "Extra", desc: "", kind: "pairs", required: false }];
  const send = (rows: PairValue[]) => argsFrom(tool, { extra: rows }, { fields });
  assert.deepEqual(send([
    { key: "count", value: " 3 " },
    { key: "ratio", value: "0.5" },
    { key: "draft", value: "true" },
    { key: "labels", value: "a, b,, c" },
    { key: "note", value: " 12 " },
  ]), { args: { extra: { count: 3, ratio: 0.5, draft: true, labels: ["a", "b", "c"], note: " 12 " } } });
  const bad = send([{ key: "count", value: "2.5" }]);
  assert.ok("error" in bad && bad.error.en === "Extra: “count” is “2.5”, not a number");
  const notBool = send([{ key: "draft", value: "yes" }]);
  assert.ok("error" in notBool && notBool.error.fr === "Extra : « draft » vaut « yes », pas true ni false");
});
