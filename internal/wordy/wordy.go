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
			var body strings.Builder
			fmt.Fprintf(&body, "---\nsubject: %s %s\naliases:\n  - %s %s\ndate: 2026-%02d-%02d\n---\n", word(), word(), word(), word(), 1+i%12, 1+i%28)
			for body.Len() < 1100 {
				for range 12 {
					body.WriteString(word() + " ")
				}
				body.WriteString("\n")
			}
			if !yield(p, body.String()) {
				return
			}
		}
	}
	return vocab, notes
}
