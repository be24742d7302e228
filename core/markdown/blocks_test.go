package markdown

import (
	"reflect"
	"testing"
)

// TestBlockStructureWithoutInlines: Headings and Blocks read the tree of
// blocks goldmark builds without parsing inlines; on every kind of block,
// and on inline syntax that looks like structure, they give what they give
// on the full tree.
func TestBlockStructureWithoutInlines(t *testing.T) {
	samples := []string{
		"intro\n# One\ntext\n## Next steps\n- a\n\n## Other\nx\n\nSetext\n------\ny\n# Two\n",
		"# *Emph* and `code` and [link](x.md) ##\n\ntext with ``# not`` a heading\n",
		"```\n# in a fence\n```\n\n~~~md\n## also\n~~~\n\n    # indented code\n\n## After\n",
		"> # quoted heading\n> text\n\n- # heading in an item\n  more\n\n1. x\n\n##\n\n#no space\n",
		"[ref]: http://example.com\n# Title\n\n[ref2]:\n  http://x.org \"t\"\n\npara [ref]\n===\n\n---\n\n***\n",
		"<div>\n# in html\n</div>\n\n<!-- # comment\n-->\n\n## Real\n",
		"# History\r\r- [b](archives/b.md)\r\r## Old\r\rtext [[Note]]\r",
		"\ufeff## BOM\r\ntext\r\nSetext two\r\n===\r\n",
		"Setext *with* inline\nsecond line\n---\nbody\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
		"* a\n\n  ## nested heading\n\n* b\n    # deeper\n\ntext\\\n# after a hard break\n",
		"",
		"#\n",
		"text\n\n<https://example.com> and <span># x</span>\n",
	}
	for _, src := range samples {
		b := []byte(src)
		full := parse(b)
		if got, want := Headings(b), headingsIn(full, b); !reflect.DeepEqual(got, want) {
			t.Errorf("Headings(%q) = %+v; the full parse gives %+v", src, got, want)
		}
		full = parse(b)
		if got, want := Blocks(b), blocksIn(full, b); !reflect.DeepEqual(got, want) {
			t.Errorf("Blocks(%q) = %+v; the full parse gives %+v", src, got, want)
		}
	}
}
