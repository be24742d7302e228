package search

import (
	"strings"

	"github.com/kessho/kessho/core/fold"
	"github.com/kessho/kessho/core/search/lexicon"
)

// The weights of the other language's terms: a lexicon entry's, and a
// cognate's (a suffix rule's guess, less sure). Set on the dev split.
const (
	lexiconWeight = 0.5
	cognateWeight = 0.3
)

// Alternatives returns the terms of the other language for query's words:
// the lexicon's (package lexicon, French ↔ English work vocabulary; the
// longest phrase of up to lexicon.MaxWords terms in a row first) and the
// cognates' (cognates), each once at its highest weight, in the order
// they come, none that is a typed term. The index is unchanged: only the
// query grows.
func (s *Stems) Alternatives(query string) []Alt {
	var words, terms []string
	Words(query, func(w string) {
		if t := s.term(w); t != "" {
			words, terms = append(words, w), append(terms, t)
		}
	})
	typed := map[string]bool{}
	for _, t := range terms {
		typed[t] = true
	}
	var out []Alt
	at := map[string]int{}
	add := func(t string, w float64, from, n int) {
		if typed[t] {
			return
		}
		if i, ok := at[t]; ok {
			out[i].Weight = max(out[i].Weight, w)
			return
		}
		at[t] = len(out)
		out = append(out, Alt{Term: t, Weight: w, from: from, span: n})
	}
	for i := 0; i < len(terms); {
		n, phrases := lexiconAt(terms[i:])
		for _, p := range phrases {
			for t := range strings.SplitSeq(p, " ") {
				add(t, lexiconWeight, i, n)
			}
		}
		i += n
	}
	for j, w := range words {
		for _, c := range cognates(fold.Fold(w)) {
			add(s.stem(c), cognateWeight, j, 1)
		}
	}
	return out
}

// lexiconAt returns the lexicon's phrases for the longest run of terms at
// the start of terms it holds, and that run's length (1, and no phrases,
// when it holds none).
func lexiconAt(terms []string) (int, []string) {
	for n := min(len(terms), lexicon.MaxWords()); n > 0; n-- {
		if p := lexicon.Lookup(strings.Join(terms[:n], " ")); p != nil {
			return n, p
		}
	}
	return 1, nil
}

// cognateRules are suffixes of French words and their English
// counterparts, and the reverse: `serveur` ↔ `server`, `stratégie` ↔
// `strategy`, `actif` ↔ `active`, `manuel` ↔ `manual`, `sécurité` ↔
// `security` (where the stems do not already meet). Read on folded
// words; the French side is written with its accents for the stemmer.
var cognateRules = [][2]string{
	{"eur", "er"}, {"eur", "or"}, {"ie", "y"}, {"if", "ive"}, {"ive", "if"},
	{"el", "al"}, {"elle", "al"}, {"eux", "ous"}, {"euse", "ous"},
	{"aire", "ary"}, {"oire", "ory"}, {"ique", "ic"}, {"ite", "ity"},
	{"er", "eur"}, {"or", "eur"}, {"y", "ie"}, {"al", "el"}, {"ous", "eux"},
	{"ary", "aire"}, {"ory", "oire"}, {"ic", "ique"}, {"ical", "ique"}, {"ity", "ité"},
}

// cognateMin is the shortest word a cognate rule reads: shorter ones are
// too often another word's stem.
const cognateMin = 5

// cognates returns the other language's guesses for w, a folded word.
func cognates(w string) []string {
	if len(w) < cognateMin {
		return nil
	}
	var out []string
	for _, r := range cognateRules {
		if stem, ok := strings.CutSuffix(w, r[0]); ok && len(stem) >= 3 {
			out = append(out, stem+r[1])
		}
	}
	return out
}

// Translations is the Expansion of a query's other-language terms (alts,
// from Alternatives of the same query): each stands in for the query
// terms of the phrase it translates, so that the coverage of a hit found
// in the other language counts them (Ranking.Coverage).
func Translations(alts []Alt) Expansion {
	if len(alts) == 0 {
		return nil
	}
	return func(_ *Index, i int, _ string) []Alt {
		var out []Alt
		for _, a := range alts {
			if a.from <= i && i < a.from+a.span {
				out = append(out, a)
			}
		}
		return out
	}
}

// Either is the Expansion giving e's alternatives then f's (either nil:
// the other alone).
func Either(e, f Expansion) Expansion {
	switch {
	case e == nil:
		return f
	case f == nil:
		return e
	}
	return func(x *Index, i int, t string) []Alt { return append(e(x, i, t), f(x, i, t)...) }
}
