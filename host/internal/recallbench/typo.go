package recallbench

import (
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"unicode"
)

// TypoSeed is the fixed seed of the typo variants: a query's variant
// depends only on this seed and the query's text.
const TypoSeed = 29

// typoMinLetters: only words of at least this many letters get an edit.
const typoMinLetters = 4

func typoRand(q string, seed uint64) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(q))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

func isTypoWord(w string) bool {
	n := 0
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
		n++
	}
	return n >= typoMinLetters
}

// OneEdit applies exactly one edit to word (at least 4 letters): insert,
// delete, substitute or transpose (two different adjacent letters), the
// kind and the place drawn from rng. The result is at Damerau-Levenshtein
// distance 1 from word.
func OneEdit(word string, rng *rand.Rand) string {
	r := []rune(word)
	letter := func(not rune) rune {
		for {
			c := rune('a' + rng.IntN(26))
			if c != not {
				return c
			}
		}
	}
	switch rng.IntN(4) {
	case 0: // insert
		i := rng.IntN(len(r) + 1)
		return string(r[:i]) + string(letter(0)) + string(r[i:])
	case 1: // delete
		i := rng.IntN(len(r))
		return string(r[:i]) + string(r[i+1:])
	case 2: // transpose, when two adjacent letters differ
		var at []int
		for i := 0; i+1 < len(r); i++ {
			if r[i] != r[i+1] {
				at = append(at, i)
			}
		}
		if len(at) > 0 {
			i := at[rng.IntN(len(at))]
			r[i], r[i+1] = r[i+1], r[i]
			return string(r)
		}
	}
	i := rng.IntN(len(r)) // substitute
	r[i] = letter(unicode.ToLower(r[i]))
	return string(r)
}

// TypoLongest gives q with one edit in its longest word of 4 letters or
// more (the first of equal length); q itself when it has none.
func TypoLongest(q string, seed uint64) string {
	words := strings.Fields(q)
	best := -1
	for i, w := range words {
		if isTypoWord(w) && (best < 0 || len([]rune(w)) > len([]rune(words[best]))) {
			best = i
		}
	}
	if best < 0 {
		return q
	}
	words[best] = OneEdit(words[best], typoRand(q, seed))
	return strings.Join(words, " ")
}

// TypoEvery gives q with one edit in every word of 4 letters or more
// (words are split on spaces; a word holding a non-letter is left as is).
func TypoEvery(q string, seed uint64) string {
	rng := typoRand(q, seed)
	words := strings.Fields(q)
	for i, w := range words {
		if isTypoWord(w) {
			words[i] = OneEdit(w, rng)
		}
	}
	return strings.Join(words, " ")
}
