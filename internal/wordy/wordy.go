// Package wordy makes the notes of a benchmark vault whose words come
// from a vocabulary of made-up words drawn by Zipf's law, as a
// language's are: at 50,000 notes of about 1.1 KB its search index holds
// some 100,000 terms, as a real vault of that size does. The core's
// benchmarks (core/tools) and the host's (host/call) search the same
// notes.
package wordy

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"strings"
	"unicode/utf8"
)

// vocabSize is how many words the vocabulary holds.
const vocabSize = 120000

// New returns the vocabulary of an n-note vault, most frequent first,
// and its notes (vault path, text), made in order as they are ranged
// over; range over them once. The same n gives the same vault.
func New(n int) ([]string, iter.Seq2[string, string]) {
	r := rand.New(rand.NewPCG(uint64(n), 11))
	vocab := make([]string, vocabSize)
	seen := map[string]bool{}
	letters := []rune("abcdefghijklmnopqrstuvwxyzéè")
	for i := range vocab {
		for {
			var w strings.Builder
			for range 3 + r.IntN(5) + r.IntN(5) {
				w.WriteRune(letters[r.IntN(28)])
			}
			if s := w.String(); !seen[s] {
				seen[s], vocab[i] = true, s
				break
			}
		}
	}
	notes := func(yield func(string, string) bool) {
		zipf := rand.NewZipf(r, 1.05, 2, vocabSize-1)
		word := func() string { return vocab[zipf.Uint64()] }
		for i := range n {
			p := fmt.Sprintf("20-knowledge/%s %s %d.md", word(), word(), i)
			if i%2 == 0 {
				p = fmt.Sprintf("10-episodes/projects/p%02d/archives/2026-%02d-%02d-10h00-p%02d-%s.md", i%50, 1+i%12, 1+i%28, i%50, word())
			}
			if !yield(p, Body(i, word)) {
				return
			}
		}
	}
	return vocab, notes
}

// Body is the text of a benchmark vault's note i, its words drawn by
// word: a frontmatter (subject, aliases, a date of i), then lines of 12
// words up to about 1.1 KB.
func Body(i int, word func() string) string {
	var body strings.Builder
	fmt.Fprintf(&body, "---\nsubject: %s %s\naliases:\n  - %s %s\ndate: 2026-%02d-%02d\n---\n", word(), word(), word(), word(), 1+i%12, 1+i%28)
	for body.Len() < 1100 {
		for range 12 {
			body.WriteString(word() + " ")
		}
		body.WriteString("\n")
	}
	return body.String()
}

// Query is a search of a benchmark: its text, and whether its last word
// matches as a prefix.
type Query struct {
	Text   string
	Prefix bool
}

// Queries are warm searches of each kind on vocab (New's), two of each
// so that the calls alternate (a core answers a query the same as the
// last one from what it kept): "exact", words as written; "typo", one
// edit in each word (a swap or a substitution); "prefix", the last word
// cut short; "unknown", long words no vault of New holds (each looked up
// within two edits, what costs most).
func Queries(vocab []string) map[string][2]Query {
	long := func(from, min int) string { // a word of rank from on, of min letters or more
		for _, w := range vocab[from:] {
			if len(w) >= min && utf8.ValidString(w) && !strings.ContainsAny(w, "éè") {
				return w
			}
		}
		return ""
	}
	swap := func(w string) string { return w[:2] + w[3:4] + w[2:3] + w[4:] }
	sub := func(w string) string { return w[:len(w)/2] + "q" + w[len(w)/2+1:] }
	a, c, d, e := long(300, 9), long(1500, 6), long(800, 10), long(3000, 7)
	return map[string][2]Query{
		"exact":   {{a + " " + c, false}, {d + " " + e, false}},
		"typo":    {{sub(a) + " " + swap(c), false}, {swap(d) + " " + sub(e), false}},
		"prefix":  {{a + " " + c[:3], true}, {d + " " + e[:4], true}},
		"unknown": {{"qzxwvjkqpl zzqxwvkjpx", false}, {"xqzvwkjqlp qqzzxwvkjm", false}},
	}
}
