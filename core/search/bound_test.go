package search

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSizeIsInTheHeader: an encoding's header says its whole length, and
// Decode refuses bytes whose header says another one, or an older
// format's header (an index of format 3 is rebuilt, never an error).
func TestSizeIsInTheHeader(t *testing.T) {
	data := build(corpus(20)).EncodeRoom(0)
	n, ok := Size(data[:headerLen])
	if !ok || n != int64(len(data)) {
		t.Fatalf("Size = %d, %v; want %d, true", n, ok, len(data))
	}
	longer := append(append([]byte{}, data...), 0)
	if _, err := Decode(longer); err == nil {
		t.Error("a byte more than the header says: decoded")
	}
	old := append([]byte{}, data...)
	old[4] = 3
	if _, ok := Size(old); ok {
		t.Error("a format 3 header read as this format's")
	}
	lie := append([]byte{}, data...)
	binary.LittleEndian.PutUint64(lie[6:headerLen], 1<<40)
	if n, ok := Size(lie); ok && n == int64(len(lie)) {
		t.Errorf("Size of a changed header = %d", n)
	}
	if _, err := Decode(lie); err == nil {
		t.Error("a header that names another length: decoded")
	}
}

// TestIndexBoundHoldsValidIndexes: the index of vaults made to be dense
// (many distinct short words, long paths and little text, a frontmatter
// of many aliases, links, words of every script) stays under IndexBound
// of its notes, and the bound stops at MaxIndexBytes.
func TestIndexBoundHoldsValidIndexes(t *testing.T) {
	words := func(n int, f func(i int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(f(i) + " ")
		}
		return b.String()
	}
	vaults := map[string]map[string]string{
		"corpus":           corpus(200),
		"two-letter words": {"20-knowledge/w.md": words(20000, func(i int) string { return string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + fmt.Sprint(i/676) })},
		"long paths, no text": func() map[string]string {
			m := map[string]string{}
			for i := range 500 {
				m[fmt.Sprintf("10-episodes/projects/p%d/archives/%s-%d.md", i, strings.Repeat("word ", 30), i)] = ""
			}
			return m
		}(),
		"aliases": {"20-knowledge/a.md": "---\ndisplay: " + words(200, func(i int) string { return fmt.Sprint("d", i) }) + "\naliases:\n" +
			words(3000, func(i int) string { return fmt.Sprintf("\n  - a%d b%d", i, i) }) + "\n---\nbody"},
		"links": {"40-principles/l.md": words(5000, func(i int) string { return fmt.Sprintf("[[n%d]]", i) })},
		"scripts": {"20-knowledge/s.md": words(20000, func(i int) string {
			r := []rune("日本語ελληνικάрусскийעבריתالعربية")
			return string(r[i%len(r)]) + fmt.Sprint(i)
		})},
	}
	for name, notes := range vaults {
		x := New()
		listing := map[string]string{}
		for p, text := range notes {
			listing[p] = fmt.Sprintf("%d:1", len(text))
			x.Put(ParseNote(p, listing[p], strp(text)))
		}
		got, bound := int64(len(x.EncodeRoom(0))), IndexBound(listing)
		if got > bound {
			t.Errorf("%s: index of %d bytes, bound %d", name, got, bound)
		}
		t.Logf("%s: index of %d bytes, %.0f%% of its bound", name, got, 100*float64(got)/float64(bound))
	}
	huge := map[string]string{}
	for i := range 100 {
		huge[fmt.Sprint(i, ".md")] = fmt.Sprintf("%d:1", 1<<40)
	}
	if b := IndexBound(huge); b != MaxIndexBytes {
		t.Errorf("bound of 100 huge notes %d, want MaxIndexBytes", b)
	}
}

// TestHeadCutsAtACharacter: a head is the first MaxNoteBytes bytes, less
// a character the cut falls inside, and valid UTF-8 whatever the offset
// of that character.
func TestHeadCutsAtACharacter(t *testing.T) {
	if h, cut := Head("short"); h != "short" || cut {
		t.Errorf("Head(short) = %q, %v", h, cut)
	}
	for pad := range 4 {
		text := strings.Repeat("a", MaxNoteBytes-pad) + strings.Repeat("€", 4) // € is 3 bytes
		h, cut := Head(text)
		want := MaxNoteBytes - pad + (pad/3)*3
		if !cut || len(h) != want || !utf8.ValidString(h) {
			t.Errorf("pad %d: head of %d bytes (cut %v, valid %v), want %d", pad, len(h), cut, utf8.ValidString(h), want)
		}
		if n := HeadLen([]byte(text[:MaxNoteBytes])); n != want {
			t.Errorf("pad %d: HeadLen %d, want %d", pad, n, want)
		}
	}
}

// TestCutRoundTrips: a note's Cut survives the encoding.
func TestCutRoundTrips(t *testing.T) {
	x := New()
	n := ParseNote("20-knowledge/log.md", "9:1", strp("some text"))
	n.Cut = true
	x.Put(n)
	x.Put(ParseNote("20-knowledge/b.md", "1:1", strp("b")))
	y, err := Decode(x.EncodeRoom(0))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, h := range y.search(Terms("some text b"), func(*Meta) bool { return true }) {
		got[h.Path] = h.Cut
	}
	if !got["20-knowledge/log.md"] || got["20-knowledge/b.md"] {
		t.Errorf("cut after decode: %v", got)
	}
}
