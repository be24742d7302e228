// Search as Obsidian users expect it, in the (fake) app, on the real core:
// a word being typed matches as a prefix, the matched words are
// highlighted in a line shown without its Markdown, context and history
// notes are titled by their project, the filters narrow the hits, an
// unsure answer says so, the sidebar view draws hits as the modal does,
// and French is French.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { App, DropdownComponent, FakeEl, Modal, Notice, setLanguage, Setting, SuggestModal } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { mainJs, until } from "../node";

const js = mainJs();

const docs = "10-episodes/projects/kessho-docs";
const archive = `${docs}/archives/2026-11-27-17h40-kessho-docs-sensors.md`;
const atom = "20-knowledge/Sensors report every minute.md";
export const vault: Record<string, string> = {
  [`${docs}/context.md`]:
    "---\nslug: kessho-docs\nkind: project\nsummary: The docs.\n---\n# Kessho docs — context\n\n## Next\n- Write the **sensors** page, see [[Sensor wiring|wiring]] and `sensors.md`.\n",
  [`${docs}/history.md`]: "# History — kessho-docs\n\n- [2026-11-27 17h40 — Sensors](archives/2026-11-27-17h40-kessho-docs-sensors.md)\n",
  [archive]:
    '---\nslug: kessho-docs\nkind: archive\ndate: 2026-11-27\ntime: "17:40"\nsubject: Sensors\ndisplay: kessho-docs — 2026-11-27 Sensors\n---\nWe documented them.\n\n## Decisions\n- > The sensors page lists each ~~old~~ sensor.\n',
  [atom]: "---\nkind: knowledge\n---\nThe _sensors_ report every **minute** to the [hub](https://hub.example).\n",
  "10-episodes/domains/beta/context.md": "---\nslug: beta\nkind: domain\nsummary: Billing.\n---\n# Beta\n\n🚀 Each ==webhook== waits a minute before its retry.\n",
  "10-episodes/domains/beta/Sensor budget.md": "What the sensors cost us each year.\n",
  "00-inbox/Storms.md": "A storm of retries hit the queue.\n",
};

interface Hit {
  path: string;
  title: string;
  kind: string;
  zone: string | null;
  slug: string | null;
  line: string;
  line_number: number;
  marks?: [number, number][];
  weak?: boolean;
}
interface Result {
  hits: Hit[];
  confident: boolean;
}
type Args = Record<string, unknown>;

/** A plugin on the vault (its saved settings data, if any), each call it makes recorded. */
async function freshPlugin(data?: Record<string, unknown>) {
  const app = new App(vault);
  if (data !== undefined) app.data["kessho"] = data;
  const plugin = await loadPlugin(js, app);
  const calls: { tool: string; args: Args }[] = [];
  const direct = plugin.api.call.bind(plugin.api);
  plugin.api.call = async (tool: string, args?: unknown, o?: { now?: string | Date }) => {
    calls.push({ tool, args: (args ?? {}) as Args });
    return direct(tool, args, o);
  };
  const search = async (args: Args): Promise<Result> => {
    const a = (await direct("mem_search", args)) as { ok: true; result: Result };
    assert.equal(a.ok, true);
    return a.result;
  };
  return { app, plugin, calls, search };
}

function command(plugin: LoadedPlugin, id: string): () => unknown {
  const c = plugin.commands.find((x) => x.id === id);
  if (!c) throw new Error(`no command ${id}: ${plugin.commands.map((x) => x.id).join(", ")}`);
  return c.callback!;
}

type SearchModal = SuggestModal<Hit> & { filtersEl: FakeEl; statusEl: FakeEl };

function openModal(plugin: LoadedPlugin): SearchModal {
  command(plugin, "kessho:search")();
  const m = Modal.opened[0];
  assert.ok(m instanceof SuggestModal, "a suggest modal is open");
  return m as SearchModal;
}

/** typeAndWait types each prefix of the words, as a person types, then waits for the search of the last. */
async function typeAndWait(m: SearchModal, text: string): Promise<void> {
  const draws = m.draws;
  for (let i = 1; i <= text.length; i++) m.type(text.slice(0, i));
  await until(() => m.draws > draws, `the hits for ${text}`);
}

/** items are the drawn hits' elements. */
function items(el: FakeEl): FakeEl[] {
  return el.find("kessho-hit");
}

function text(el: FakeEl, cls: string): string {
  const found = el.find(cls);
  assert.equal(found.length, 1, `one .${cls}`);
  return found[0]!.getText();
}

/** The texts of an element's highlighted spans. */
function matches(el: FakeEl): string[] {
  return el.find("kessho-match").map((s) => s.getText());
}

/** dropdown is the modal's or view's filter of key (zone, slug, kind). */
function dropdown(key: string): DropdownComponent {
  const d = dropdowns.find((x) => x.selectEl.hasClass(`kessho-search-filter-${key}`));
  assert.ok(d, `a ${key} filter`);
  return d;
}

// The fake's DropdownComponent keeps no list of its instances: the tests collect them.
const dropdowns: DropdownComponent[] = [];
const addOption = DropdownComponent.prototype.addOption;
DropdownComponent.prototype.addOption = function (this: DropdownComponent, v: string, d: string) {
  if (!dropdowns.includes(this)) dropdowns.push(this);
  return addOption.call(this, v, d);
};

/** shape is an element's tags, classes and texts, to compare two drawings. */
function shape(el: FakeEl): unknown {
  return { tag: el.tag, cls: [...el.classes].sort(), text: el.text, children: el.children.map(shape) };
}

describe("search as Obsidian users expect it", () => {
  beforeEach(() => {
    Setting.all.length = 0;
    Modal.opened = [];
    Notice.messages = [];
    dropdowns.length = 0;
    setLanguage("en");
  });

  test("a word being typed matches as a prefix: 'sens' finds the sensors notes", async () => {
    const { plugin, calls, search } = await freshPlugin();
    const m = openModal(plugin);
    await typeAndWait(m, "sens");
    assert.deepEqual(
      calls.filter((c) => c.tool === "mem_search"),
      [{ tool: "mem_search", args: { query: "sens", limit: 20, prefix: true } }],
    );
    const want = await search({ query: "sens", limit: 20, prefix: true });
    assert.deepEqual(
      m.shown.map((h) => h.path),
      want.hits.map((h) => h.path),
    );
    assert.ok(m.shown.some((h) => h.path === atom) && m.shown.some((h) => h.path === archive));
    // Without prefix the core finds no "sens": the modal's hits come from the prefix.
    assert.equal((await search({ query: "sens", limit: 20 })).hits.length, 0);

    // A space after the word: it is whole, no longer a prefix.
    m.type("sens ");
    await until(() => calls.length === 2, "the second search");
    assert.deepEqual(calls[1], { tool: "mem_search", args: { query: "sens ", limit: 20, prefix: false } });
    // A typo: the core matches within one edit.
    await typeAndWait(m, "snesors ");
    assert.ok(m.shown.some((h) => h.path === atom), "a typo still finds the note");
    m.close();
  });

  test("the matched words are highlighted where the marks say, in a line shown without its Markdown", async () => {
    const { plugin } = await freshPlugin();
    const m = openModal(plugin);
    await typeAndWait(m, "sensors webhook");
    const els = items(m.resultContainerEl);
    assert.equal(els.length, m.shown.length);
    const by = new Map(m.shown.map((h, i) => [h.path, els[i]!]));
    const want: Record<string, [string, string[]]> = {
      [atom]: ["The sensors report every minute to the hub.", ["sensors"]],
      // The wikilink shows its alias: the mark on its target ("Sensor") is not shown.
      [`${docs}/context.md`]: ["Write the sensors page, see wiring and sensors.md.", ["sensors", "sensors"]],
      [`${docs}/history.md`]: ["2026-11-27 17h40 — Sensors", ["Sensors"]],
      [archive]: ["The sensors page lists each old sensor.", ["sensors", "sensor"]],
      "10-episodes/domains/beta/context.md": ["🚀 Each webhook waits a minute before its retry.", ["webhook"]],
    };
    for (const [path, [line, marked]] of Object.entries(want)) {
      const el = by.get(path);
      assert.ok(el, `a hit for ${path}`);
      const lineEl = el.find("kessho-hit-line")[0]!;
      assert.equal(lineEl.getText(), line, path);
      assert.deepEqual(matches(lineEl), marked, path);
    }
    // Each highlighted span is the text of one of its hit's marks, in order.
    for (const [i, h] of m.shown.entries()) {
      const marked = matches(els[i]!);
      const texts = (h.marks ?? []).map(([a, b]) => h.line.slice(a, b));
      let k = 0;
      for (const s of marked) {
        while (k < texts.length && texts[k] !== s) k++;
        assert.ok(k < texts.length, `${JSON.stringify(s)} is a mark of ${h.path}'s line`);
        k++;
      }
    }
    // The Markdown is rendered: code and emphasis as elements, no mark left in the text.
    const ctx = by.get(`${docs}/context.md`)!;
    assert.deepEqual(
      ctx.findAll("code").map((c) => c.getText()),
      ["sensors.md"],
    );
    assert.deepEqual(
      ctx.findAll("strong").map((c) => c.getText()),
      ["sensors"],
    );
    assert.deepEqual(
      by.get(atom)!.findAll("em").map((c) => c.getText()),
      ["sensors"],
    );
    for (const el of els) assert.doesNotMatch(el.find("kessho-hit-line")[0]!.getText(), /\*\*|\[\[|\]\(|`|==|~~|^[-#>]/);
    m.close();
  });

  test("context and history notes are titled by their project; tags name kind, zone and project", async () => {
    const { plugin } = await freshPlugin();
    const m = openModal(plugin);
    await typeAndWait(m, "sensors");
    const titles = new Map(items(m.resultContainerEl).map((el, i) => [m.shown[i]!.path, [text(el, "suggestion-title"), el.find("kessho-hit-tag").map((t) => t.getText())]]));
    assert.deepEqual(titles.get(`${docs}/context.md`), ["kessho-docs — context", ["context"]]);
    assert.deepEqual(titles.get(`${docs}/history.md`), ["kessho-docs — history", ["history"]]);
    // The archive's display says its project and date: its tags do not repeat them.
    assert.deepEqual(titles.get(archive), ["kessho-docs — 2026-11-27 Sensors", ["archive"]]);
    assert.deepEqual(titles.get(atom), ["Sensors report every minute", ["atom", "knowledge"]]);
    assert.deepEqual(titles.get("10-episodes/domains/beta/Sensor budget.md"), ["Sensor budget", ["note", "beta"]]);
    m.close();
  });

  test("the zone, project and kind filters narrow the hits, each choice searching again", async () => {
    const { plugin, calls, search } = await freshPlugin();
    const m = openModal(plugin);
    // The filters stand between the input and the hits.
    const order = m.modalEl.children;
    assert.deepEqual(
      [m.filtersEl, m.statusEl, m.resultContainerEl].map((e) => order.indexOf(e)),
      [order.indexOf(m.inputEl) + 1, order.indexOf(m.inputEl) + 2, order.indexOf(m.inputEl) + 3],
    );
    assert.deepEqual(
      dropdown("slug").options.map(([v]) => v),
      ["", "beta", "kessho-docs"],
    );
    assert.deepEqual(
      dropdown("zone").options.map(([v]) => v),
      ["", "episodes", "knowledge", "principles", "goals"],
    );
    await typeAndWait(m, "sensors minute");
    const all = m.shown.map((h) => h.path);
    assert.ok(all.includes(atom) && all.includes(archive) && all.includes("10-episodes/domains/beta/context.md"));

    const narrow = async (key: string, value: string, args: Args, want: (h: Hit) => boolean) => {
      const draws = m.draws;
      dropdown(key).input(value);
      await until(() => m.draws > draws, `the hits with ${key}=${value}`);
      assert.deepEqual(calls.at(-1), { tool: "mem_search", args: { query: "sensors minute", limit: 20, prefix: true, ...args } });
      assert.ok(m.inputEl.focused, "the input has the focus back");
      const direct = await search(calls.at(-1)!.args);
      assert.deepEqual(
        m.shown.map((h) => h.path),
        direct.hits.map((h) => h.path),
      );
      assert.ok(m.shown.length > 0 && m.shown.length < all.length, `${key}=${value} narrows`);
      for (const h of m.shown) assert.ok(want(h), `${h.path} fits ${key}=${value}`);
    };
    await narrow("zone", "knowledge", { zone: "knowledge" }, (h) => h.zone === "knowledge");
    // Back to all zones: all the hits again.
    const draws = m.draws;
    dropdown("zone").input("");
    await until(() => m.draws > draws, "the hits in all zones");
    assert.deepEqual(
      m.shown.map((h) => h.path),
      all,
    );
    await narrow("slug", "kessho-docs", { slug: "kessho-docs" }, (h) => h.slug === "kessho-docs");
    await narrow("kind", "history", { slug: "kessho-docs", kind: "history" }, (h) => h.kind === "history" && h.slug === "kessho-docs");
    m.close();
  });

  test("an answer that is not confident says so above its hits", async () => {
    const { plugin, search } = await freshPlugin();
    const query = "storm zeppelin quasar nebula pulsar";
    const r = await search({ query, limit: 20, prefix: true });
    assert.equal(r.confident, false);
    assert.ok(r.hits.length > 0);
    const m = openModal(plugin);
    await typeAndWait(m, query);
    assert.equal(m.statusEl.getText(), "Nothing confident: no note covers these words well. The closest ones:");
    assert.ok(m.statusEl.hasClass("kessho-search-unsure"));
    const weak = items(m.resultContainerEl).filter((el) => el.hasClass("kessho-hit-weak"));
    assert.equal(weak.length, r.hits.filter((h) => h.weak === true).length);
    assert.ok(weak.length > 0 && weak.every((el) => el.getText().includes("weak match")));
    // A confident answer clears it.
    await typeAndWait(m, "sensors");
    assert.equal(m.statusEl.getText(), "");
    assert.equal(m.statusEl.hasClass("kessho-search-unsure"), false);
    m.close();
  });

  test("the sidebar view opens from its command and draws the hits as the modal does", async () => {
    const { app, plugin, calls, search } = await freshPlugin();
    const m = openModal(plugin);
    await typeAndWait(m, "sens");
    const modalShapes = items(m.resultContainerEl).map(shape);
    m.close();

    command(plugin, "kessho:search-view")();
    await until(() => app.workspace.getLeavesOfType("kessho-search").length === 1, "the view");
    const leaf = app.workspace.getLeavesOfType("kessho-search")[0]!;
    assert.equal(leaf.side, "right");
    assert.deepEqual(app.workspace.revealed, [leaf]);
    const view = leaf.view as unknown as { inputEl: FakeEl; resultsEl: FakeEl; statusEl: FakeEl; getDisplayText(): string; getState(): Args };
    assert.equal(view.getDisplayText(), "Memory search");
    assert.ok(view.inputEl.focused, "its input has the focus");
    assert.match(view.resultsEl.getText(), /Type words/);
    const before = calls.length;
    for (const q of ["s", "se", "sen", "sens"]) {
      view.inputEl.value = q;
      view.inputEl.dispatch("input");
    }
    await until(() => items(view.resultsEl).length > 0, "the view's hits");
    assert.deepEqual(calls.slice(before), [{ tool: "mem_search", args: { query: "sens", limit: 20, prefix: true } }], "one call, once typing paused");
    assert.deepEqual(items(view.resultsEl).map(shape), modalShapes, "the same drawing as the modal's");
    assert.deepEqual(view.getState(), { query: "sens", zone: "", slug: "", kind: "" });

    // A click opens the note at its line; the view stays.
    items(view.resultsEl)[0]!.dispatch("click");
    await until(() => app.workspace.opened.length === 1, "the note to open");
    const first = (await search({ query: "sens", limit: 20, prefix: true })).hits[0]!;
    assert.deepEqual(app.workspace.opened[0], { path: first.path, eState: { line: first.line_number - 1 }, side: "main" });
    assert.equal(app.workspace.getLeavesOfType("kessho-search").length, 1);
    // Enter on a hit opens it too.
    const second = (await search({ query: "sens", limit: 20, prefix: true })).hits[1]!;
    items(view.resultsEl)[1]!.dispatch("keydown", { key: "Enter" });
    await until(() => app.workspace.opened.length === 2, "the second note to open");
    assert.deepEqual(app.workspace.opened[1], { path: second.path, eState: { line: second.line_number - 1 }, side: "main" });

    // Opened again, the same view; restored from its state (the next start), it searches again.
    command(plugin, "kessho:search-view")();
    await until(() => app.workspace.revealed.length === 2, "the view revealed again");
    assert.equal(app.workspace.getLeavesOfType("kessho-search").length, 1);
    const restored = app.workspace.getRightLeaf(false)!;
    await restored.setViewState({ type: "kessho-search", state: { query: "sensors", kind: "history" } });
    const rv = restored.view as unknown as typeof view;
    await until(() => items(rv.resultsEl).length > 0, "the restored view's hits");
    assert.deepEqual(calls.at(-1), { tool: "mem_search", args: { query: "sensors", limit: 20, prefix: true, kind: "history" } });
    assert.equal(rv.inputEl.value, "sensors");
    assert.equal(text(items(rv.resultsEl)[0]!, "suggestion-title"), "kessho-docs — history");
  });

  test("in French: titles, tags, filters, the unsure state and the view", async () => {
    setLanguage("fr");
    const { app, plugin } = await freshPlugin();
    const m = openModal(plugin);
    assert.equal(m.inputEl.placeholder, "Mots à chercher dans la mémoire");
    assert.deepEqual(
      ["zone", "slug", "kind"].map((k) => dropdown(k).options[0]![1]),
      ["Toutes les zones", "Tous les projets", "Tous les types"],
    );
    assert.deepEqual(
      dropdown("zone").options.map(([, d]) => d),
      ["Toutes les zones", "épisodes", "connaissances", "principes", "objectifs"],
    );
    assert.deepEqual(
      dropdown("kind").options.map(([, d]) => d),
      ["Tous les types", "archive", "atome", "contexte", "historique"],
    );
    await typeAndWait(m, "sensors");
    const titles = new Map(items(m.resultContainerEl).map((el, i) => [m.shown[i]!.path, [text(el, "suggestion-title"), el.find("kessho-hit-tag").map((t) => t.getText())]]));
    assert.deepEqual(titles.get(`${docs}/context.md`), ["kessho-docs — contexte", ["contexte"]]);
    assert.deepEqual(titles.get(`${docs}/history.md`), ["kessho-docs — historique", ["historique"]]);
    assert.deepEqual(titles.get(atom), ["Sensors report every minute", ["atome", "connaissances"]]);
    await typeAndWait(m, "storm zeppelin quasar nebula pulsar");
    assert.match(m.statusEl.getText(), /^Rien de sûr/);
    assert.ok(m.resultContainerEl.getText().includes("correspondance faible"));
    m.type("zeppelin");
    await until(() => m.shown.length === 0, "no hit");
    assert.equal(m.resultContainerEl.getText(), "Aucune note ne correspond.");
    m.close();

    assert.equal(plugin.commands.find((c) => c.id === "kessho:search-view")!.name, "Ouvrir la recherche dans la mémoire (barre latérale)");
    command(plugin, "kessho:search-view")();
    await until(() => app.workspace.getLeavesOfType("kessho-search").length === 1, "the view");
    assert.equal(app.workspace.getLeavesOfType("kessho-search")[0]!.getDisplayText(), "Recherche dans la mémoire");
  });

  test("a refused search says so in the plugin's words: a bad zone names its setting, bad words the search box", async () => {
    const refusals = {
      en: {
        zone: "Kessho's setting “Vault time zone” holds “Mars/Olympus”, which the core does not know as a time zone: correct it in Settings → Kessho (empty: this device's zone).",
        words: "Search: holds no word to search for; give at least one word of letters or digits",
      },
      fr: {
        zone: "Le réglage « Fuseau horaire du coffre » de Kessho contient « Mars/Olympus », que le cœur ne connaît pas comme fuseau : corrigez-le dans Paramètres → Kessho (vide : le fuseau de cet appareil).",
        words: "Recherche : ne contient aucun mot à chercher ; donnez au moins un mot de lettres ou de chiffres",
      },
    };
    for (const lang of ["en", "fr"] as const) {
      Modal.opened = [];
      setLanguage(lang);
      // A zone the device's settings hold but the core refuses (saved before it was checked, or synced from elsewhere).
      const { app, plugin } = await freshPlugin({ lang, tz: "Mars/Olympus", rehearse: false });
      const raw = (await plugin.api.call("mem_search", { query: "sensors" })) as { ok: false; error: { message: string } };
      assert.match(raw.error.message, /^parameter "tz"|^paramètre « tz »/, "the API keeps the core's words");
      const m = openModal(plugin);
      await typeAndWait(m, "sensors");
      assert.equal(m.resultContainerEl.getText(), refusals[lang].zone, `${lang}: the modal names the setting`);
      assert.ok(m.resultContainerEl.hasClass("kessho-search-refused"), "said as a refusal");
      m.close();

      command(plugin, "kessho:search-view")();
      await until(() => app.workspace.getLeavesOfType("kessho-search").length === 1, "the view");
      const view = app.workspace.getLeavesOfType("kessho-search")[0]!.view as unknown as { inputEl: FakeEl; resultsEl: FakeEl };
      view.inputEl.value = "sensors";
      view.inputEl.dispatch("input");
      await until(() => view.resultsEl.find("kessho-search-refused").length === 1, "the view's refusal");
      assert.equal(view.resultsEl.getText(), refusals[lang].zone, `${lang}: the view names the setting`);

      // The zone set right, words the core cannot search for: the refusal names the search box, not mem_search's "query".
      plugin.settings.tz = "Europe/Paris";
      const again = openModal(plugin);
      again.type("!!!");
      await until(() => again.draws > 0 && again.resultContainerEl.hasClass("kessho-search-refused"), "the refusal of the words");
      assert.equal(again.resultContainerEl.getText(), refusals[lang].words);
      // A search that finds again is no refusal any more.
      await typeAndWait(again, "sensors");
      assert.ok(items(again.resultContainerEl).length > 0);
      assert.equal(again.resultContainerEl.hasClass("kessho-search-refused"), false);
      again.close();
    }
  });
});
