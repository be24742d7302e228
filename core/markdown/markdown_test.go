package markdown

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestLinkedItems(t *testing.T) {
	src := "# History\r\n\r\nIntro with [a link](archives/x.md).\r\n\r\n- [2026-11-30 10h15 — A](archives/a.md)\r\n\r\n- [B](archives/b%20c.md) tail\r\n  - nested [C](other/c.md)\r\n\r\n```\r\n- [D](archives/d.md)\r\n```\r\n* plain item\r\n"
	items := LinkedItems([]byte(src))
	var dests, lines []string
	for _, it := range items {
		dests = append(dests, it.Dest)
		lines = append(lines, src[it.Start:it.End])
	}
	wantDests := []string{"archives/a.md", "archives/b%20c.md", "other/c.md"}
	wantLines := []string{"- [2026-11-30 10h15 — A](archives/a.md)\r\n", "- [B](archives/b%20c.md) tail\r\n", "  - nested [C](other/c.md)\r\n"}
	if !reflect.DeepEqual(dests, wantDests) || !reflect.DeepEqual(lines, wantLines) {
		t.Errorf("LinkedItems = %q %q; want %q %q", dests, lines, wantDests, wantLines)
	}
	if items[0].Line != "- [2026-11-30 10h15 — A](archives/a.md)" {
		t.Errorf("Line = %q", items[0].Line)
	}
}

func TestWikiLinks(t *testing.T) {
	src := "See [[Alpha]] and ![[img.png|300]], [[Beta#Part|shown]].\n\n`[[in code]]` and\n\n```\n[[fenced]]\n```\n\n- item [[Gamma^block]]\n\n[[#local]] [[ spaced ]]\n"
	var got []string
	for _, l := range WikiLinks([]byte(src)) {
		got = append(got, l.Target)
	}
	want := []string{"Alpha", "img.png", "Beta", "Gamma", "spaced"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("WikiLinks = %q; want %q", got, want)
	}
}

func TestHeadings(t *testing.T) {
	src := "intro\n# One\ntext\n## Next steps\n- a\n\n## Other\nx\n\nSetext\n------\ny\n# Two\n"
	hs := Headings([]byte(src))
	var got []string
	for _, h := range hs {
		got = append(got, h.Text+"|"+src[h.BodyStart:h.End])
	}
	want := []string{"One|text\n## Next steps\n- a\n\n## Other\nx\n\nSetext\n------\ny\n", "Next steps|- a\n\n", "Other|x\n\n", "Setext|y\n", "Two|"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Headings = %q; want %q", got, want)
	}
}

// TestOldMacLineEndings: lines ending in a lone "\r" are lines.
func TestOldMacLineEndings(t *testing.T) {
	src := "# History\r\r- [b](archives/b.md)\r- [a](archives/a.md)\r\r## Old\r\rtext [[Note]]\r"
	items := LinkedItems([]byte(src))
	if len(items) != 2 || items[0].Dest != "archives/b.md" || items[1].Dest != "archives/a.md" {
		t.Fatalf("LinkedItems = %+v; want two items", items)
	}
	if got := src[items[0].Start:items[0].End]; got != "- [b](archives/b.md)\r" || items[0].Line != "- [b](archives/b.md)" {
		t.Errorf("first item spans %q, line %q", got, items[0].Line)
	}
	hs := Headings([]byte(src))
	if len(hs) != 2 || hs[0].Text != "History" || hs[1].Text != "Old" || src[hs[1].Start:hs[1].BodyStart] != "## Old\r" {
		t.Errorf("Headings = %+v", hs)
	}
	if links := WikiLinks([]byte(src)); len(links) != 1 || links[0].Target != "Note" {
		t.Errorf("WikiLinks = %+v", links)
	}
}

func TestLinkedItemText(t *testing.T) {
	src := "- [2026 — a \\*b\\* `c` *d*](x.md) tail\n- [](y.md)\n"
	items := LinkedItems([]byte(src))
	if len(items) != 2 || items[0].Text != "2026 — a \\*b\\* `c` *d*" || items[1].Text != "" {
		t.Fatalf("items %+v", items)
	}
}

func TestBlocks(t *testing.T) {
	src := "Intro line\nmore.\n\n# Head\n\n- a\n- b\n\n```\nx\n```\n"
	bs := Blocks([]byte(src))
	var got []string
	for _, b := range bs {
		got = append(got, fmt.Sprintf("%v:%q", b.Heading, src[b.Start:b.End]))
	}
	want := []string{`false:"Intro line\nmore.\n\n"`, `true:"# Head\n\n"`, `false:"- a\n- b\n\n"`, "false:\"```\\nx\\n```\\n\""}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("blocks\n got %v\nwant %v", got, want)
	}
}
