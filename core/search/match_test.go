package search

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestMatcherAsTerms checks that a Matcher finds, in any text, the terms
// Terms gives that are the ranking's, in order: on random lines of words
// the index holds, words it does not, stopwords, capitals, accents typed
// composed or combining, and punctuation; for rankings exact, fuzzy and
// by prefix; before and after the index learns more words (Put) and is
// compacted. And that what it records leaves the index as it was: a twin
// index, given the same notes and never matched, ranks alike.
func TestMatcherAsTerms(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 1))
	words := []string{"cache", "Caches", "caché", "cache\u0301", "été", "ETE", "the", "les", "décision", "decisions",
		"retry", "retries", "webhook", "webhooks", "serveur", "servers", "naïve", "Straße", "œuvre", "x", "42", "a1b2"}
	line := func(extra []string) string {
		var b strings.Builder
		for range 1 + r.IntN(14) {
			pool := words
			if r.IntN(3) == 0 {
				pool = extra
			}
			b.WriteString(pool[r.IntN(len(pool))])
			b.WriteString([]string{" ", ", ", "-", "'", "’", "\t", "; ", "…"}[r.IntN(8)])
		}
		return b.String()
	}
	var stems Stems
	x, twin := New(), New()
	x.UseStems(&stems)
	put := func(n Note) { x.Put(n); twin.Put(n) }
	fresh := []string{"nouveau", "unseen", "Zèbre", "wébhook"}
	for i := range 60 {
		text := line(words)
		put(ParseNote("20-knowledge/n"+string(rune('a'+i%26))+string(rune('a'+i/26))+".md", "1", &text))
	}
	for round := range 3 {
		for _, q := range []string{"cache été", "decision webhok", "retries serv", "naive strasse oeuvre", "unseen zebre nouveau"} {
			terms := stems.Terms(q)
			r := x.RankExpanded(terms, Fuzzy(len(terms), true), func(*Meta) bool { return true })
			m := r.Matcher(x)
			r2 := twin.RankExpanded(terms, Fuzzy(len(terms), true), func(*Meta) bool { return true })
			if !reflect.DeepEqual(m.Terms(), r2.Read(twin)) {
				t.Fatalf("round %d, %q: terms %v, the twin's %v", round, q, m.Terms(), r2.Read(twin))
			}
			for range 40 {
				text := line(fresh)
				var got, want []int
				m.Each(text, func(i int) { got = append(got, i) })
				for _, term := range stems.Terms(text) {
					if i := slices.Index(m.Terms(), term); i >= 0 {
						want = append(want, i)
					}
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("round %d, %q in %q: %v, want %v", round, q, text, got, want)
				}
			}
		}
		// Other words of the fresh ones' terms: the index learns the
		// terms, not the words the lines hold.
		text := "nouveaux unseens zèbres wébhooks " + line(words)
		put(ParseNote("20-knowledge/more.md", "round"+string(rune('0'+round)), &text)) // new words, then one replaced
		if round == 1 {
			x.Compact()
			twin.Compact()
		}
	}
}
