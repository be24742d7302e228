package frontmatter

import (
	"strings"
	"testing"
)

// trickyFiles are notes whose frontmatter exercises what splicing can get
// wrong. TestPropertySweep runs the fuzz property on every key of each, with
// awkward values, for every kind of edit.
var trickyFiles = []string{
	"---\ntitle: Old\nphase: draft\n---\n# Body\n",
	"\ufeff---\r\ntitle: Old\r\ntags: [a, b]\r\nlist:\r\n  - x\r\n  - y\r\n---\r\nbody\r\n",
	"---\n# head comment\ntitle: 'Quoted' # trailing\n\n# about tags\ntags:\n  - a # first\n  # between\n  - b\n  # indented tail\n# foot\nnext: \"dq\"   # c\n---\nbody\n",
	"---\ntags: [a, \"b c\", 'd', ]\naliases: []\nempty: [ ]\nmulti: [\n  one,   # c1\n  two\n]\n---\n",
	"---\nsummary: |\n  line one\n\n  # not a comment\n  line two\nfolded: >-\n  a\n  b\nkeep: |+\n  kept\n\nnext: 1\n---\ntext\n",
	"---\nnöte: café 😀\n\"émoji 🎉\": \"ünï\"\n'sq key': 1\ntitle: x\n日本: 語\n---\nbody ü\n",
	"---\nbase: &b {x: 1, y: [2]}\nuse: *b\nmerge:\n  <<: *b\n  z: 3\nother: &o val\nref: *o\n---\n",
	"---\n<<: {m: 1}\nm2: 2\n---\n",
	"---\nt1: !!str 123\nt2: !custom thing\nt3: !!str\nt4: &anc\n  - x\nt5: &only plain\n---\n",
	"---\ntags:\n- a\n- b\n# c\nnext: 2\n---\n",
	"---\n  a: 1\n  b:\n    - x\n  # c\n  c: |\n    z\n---\n",
	"---\na: one\n  two\nb: \"x\n  y\"\nc: 'p\n\n  q'\nd: [e,\n  f]\ne: {g: 1,\n  h: 2}\n---\n",
	"---\na: 1   \nb: 2 \n\n\nc:    \nd:   # only a comment\n---   \nbody  \n",
	"---\nkey:\n  value on next line\nk2:\n  \"quoted next\" # c\nk3:\n  [x, y]\n---\n",
	"---\nitems:\n  - a: 1\n    b: 2\n  - c: 3\nnested:\n  deep:\n    deeper: [1, 2]\n---\n",
	"---\na: 1\n---",
	"---\na: 1\n...\nbody\n",
	"---\na: 1\n---\n---\nnot: frontmatter\n---\n",
	"---\n---\n",
	"---\n# only a comment\n---\nbody\n",
	"",
	"no frontmatter\n",
	"\ufeffno frontmatter\r\nsecond\r\n",
	"---",
	"---\nx: a\u2028b\ny: c\u0085d\nz: \"e\u2028f\"\n---\n",
	"---\nhash: a#b\nurl: http://x.y/z#frag\ncolon: a:b\nq: \"a \\\" b\"\nsq: 'it''s'\n---\n",
	"---\nnum: 007\nhex: 0x1F\nf: 1.50\nb: yes\nn: ~\nd: 2026-11-30\nts: 2026-11-30T10:15:00+01:00\n---\n",
	"---\n? complex\n: value\nafter: 1\n---\n",
	"---\n[a]: seqkey\nplain: 1\n---\n",
	"---\ntitle:    spaced   # c\nlast: |-\n  tail\n---\n",
	"---\nblock:\n  - a\n\n  - b\n\nend: 1\n---\n",
	// Lines ending in a lone "\r" (classic Mac OS), alone and mixed (more
	// in the fuzz seeds: block scalars, no frontmatter).
	"---\rtitle: Old\rphase: draft # c\r---\r# Body\r",
	"\ufeff---\rtitle: 'Old'\rtags: [a, b]\rlist:\r  - x\r  - y\r---\rbody\r\r",
	"---\r\na: 1\rb:\r  - x\n# c\r\nc: \"q\"\r---\r\nmixed\r",
}

var trickyValues = []string{
	"", "plain", "two words", "yes", "No", "007", "10:15", ": x", "#c", "a #b", "a: b",
	" lead", "trail ", "multi\nline", "cr\rlf", "quote's", `dq"x`, `back\slash`,
	"日本語", "emoji 😀", "[x]", "{y}", "&a", "*b", "!t", "%p", "@q", "`r", "|s", ">t",
	"- u", "-", "?", "null", "~", "true", "1.5", "1e3", "tab\tin", "\x00ctl\x7f", "\u2028ls",
	"\ufeffbom", "a,b", ",", "x,,y", "---", "...", "<<", "=", "\u0085nel", "\u00a0nbsp",
}

func TestPropertySweep(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep")
	}
	extraKeys := []string{"new", "yes", "a: b", "#x", "", "007", "- x", "日本 語", "k\nl", "title"}
	for _, text := range trickyFiles {
		keys := extraKeys
		if d, err := Parse(text); err == nil {
			keys = append(d.Keys(), extraKeys...)
		}
		for i, key := range keys {
			checkRemove(t, text, key)
			for j, v := range trickyValues {
				for kind := byte(0); kind < 8; kind++ {
					// Scalars other than strings and maps hardly depend on v,
					// odd keys hardly on the kind: sample those.
					other := kind >= 2 && kind <= 6
					if other && j%6 != 0 || i >= len(keys)-len(extraKeys) && kind > 1 && kind != 7 {
						continue
					}
					checkEdit(t, text, key, v, kind)
				}
			}
		}
	}
}

// TestSweepRefusesLittle makes sure the sweep exercises successes: on valid
// block frontmatter, only the refusals this package documents happen.
func TestSweepRefusesLittle(t *testing.T) {
	for _, text := range trickyFiles {
		d, err := Parse(text)
		if err != nil || d.flow {
			continue
		}
		for _, key := range append(d.Keys(), "new") {
			for _, v := range []string{"plain", "yes", "multi\nline", "日本語"} {
				_, err := Set(text, key, v)
				if err == nil {
					continue
				}
				msg := err.Error()
				if strings.Contains(msg, "anchor") || strings.Contains(msg, "its own line") || key == "<<" {
					continue
				}
				t.Errorf("Set(%q, %q, %q): %v", text, key, v, err)
			}
		}
	}
}
