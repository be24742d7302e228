package search

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// scanNear is near as it was before termOrder: every term looked at.
func (x *Index) scanNear(t string) []Alt {
	n := utf8.RuneCountInString(t)
	if n < minFuzzy {
		return nil
	}
	k := 1
	if n >= longFuzzy {
		k = 2
	}
	a := []rune(t)
	var alts []Alt
	for _, u := range x.terms {
		if e, ok := nearOne(a, t, u, k); ok {
			alts = append(alts, Alt{Term: u, Weight: []float64{fuzzyOne, fuzzyOne, fuzzyTwo}[e]})
		}
	}
	return alts
}

// scanBegun is begun as it was before termOrder.
func (x *Index) scanBegun(t string) []Alt {
	var found []string
	for _, u := range x.terms {
		if len(u) > len(t) && strings.HasPrefix(u, t) {
			found = append(found, u)
		}
	}
	alts := []Alt{}
	for _, u := range shortest(found, maxPrefixed) {
		alts = append(alts, Alt{Term: u, Weight: prefixed})
	}
	return alts
}

// randomWord is a word of a few letters of a small alphabet (many words
// then lie within an edit or two of each other), accented ones among them.
func randomWord(r *rand.Rand, n int) string {
	letters := []rune("abcdeéèoœßz")
	w := make([]rune, n)
	for i := range w {
		w[i] = letters[r.IntN(len(letters))]
	}
	return string(w)
}

// orderNotes is n notes of random words, seeded.
func orderNotes(r *rand.Rand, n int, from int) []Note {
	notes := make([]Note, n)
	for i := range notes {
		var b strings.Builder
		for range 30 {
			b.WriteString(randomWord(r, 2+r.IntN(11)) + " ")
		}
		text := b.String()
		notes[i] = ParseNote(fmt.Sprintf("20-knowledge/n%d.md", from+i), fmt.Sprint(from+i), &text)
	}
	return notes
}

// orderQueries are words near the index's terms or not: terms as they
// are, with one or two runes changed, dropped or added, their prefixes,
// and random words.
func orderQueries(r *rand.Rand, x *Index) []string {
	var qs []string
	for range 100 {
		u := []rune(x.terms[r.IntN(len(x.terms))])
		for range r.IntN(3) {
			i := r.IntN(len(u))
			switch r.IntN(4) {
			case 0:
				u[i] = []rune(randomWord(r, 1))[0]
			case 1:
				u = slices.Delete(u, i, i+1)
			case 2:
				u = slices.Insert(u, i, []rune(randomWord(r, 1))[0])
			default:
				if i+1 < len(u) {
					u[i], u[i+1] = u[i+1], u[i]
				}
			}
			if len(u) == 0 {
				u = []rune("a")
			}
		}
		qs = append(qs, string(u), string(u[:1+r.IntN(len(u))]), randomWord(r, 1+r.IntN(14)))
	}
	return qs
}

// TestOrderAsScan checks that the typos' and prefixes' lookups through
// the terms' order find what a look at every term finds, in the same
// order: on an index built (no term sorted), decoded (every term
// sorted), given a few notes after (terms past the order, looked at one
// by one) and many (the order made again), and compacted.
func TestOrderAsScan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	x := New()
	for _, n := range orderNotes(r, 300, 0) {
		x.Put(n)
	}
	check := func(state string) {
		t.Helper()
		found := 0
		for _, q := range orderQueries(r, x) {
			if len(x.near(q)) > 1 {
				found++
			}
			if got, want := x.near(q), x.scanNear(q); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: near(%q) = %v, the scan %v", state, q, got, want)
			}
			if got, want := x.begun(q), x.scanBegun(q); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: begun(%q) = %v, the scan %v", state, q, got, want)
			}
		}
		if found < 50 {
			t.Fatalf("%s: only %d queries of 300 near several terms", state, found)
		}
	}
	check("built")
	d, err := Decode(x.EncodeRoom(0))
	if err != nil {
		t.Fatal(err)
	}
	x = d
	check("decoded")
	before := len(x.terms)
	for _, n := range orderNotes(r, 3, 1000) {
		x.Put(n)
	}
	if len(x.terms) == before || x.ordered().n != before {
		t.Fatalf("%d terms put, the order covers %d of %d", len(x.terms)-before, x.ordered().n, len(x.terms))
	}
	check("a few put")
	for _, n := range orderNotes(r, 100, 2000) {
		x.Put(n)
	}
	check("many put")
	if x.ordered().n != len(x.terms) {
		t.Fatalf("the order covers %d of %d terms", x.ordered().n, len(x.terms))
	}
	for i := range 250 {
		x.Remove(fmt.Sprintf("20-knowledge/n%d.md", i))
	}
	x.Compact()
	check("compacted")
}

// BenchmarkNear looks up typos among 120,000 made-up terms (a vault of
// some 50,000 notes): a long one (two edits) and a short one (one), the
// term order made before the timer; and the terms a one-letter prefix
// begins (thousands).
func BenchmarkNear(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 5))
	x := New()
	x.ensureDict()
	letters := []rune("abcdefghijklmnopqrstuvwxyzéè")
	for range 120000 {
		w := make([]rune, 3+r.IntN(5)+r.IntN(5))
		for i := range w {
			w[i] = letters[r.IntN(len(letters))]
		}
		x.intern(string(w))
	}
	x.ordered().walkable(x)
	for _, q := range []string{"qzxwvjkqpl", "qzxwvj"} {
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				x.near(q)
			}
		})
	}
	b.Run("prefix-a", func(b *testing.B) {
		for b.Loop() {
			x.begun("a")
		}
	})
}
