package search

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// queries are the searches segment tests compare indexes on.
var queries = []string{"webhook retry", "budget cache", "archive", "été décision", "brand new", "extra alias"}

// sameResults fails unless x and y rank every query alike, and hold the
// same notes with the same links.
func sameResults(t *testing.T, what string, x, y *Index) {
	t.Helper()
	for _, q := range queries {
		if a, b := results(x, q), results(y, q); a != b {
			t.Errorf("%s, %q:\n%s\nwant\n%s", what, q, a, b)
		}
	}
	if a, b := x.Paths(), y.Paths(); !slices.Equal(a, b) {
		t.Errorf("%s: paths %v, want %v", what, a, b)
	}
	links := func(x *Index) string {
		var out []string
		x.Links(func(p string, l []string) { out = append(out, p+"="+strings.Join(l, ",")) })
		slices.Sort(out)
		return strings.Join(out, ";")
	}
	if a, b := links(x), links(y); a != b {
		t.Errorf("%s: links %s, want %s", what, a, b)
	}
}

// change edits, removes and adds a few notes of corpus notes, in x too.
func change(x *Index, notes map[string]string, round int) {
	edit := func(p, text string) {
		notes[p] = text
		x.Put(ParseNote(p, key(text), strp(text)))
	}
	edit(fmt.Sprintf("20-knowledge/note %03d.md", round), fmt.Sprintf("brand new text %d about budget cache [[alpha]]", round))
	edit(fmt.Sprintf("40-principles/added %d.md", round), "---\nsubject: webhook retry\naliases: [zygomorph]\n---\nextra [[alpha]] [[beta]]")
	gone := fmt.Sprintf("20-knowledge/note %03d.md", 50+round)
	delete(notes, gone)
	x.Remove(gone)
}

// TestDeltaHandedBack: after a base is handed back, a few changed notes
// hand back a delta alone, much smaller than the base; the base's bytes
// and a delta, joined as a host sends them, decode to an index that
// ranks as a fresh build of the same notes does, and so does a second
// delta made on the decoded index (deltas of one base are cumulative).
func TestDeltaHandedBack(t *testing.T) {
	notes := corpus(200)
	x := build(notes)
	base, whole := x.Hand(0, true)
	if !bytes.HasPrefix(base, []byte(magic)) || whole != int64(len(base)) {
		t.Fatalf("first hand-back: %.4q, %d bytes of %d", base, whole, len(base))
	}
	baseCopy := append([]byte{}, base...)
	change(x, notes, 1)
	delta, whole := x.Hand(0, true)
	if !IsDelta(delta) || whole != int64(len(base)+len(delta)) || len(delta)*10 > len(base) {
		t.Fatalf("after a change: %.4q, %d bytes (base %d), whole %d", delta, len(delta), len(base), whole)
	}
	if !bytes.Equal(base, baseCopy) {
		t.Fatal("the base's bytes changed")
	}
	sameResults(t, "warm", x, build(notes))
	joined := append(append([]byte{}, base...), delta...)
	y, err := Decode(joined)
	if err != nil {
		t.Fatal(err)
	}
	sameResults(t, "decoded base and delta", y, build(notes))
	if ID(joined) != ID(delta) || !strings.HasPrefix(ID(delta), idOf(base)+"+") {
		t.Errorf("ID(joined) = %s, ID(delta) = %s, base %s", ID(joined), ID(delta), idOf(base))
	}
	y.Listing = "L2"
	change(y, notes, 2)
	y.Listing = "L2"
	delta2, _ := y.Hand(0, true)
	if !IsDelta(delta2) {
		t.Fatal("a second change on the decoded index: not a delta")
	}
	z, err := Decode(append(append([]byte{}, base...), delta2...))
	if err != nil {
		t.Fatal(err)
	}
	sameResults(t, "base and the second delta", z, build(notes))
	if z.Listing != "L2" || IDListing(ID(delta2)) != "L2" {
		t.Errorf("listing %q, id %s", z.Listing, ID(delta2))
	}
}

// TestDamagedDeltaRefused: a delta with a byte changed, cut short, or
// made of another base is never applied: the base alone decodes (an
// index of the notes before the change, which the caller brings up to
// date from the versions), and its next hand-back is a delta of it.
func TestDamagedDeltaRefused(t *testing.T) {
	notes := corpus(100)
	x := build(notes)
	x.Listing = "L1"
	before := build(notes)
	base, _ := x.Hand(0, true)
	change(x, notes, 3)
	x.Listing = "L2"
	delta, _ := x.Hand(0, true)
	other := build(corpus(90))
	otherBase, _ := other.Hand(0, true)
	change(other, corpus(90), 4)
	foreign, _ := other.Hand(0, true)
	flipped := append([]byte{}, delta...)
	flipped[len(flipped)/2] ^= 1
	for name, d := range map[string][]byte{"flipped": flipped, "cut": delta[:len(delta)-3], "another base's": foreign} {
		y, err := Decode(append(append([]byte{}, base...), d...))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameResults(t, name, y, before)
		if y.Listing != "L1" {
			t.Errorf("%s: listing %q, want the base's", name, y.Listing)
		}
		if ID(append(append([]byte{}, base...), d...)) != ID(base) {
			t.Errorf("%s: the id names the refused delta", name)
		}
		y.Put(ParseNote("20-knowledge/late.md", "k", strp("late text")))
		if again, _ := y.Hand(0, true); !IsDelta(again) {
			t.Errorf("%s: the next hand-back is not a delta", name)
		}
	}
	if len(otherBase) == len(base) && bytes.Equal(otherBase, base) {
		t.Fatal("the other base is this one")
	}
}

// TestDeltaBound: once what changed since the base outgrows deltaBound,
// the index is handed back whole, a new base, and the next change is a
// delta of that one.
func TestDeltaBound(t *testing.T) {
	notes := corpus(100)
	x := build(notes)
	x.Hand(0, true)
	for i := range x.seg.deltaBound() + 1 {
		text := fmt.Sprintf("note number %d", i)
		x.Put(ParseNote(fmt.Sprintf("20-knowledge/many %d.md", i), key(text), &text))
	}
	b, whole := x.Hand(0, true)
	if IsDelta(b) || whole != int64(len(b)) {
		t.Fatalf("past the bound: %.4q", b)
	}
	x.Remove("20-knowledge/many 0.md")
	if d, _ := x.Hand(0, true); !IsDelta(d) || !strings.HasPrefix(ID(d), idOf(b)+"+") {
		t.Fatalf("after the new base: %.4q %s", d, ID(d))
	}
	if b, _ := x.Hand(0, false); IsDelta(b) {
		t.Fatal("a host that keeps no segments was handed a delta")
	}
}
