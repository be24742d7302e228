package frontmatter

import (
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// parseBoth parses text with and without simpleMapping.
func parseBoth(text string) (fast, slow *Doc, fastErr, slowErr error) {
	fast, fastErr = parse(text)
	simple = false
	defer func() { simple = true }()
	slow, slowErr = parse(text)
	return
}

// TestCacheRemembers checks that a text a Cache parsed is not parsed
// again: the same Doc comes back, until four other texts have been
// parsed; Parse keeps nothing.
func TestCacheRemembers(t *testing.T) {
	text := "---\nphase: draft # a comment: yaml.v3 reads it\n---\nBody.\n"
	var c Cache
	a, err := c.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := c.Parse(strings.Clone(text)); b != a {
		t.Errorf("the same text was parsed again")
	}
	if b, _ := Parse(text); b == a {
		t.Errorf("Parse, without a cache, gave the cache's Doc")
	}
	for i := 0; i < 4; i++ {
		c.Parse(fmt.Sprintf("---\nn: %d\n---\n", i))
	}
	if b, _ := c.Parse(text); b == a {
		t.Errorf("a text is remembered after four others")
	}
	if _, err := (*Cache)(nil).Parse(text); err != nil {
		t.Errorf("the nil Cache: %v", err)
	}
}

// sameAsYAML fails t unless Parse reads text alike with and without the
// fast path (every node, every offset, or the same error), and reports
// whether the fast path took it. text is a frontmatter then "Body.\n".
func sameAsYAML(t *testing.T, text string) bool {
	t.Helper()
	_, took := simpleMapping(text[4 : len(text)-len("---\nBody.\n")])
	fast, slow, fastErr, slowErr := parseBoth(text)
	if fmt.Sprint(fastErr) != fmt.Sprint(slowErr) {
		t.Fatalf("%q: error %v with the fast path, %v without", text, fastErr, slowErr)
	}
	if fast != nil && slow != nil {
		fast.spans() // measured on the first edit: compared too
		slow.spans()
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%q: the fast path reads another Doc:\n%#v\n%#v", text, fast.root, slow.root)
	}
	return took
}

// bothPaths fails t unless the fast path took between a tenth and nine
// tenths of the generated frontmatters (taken, one a frontmatter), so that
// a test still tests both paths.
func bothPaths(t *testing.T, taken []bool) {
	t.Helper()
	took := 0
	for _, ok := range taken {
		if ok {
			took++
		}
	}
	if took < len(taken)/10 || took > len(taken)*9/10 {
		t.Errorf("the fast path took %d of %d frontmatters: the test no longer tests both paths", took, len(taken))
	}
}

// TestSimpleMappingIsYAMLs checks that the fast path changes nothing:
// on thousands of generated frontmatters, some it takes and many it must
// leave to yaml.v3, Parse gives the same Doc (every node, every offset)
// or the same error with and without it.
func TestSimpleMappingIsYAMLs(t *testing.T) {
	keys := []string{"slug", "kind", "a-b", "_x", "x1", "1", "007", "true", "null", "Yes", "-x", "<<", "a b", "é", "k", "key.x", strings.Repeat("k", 1001)}
	seps := []string{": ", ":  ", ":", ":\t", " : ", ": \t"}
	values := []string{"p000", "archive", "2026-11-29", "2026-11-29T10:15:00+01:00", "08:00", `"08:00"`, "'08:00'", "Session 0", "Worked on it, then more", "true", "False", "~", "null", "NULL", "1e3", ".inf", "-.inf", ".nan", "0x1F", "0o17", "1_000", "+1", "-1", "012", "3.14", "é", "\u00a0x", "x\u00a0", "a #b", "a# b", "a: b", "a:b", "a:", "x  ", "x \t", "[a, b]", "{a: 1}", "- x", "-x", "&a x", "*a", "!!str x", "!x", "| x", "> x", "%x", "@x", "`x", `""`, "''", "", "(x)", "/x", ".x", "«x»", `a\b`, `"a\nb"`, `"a'b"`, `'a"b'`, `'it''s'`, "ＡＢ", "😀 ok", "x\u2028y", "x\u0085y", "\ufeffx", "x\x7f", "x\u00ady", "x\ufffdy", "x\xffy", "?x", "? x", ",x", "x,y", "x]", "<< x", "<<", "=", "\"x\" y", "'x' y", `"x"  `, "x\r"}
	rng := rand.New(rand.NewSource(12))
	var taken []bool
	for i := 0; i < 6000; i++ {
		var b strings.Builder
		b.WriteString("---\n")
		n := 1 + rng.Intn(5)
		for j := 0; j < n; j++ {
			switch rng.Intn(12) {
			case 0:
				b.WriteString("\n")
			case 1:
				b.WriteString("  \n")
			case 2:
				b.WriteString("  " + values[rng.Intn(len(values))] + "\n")
			}
			if rng.Intn(3) == 0 {
				b.WriteString(keys[rng.Intn(len(keys))])
			} else {
				b.WriteString(keys[rng.Intn(5)])
			}
			if rng.Intn(4) == 0 {
				b.WriteString(seps[rng.Intn(len(seps))])
			} else {
				b.WriteString(": ")
			}
			if rng.Intn(2) == 0 {
				b.WriteString(values[rng.Intn(len(values))] + "\n")
			} else {
				b.WriteString(values[rng.Intn(10)] + "\n")
			}
		}
		b.WriteString("---\nBody.\n")
		taken = append(taken, sameAsYAML(t, b.String()))
	}
	bothPaths(t, taken)
}

// TestSimpleListIsYAMLs checks the fast path's block lists (`tags:` then
// `- item` lines) the same way: generated frontmatters mixing lists at
// several indentations, with items it must take or leave, blank lines,
// continuation lines and keys after them, read alike with and without it.
func TestSimpleListIsYAMLs(t *testing.T) {
	items := []string{"project/webshop", "zone/episodes", "kind/archive", "a", "Décision été", "2026-11-29", "true", "1", "~", `"quoted"`, "'single'", "a: b", "a:", "#x", "x # c", "[a]", "- x", "-", "", "&a x", "*a", "{a: 1}", "? x", "x  ", "é"}
	indents := []string{"", "", "  ", "  ", " ", "    "}
	rng := rand.New(rand.NewSource(13))
	var taken []bool
	for i := 0; i < 6000; i++ {
		var b strings.Builder
		b.WriteString("---\n")
		for j := 0; j < 1+rng.Intn(4); j++ {
			switch rng.Intn(6) {
			case 0:
				b.WriteString(fmt.Sprintf("k%d: v\n", j))
			case 1:
				b.WriteString("\n")
			default:
				b.WriteString(fmt.Sprintf("list%d:", j))
				if rng.Intn(10) == 0 {
					b.WriteString(" ")
				}
				b.WriteString("\n")
				ind := indents[rng.Intn(len(indents))]
				for n := rng.Intn(4); n >= 0; n-- {
					if rng.Intn(8) == 0 {
						ind = indents[rng.Intn(len(indents))]
					}
					switch rng.Intn(12) {
					case 0:
						b.WriteString("\n")
					case 1:
						b.WriteString(ind + "  continued\n")
					}
					if rng.Intn(2) == 0 {
						b.WriteString(ind + "- " + items[rng.Intn(len(items))] + "\n")
					} else {
						b.WriteString(ind + "- " + items[rng.Intn(5)] + "\n")
					}
				}
			}
		}
		b.WriteString("---\nBody.\n")
		taken = append(taken, sameAsYAML(t, b.String()))
	}
	bothPaths(t, taken)
}

// TestSimpleMappingTakesArchives checks that an archive's usual
// frontmatter takes the fast path.
func TestSimpleMappingTakesArchives(t *testing.T) {
	content := "project: p000\ntags:\n- project/p000\n- zone/episodes\nslug: p000\nkind: archive\ndate: 2026-11-29\ntime: \"08:00\"\nsubject: Session 0 — réunion\naliases:\n  - the app is all white\n  - écran blanc\n\nphase: 'draft'\n"
	if _, ok := simpleMapping(content); !ok {
		t.Fatalf("%q: not taken", content)
	}
}

// TestReadFieldsIsParse: ReadFields fails where Parse fails, and answers
// String and Strings of the keys it kept, Body and BodyOffset, as the
// Doc does; its fast reading (simpleKept) takes most of the texts, lists
// of keys it does not keep included, and skips none it should read.
func TestReadFieldsIsParse(t *testing.T) {
	keep := []string{"display", "aliases", "date"}
	keys := []string{"display", "aliases", "date", "tags", "slug", "a-b", "true", "display "}
	values := []string{"x", "2026-11-29", `"q"`, "'s'", "~", "null", "a #b", "a: b", "[a, b]", "{a: 1}", "- x", "&a x", "*a", "", "x\r", "é", "true", "12"}
	lists := []string{"  - a\n  - b\n", "- a\n- 2026-01-02\n", "  - [x]\n", "  -\n", "  - a\n - b\n", "  - 'q'\n", "  - a: b\n"}
	rng := rand.New(rand.NewSource(27))
	fast := 0
	for i := 0; i < 4000; i++ {
		var b strings.Builder
		if rng.Intn(20) == 0 {
			b.WriteString("\ufeff")
		}
		b.WriteString("---\n")
		for j := rng.Intn(6); j >= 0; j-- {
			k, v, l := keys[rng.Intn(4)], values[rng.Intn(4)], lists[rng.Intn(2)]
			if rng.Intn(4) == 0 { // anything, most of which yaml.v3 reads
				k, v, l = keys[rng.Intn(len(keys))], values[rng.Intn(len(values))], lists[rng.Intn(len(lists))]
			}
			switch rng.Intn(10) {
			case 0, 1:
				b.WriteString(k + ":\n" + l)
			case 2:
				b.WriteString("# a comment\n")
			default:
				b.WriteString(k + ": " + v + "\n")
			}
		}
		if rng.Intn(30) != 0 {
			b.WriteString("---\n")
		}
		b.WriteString("Body " + fmt.Sprint(i) + ".\n")
		text := b.String()
		if rng.Intn(10) == 0 {
			text = strings.ReplaceAll(text, "\n", "\r\n")
		}
		d, derr := Parse(text)
		f, ferr := ReadFields(text, keep...)
		if fmt.Sprint(derr) != fmt.Sprint(ferr) {
			t.Fatalf("%q: ReadFields error %v; Parse %v", text, ferr, derr)
		}
		if derr != nil {
			continue
		}
		if _, ok := simpleKept(text[d.contentStart:d.contentEnd], keep); ok {
			fast++
		}
		if f.Body() != d.Body() || f.BodyOffset() != d.BodyOffset() {
			t.Fatalf("%q: body at %d; Parse %d", text, f.BodyOffset(), d.BodyOffset())
		}
		for _, k := range keep {
			fs, fok := f.String(k)
			ds, dok := d.String(k)
			fl, flok := f.Strings(k)
			dl, dlok := d.Strings(k)
			if fs != ds || fok != dok || !slices.Equal(fl, dl) || flok != dlok {
				t.Fatalf("%q: %s is %q %v, %q %v; Parse %q %v, %q %v", text, k, fs, fok, fl, flok, ds, dok, dl, dlok)
			}
		}
	}
	if fast < 500 { // 816 when written (a key twice, a CR, a comment: yaml.v3's)
		t.Errorf("the fast reading took %d of 4000 texts: it no longer serves", fast)
	}
}
