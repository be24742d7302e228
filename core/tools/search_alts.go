package tools

import "github.com/kessho/kessho/core/search"

// lineTerms are the terms a hit's best line is chosen by: the query's,
// then its other-language alternatives (search.Alternatives), so that an
// English note found by a French query shows the line of the English
// words.
func lineTerms(terms []string, alts []search.Alt) []string {
	out := append([]string(nil), terms...)
	for _, a := range alts {
		out = append(out, a.Term)
	}
	return out
}
