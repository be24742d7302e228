// The read commands in the (fake) app: "Search memory" searches as the
// user types and opens the chosen note at its line; "Recall this project"
// shows the briefing of the active note's project in a sidebar view. Both
// only read: the vault is the same, byte for byte, after them.

import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { App, FakeEl, ItemView, MarkdownRenderer, Modal, Notice, setLanguage, Setting, SuggestModal, TFile } from "../fake/obsidian";
import { loadPlugin, type LoadedPlugin } from "../fake/plugin";
import { mainJs, until } from "../node";

const js = mainJs();

const alpha = "10-episodes/projects/alpha";
const archive = `${alpha}/archives/2026-11-27-17h40-alpha-premier-jet.md`;
const vault: Record<string, string> = {
  [`${alpha}/context.md`]:
    "---\nslug: alpha\nkind: project\nphase: build\nsummary: Kessho's archive tool.\n---\n# Alpha — context\n\n## Next\n- Finish the recall tool, see [[Ship recall]].\n",
  [`${alpha}/history.md`]:
    "# Historique — alpha\n\n- [2026-11-27 17h40 — Premier jet](archives/2026-11-27-17h40-alpha-premier-jet.md)\n",
  [archive]:
    '---\nslug: alpha\nkind: archive\ndate: 2026-11-27\ntime: "17:40"\nsubject: Premier jet\nderived_atoms:\n  - "[[Archives are plain Markdown]]"\n---\nPremier jet de l\'outil.\n\n## Décisions\n- Les archives restent du Markdown pur.\n',
  "20-knowledge/Archives are plain Markdown.md": '---\nkind: knowledge\nsource: "[[2026-11-27-17h40-alpha-premier-jet]]"\n---\nObsidian opens them as they are.\n',
  "50-goals/Ship recall.md": "---\nkind: goal\n---\nAgents read their memory back by December.\n",
  "10-episodes/domains/beta/context.md": "---\nslug: beta\nkind: domain\nsummary: Billing.\n---\n# Beta\n\nEach webhook waits a minute before its retry.\n",
  "00-inbox/Webhooks.md": "---\nkind: knowledge\n---\nStripe signs every request.\n\nCheck the webhook signature first.\n",
  "00-inbox/Storms.md": "A storm of retries hit the queue.\n",
};

interface Hit {
  path: string;
  title: string;
  kind: string;
  zone: string | null;
  line: string;
  line_number: number;
}
type Args = Record<string, unknown>;

/** A plugin on the vault, each call it makes recorded; hold(tool, query) holds that call until release(). */
async function freshPlugin() {
  const app = new App(vault);
  const plugin = await loadPlugin(js, app);
  plugin.clock = () => new Date(Date.UTC(2026, 10, 30, 9, 15, 0));
  const calls: { tool: string; args: Args }[] = [];
  const held = new Map<string, () => void>();
  const direct = plugin.api.call.bind(plugin.api);
  plugin.api.call = async (tool: string, args?: unknown, o?: { now?: string | Date }) => {
    const a = (args ?? {}) as Args;
    calls.push({ tool, args: a });
    const answer = await direct(tool, args, o);
    const key = `${tool} ${String(a["query"])}`;
    if (held.has(key)) await new Promise<void>((r) => held.set(key, r));
    return answer;
  };
  // The search index the plugin keeps (.kessho/index, mem_search's and
  // mem_recall's) is no part of the vault: dot-folders are left out.
  const notDot = (p: string) => !p.split("/").some((s) => s.startsWith("."));
  const before = app.vault.snapshot();
  const folders = new Set([...app.vault.folders].filter(notDot));
  return {
    app,
    plugin,
    calls,
    direct,
    hold: (tool: string, query: string) => held.set(`${tool} ${query}`, () => undefined),
    release: (tool: string, query: string) => held.get(`${tool} ${query}`)!(),
    /** untouched asserts the plugin wrote nothing but mem_search's index: every file as it was, no other write call. */
    untouched() {
      assert.deepEqual(app.vault.snapshot(), before);
      assert.deepEqual(new Set([...app.vault.folders].filter(notDot)), folders);
      assert.deepEqual(
        app.vault.calls.filter((c) => notDot(c.split(" ").slice(1).join(" "))),
        [],
        "no write call",
      );
    },
  };
}

function command(plugin: LoadedPlugin, id: string): () => unknown {
  const c = plugin.commands.find((x) => x.id === id);
  if (!c) throw new Error(`no command ${id}: ${plugin.commands.map((x) => x.id).join(", ")}`);
  return c.callback!;
}

function suggest<T>(): SuggestModal<T> {
  const m = Modal.opened[0];
  assert.ok(m instanceof SuggestModal, "a suggest modal is open");
  return m as SuggestModal<T>;
}

// hitsOf is what the search modal asks for query while typing it.
async function hitsOf(direct: LoadedPlugin["api"]["call"], query: string): Promise<Hit[]> {
  const a = (await direct("mem_search", { query, limit: 20, prefix: true })) as { ok: true; result: { hits: Hit[] } };
  assert.equal(a.ok, true);
  return a.result.hits;
}

function recallView(app: App): ItemView & { slug: string } {
  const leaf = app.workspace.getLeavesOfType("kessho-recall")[0];
  assert.ok(leaf, "a recall view is open");
  return leaf.view as ItemView & { slug: string };
}

describe("read commands", () => {
  beforeEach(() => {
    Setting.all.length = 0;
    Modal.opened = [];
    Notice.messages = [];
    MarkdownRenderer.rendered = [];
    setLanguage("en");
  });

  test("both commands are in the palette and the ribbon's menu, in English and French", async () => {
    const { plugin } = await freshPlugin();
    assert.equal(plugin.commands.find((c) => c.id === "kessho:search")!.name, "Search memory");
    assert.equal(plugin.commands.find((c) => c.id === "kessho:recall-project")!.name, "Recall this project");
    setLanguage("fr");
    const fr = await freshPlugin();
    assert.equal(fr.plugin.commands.find((c) => c.id === "kessho:search")!.name, "Chercher dans la mémoire");
    assert.equal(fr.plugin.commands.find((c) => c.id === "kessho:recall-project")!.name, "Remémorer ce projet");
  });

  test("search: typing calls mem_search once the typing pauses; the suggestions are its hits in order", async () => {
    const { plugin, calls, direct, untouched } = await freshPlugin();
    command(plugin, "kessho:search")();
    const modal = suggest<Hit>();
    assert.ok(modal.instructions.some((i) => i.command === "↵"), "the keys are explained");
    modal.type("   ");
    assert.equal(modal.shown.length, 0);
    assert.equal(modal.resultContainerEl.getText(), "", "blank input shows nothing");
    for (const q of ["w", "we", "web", "webhook"]) modal.type(q);
    const want = await hitsOf(direct, "webhook");
    assert.ok(want.length >= 2, "the query finds several notes");
    await until(() => modal.shown.length > 0, "the suggestions");
    assert.deepEqual(
      calls.filter((c) => c.tool === "mem_search"),
      [{ tool: "mem_search", args: { query: "webhook", limit: 20, prefix: true } }],
      "one call, for the last keystroke, its last word a prefix; none for blank input",
    );
    assert.deepEqual(
      modal.shown.map((h) => h.path),
      want.map((h) => h.path),
    );
    const items = modal.resultContainerEl.find("suggestion-item");
    assert.equal(items.length, want.length);
    for (const [i, h] of want.entries()) {
      const text = items[i]!.getText();
      for (const part of [h.title, h.path, h.line, h.kind]) assert.ok(text.includes(part), `${JSON.stringify(text)} shows ${part}`);
      if (h.zone !== null) assert.ok(text.includes(h.zone));
    }

    // Words no note holds: the modal says so.
    modal.type("zeppelin");
    await until(() => modal.shown.length === 0, "the suggestions to go");
    assert.equal(modal.resultContainerEl.getText(), "No note matches.");

    // Back to a blank input: nothing shown, nothing called.
    modal.type(" ");
    assert.equal(modal.resultContainerEl.getText(), "");
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(calls.length, 2);
    modal.close();
    untouched();
  });

  test("search: an answer that comes after a newer query's is dropped", async () => {
    const { plugin, calls, direct, hold, release, untouched } = await freshPlugin();
    command(plugin, "kessho:search")();
    const modal = suggest<Hit>();
    const storm = await hitsOf(direct, "storm");
    const webhook = await hitsOf(direct, "webhook");
    assert.ok(storm.length > 0 && webhook.length > 0);
    assert.notDeepEqual(
      storm.map((h) => h.path),
      webhook.map((h) => h.path),
    );
    hold("mem_search", "storm");
    modal.type("storm");
    await until(() => calls.length === 1, "the first search to start");
    modal.type("webhook");
    await until(() => modal.shown.length > 0, "the newer query's hits");
    assert.deepEqual(
      modal.shown.map((h) => h.path),
      webhook.map((h) => h.path),
    );
    const draws = modal.draws;
    release("mem_search", "storm");
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(calls.length, 2);
    assert.deepEqual(
      modal.shown.map((h) => h.path),
      webhook.map((h) => h.path),
      "the older answer is never shown",
    );
    assert.equal(modal.draws, draws, "nothing drawn when the older answer came");

    // The older answer comes while the newer query's is still awaited: it waits for the newer one.
    modal.type("");
    hold("mem_search", "storm");
    hold("mem_search", "webhook");
    modal.type("storm");
    await until(() => calls.length === 3, "the third search to start");
    modal.type("webhook");
    await until(() => calls.length === 4, "the fourth search to start");
    const before = modal.draws;
    release("mem_search", "storm");
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(modal.draws, before, "the older answer is not drawn");
    release("mem_search", "webhook");
    await until(() => modal.draws > before, "the newer answer");
    assert.deepEqual(
      modal.shown.map((h) => h.path),
      webhook.map((h) => h.path),
    );
    modal.close();
    untouched();
  });

  test("search: the arrows and Enter open the chosen note at its matched line", async () => {
    const { app, plugin, direct, untouched } = await freshPlugin();
    command(plugin, "kessho:search")();
    const modal = suggest<Hit>();
    modal.type("webhook");
    const want = await hitsOf(direct, "webhook");
    await until(() => modal.shown.length === want.length, "the suggestions");
    modal.key("ArrowDown");
    modal.key("Enter");
    assert.equal(modal.isOpen, false);
    await until(() => app.workspace.opened.length === 1, "the note to open");
    const chosen = want[1]!;
    assert.ok(chosen.line_number > 0);
    assert.deepEqual(app.workspace.opened[0], { path: chosen.path, eState: { line: chosen.line_number - 1 }, side: "main" });
    untouched();
  });

  test("recall: from a note of a project, its briefing in the right sidebar, each path a link", async () => {
    const { app, plugin, direct, untouched } = await freshPlugin();
    app.workspace.activeFile = new TFile(app.vault, archive);
    command(plugin, "kessho:recall-project")();
    await until(() => app.workspace.getLeavesOfType("kessho-recall").length === 1 && MarkdownRenderer.rendered.length === 1, "the briefing");
    const view = recallView(app);
    const leaf = app.workspace.getLeavesOfType("kessho-recall")[0]!;
    assert.equal(leaf.side, "right");
    assert.deepEqual(app.workspace.revealed, [leaf]);
    assert.equal(view.getDisplayText(), "Recall — alpha");
    assert.deepEqual(view.getState(), { slug: "alpha" });

    const a = (await direct("mem_recall", { slug: "alpha" })) as {
      ok: true;
      result: { summary_md: string; context: { path: string }; archives: { path: string }[]; atoms: { path: string }[]; linked: { path: string }[] };
    };
    assert.equal(MarkdownRenderer.rendered[0]!.markdown, a.result.summary_md);
    const paths = [a.result.context.path, ...a.result.archives.map((x) => x.path), ...a.result.atoms.map((x) => x.path), ...a.result.linked.map((x) => x.path)];
    assert.deepEqual(paths, [`${alpha}/context.md`, archive, "20-knowledge/Archives are plain Markdown.md", "50-goals/Ship recall.md"]);
    const links = (view.contentEl as unknown as FakeEl).find("kessho-path");
    assert.deepEqual(links.map((l) => l.getText()).sort(), [...paths].sort());

    const goal = links.find((l) => l.getText() === "50-goals/Ship recall.md")!;
    goal.dispatch("click");
    await until(() => app.workspace.opened.length === 1, "the note to open");
    assert.deepEqual(app.workspace.opened[0], { path: "50-goals/Ship recall.md", eState: undefined, side: "main" });
    untouched();
  });

  test("recall: from a note outside any project, it asks which one first", async () => {
    const { app, plugin, calls, untouched } = await freshPlugin();
    app.workspace.activeFile = new TFile(app.vault, "00-inbox/Webhooks.md");
    command(plugin, "kessho:recall-project")();
    await until(() => Modal.opened.length === 1, "the question");
    const modal = suggest<{ slug: string }>();
    assert.deepEqual(calls, [{ tool: "mem_list", args: {} }]);
    assert.deepEqual(
      modal.shown.map((p) => p.slug),
      ["alpha", "beta"],
    );
    modal.type("bet");
    assert.deepEqual(
      modal.shown.map((p) => p.slug),
      ["beta"],
    );
    modal.key("Enter");
    await until(() => MarkdownRenderer.rendered.length === 1, "the briefing");
    assert.equal(recallView(app).slug, "beta");
    assert.match(MarkdownRenderer.rendered[0]!.markdown, /^# Recall — beta \(domain\)/);
    assert.deepEqual(calls.at(-1), { tool: "mem_recall", args: { slug: "beta" } });

    // Recalled again from a project's note, the same view shows that project.
    app.workspace.activeFile = new TFile(app.vault, `${alpha}/context.md`);
    command(plugin, "kessho:recall-project")();
    await until(() => MarkdownRenderer.rendered.length === 2, "the second briefing");
    assert.equal(app.workspace.getLeavesOfType("kessho-recall").length, 1);
    assert.equal(recallView(app).slug, "alpha");
    untouched();
  });
});
