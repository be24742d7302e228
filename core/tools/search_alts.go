package tools

import (
	"slices"

	"github.com/kessho/kessho/core/search"
)

// altTerms are the terms of a query's other-language alternatives
// (search.Alternatives), which the best line of a hit also counts: an
// English note found by a French query shows the line of the English
// words.
func altTerms(alts []search.Alt) []string {
	out := make([]string, len(alts))
	for i, a := range alts {
		out[i] = a.Term
	}
	return out
}

// lineAlts is what the alternatives a line's terms lt hold add to its
// count: 1 each, half a typed term's, so that a line with a typed term
// comes before one with its translation.
func lineAlts(lt, alts []string) int {
	n := 0
	for _, t := range alts {
		if slices.Contains(lt, t) {
			n++
		}
	}
	return n
}
