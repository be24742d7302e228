// A hit's line as the search modal and view show it (src/obsidian/excerpt.ts):
// its inline Markdown rendered, its block marks dropped, and the answer's
// marks (UTF-16 offsets in the line) highlighting the words they name.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { FakeEl } from "../fake/obsidian";
import { pieces, plainExcerpt, renderExcerpt, runs } from "../../src/obsidian/excerpt";
import { hitTags, hitTitle, type SearchHit } from "../../src/obsidian/search-results";
import { words } from "../../src/i18n";

function render(line: string, marks: [number, number][] = []): FakeEl {
  const el = new FakeEl("div");
  renderExcerpt(el as unknown as HTMLElement, line, marks);
  return el;
}

/** mark is the [start, end) of the n-th (0-based) occurrence of word in line, as the core gives it. */
function mark(line: string, word: string, n = 0): [number, number] {
  let at = -1;
  for (let i = 0; i <= n; i++) at = line.indexOf(word, at + 1);
  assert.ok(at >= 0, `${word} in ${line}`);
  return [at, at + word.length];
}

describe("excerpts", () => {
  test("inline Markdown is rendered as a reader sees it; block marks are dropped", () => {
    const cases: [string, string][] = [
      ["## Heading with **bold**", "Heading with bold"],
      ["- [ ] a task with `code` in it", "a task with code in it"],
      ["- [x] done", "done"],
      ["> quoted *emphasis*", "quoted emphasis"],
      ["- > a quote in a list", "a quote in a list"],
      ["12. item [[Target#Part|the alias]] end", "item the alias end"],
      ["see [[Target note]] and ![[image.png]]", "see Target note and image.png"],
      ["a [link *with em*](https://example.com/a_(b)) after", "a link with em after"],
      ["snake_case_name and __strong__ and _em_", "snake_case_name and strong and em"],
      ["2 * 3 * 4 = 24", "2 * 3 * 4 = 24"],
      ["escaped \\*stars\\* and \\`ticks\\`", "escaped *stars* and `ticks`"],
      ["``code with ` a tick`` done", "code with ` a tick done"],
      ["unclosed **bold and `code", "unclosed **bold and `code"],
      ["a <span class=x>tag</span> b <img src=x onerror=alert(1)>", "a tag b "],
      ["a note[^1] with a footnote", "a note with a footnote"],
      ["%%hidden%%visible ==highlighted== ~~struck~~", "visible highlighted struck"],
      ["1 < 2 and a <- b", "1 < 2 and a <- b"],
      ["#tag stays, # heading without text stays", "#tag stays, # heading without text stays"],
    ];
    for (const [line, want] of cases) {
      assert.equal(plainExcerpt(line), want, line);
      assert.equal(render(line).getText(), want, line);
    }
  });

  test("each style is an element: code, strong, em, del, a highlight, a link", () => {
    const el = render("**bold `code` more** *em* ~~del~~ ==hl== [[A|link]]");
    assert.deepEqual(
      el.findAll("strong").map((e) => e.getText()),
      ["bold ", "code", " more"],
    );
    assert.deepEqual(
      el.findAll("code").map((e) => [e.getText(), e.parent!.tag]),
      [["code", "strong"]],
    );
    assert.deepEqual(
      el.findAll("em").map((e) => e.getText()),
      ["em"],
    );
    assert.deepEqual(
      el.findAll("del").map((e) => e.getText()),
      ["del"],
    );
    assert.deepEqual(
      el.find("kessho-md-hl").map((e) => e.getText()),
      ["hl"],
    );
    assert.deepEqual(
      el.find("kessho-md-link").map((e) => e.getText()),
      ["link"],
    );
  });

  test("every piece is a slice of the line: the marks' offsets apply as they are", () => {
    const line = "🚀 Use **caches** and `cache`, see [[Cache layer|the layer]]";
    const marks = [mark(line, "caches"), mark(line, "cache", 1), mark(line, "Cache")];
    const el = render(line, marks);
    // The emoji is two UTF-16 units: the offsets still fall on the words.
    assert.deepEqual(
      el.find("kessho-match").map((e) => e.getText()),
      ["caches", "cache"],
      "the mark in the wikilink's hidden target shows nothing",
    );
    assert.equal(el.getText(), "🚀 Use caches and cache, see the layer");
    assert.equal(el.find("kessho-match")[1]!.parent!.tag, "code");
    for (const p of pieces(line)) assert.ok(p.from >= 0 && p.to <= line.length && p.from < p.to);
  });

  test("a mark is cut at a piece's bounds, and a piece at the marks' bounds", () => {
    assert.deepEqual(runs({ from: 0, to: 10, styles: [] }, [[2, 4], [6, 12]]), [
      { from: 0, to: 2, matched: false },
      { from: 2, to: 4, matched: true },
      { from: 4, to: 6, matched: false },
      { from: 6, to: 10, matched: true },
    ]);
    assert.deepEqual(runs({ from: 3, to: 5, styles: [] }, []), [{ from: 3, to: 5, matched: false }]);
    // A mark over a delimiter highlights only what is shown of it.
    const line = "a**bc**d";
    assert.deepEqual(
      render(line, [[0, 8]])
        .find("kessho-match")
        .map((e) => e.getText()),
      ["a", "bc", "d"],
    );
  });

  test("note text only ever becomes text: no element comes from the note but the styles'", () => {
    const el = render('<script>alert("x")</script> **<b>bold</b>** <a href="javascript:x">y</a>');
    const tags = new Set(el.all().map((e) => e.tag));
    assert.deepEqual([...tags].sort(), ["div", "span", "strong"]);
    assert.equal(el.getText(), 'alert("x") bold y');
  });

  test("a context note's display is its title; one without is titled by its project", () => {
    const hit = (title: string, kind: string, slug: string | null, zone: string | null = "episodes"): SearchHit => ({
      path: "p.md", title, kind, zone, slug, date: null, score: 1, line: "", line_number: 0, matched: [],
    });
    assert.equal(hitTitle(hit("context", "context", "webshop"), words("en")), "webshop — context");
    assert.equal(hitTitle(hit("history", "history", "webshop"), words("fr")), "webshop — historique");
    assert.equal(hitTitle(hit("Webshop — the shop", "context", "webshop"), words("fr")), "Webshop — the shop");
    assert.deepEqual(hitTags(hit("Webshop — the shop", "context", "webshop"), words("fr")), ["contexte", "webshop"]);
    assert.equal(hitTitle(hit("context", "note", null, null), words("en")), "context", "a note at the vault's root keeps its name");
    assert.deepEqual(hitTags(hit("Idea", "note", null, "inbox"), words("fr")), ["note", "boîte de réception"]);
  });
});
