package search

import (
	"strings"

	"github.com/kessho/kessho/core/fold"
	"github.com/kessho/kessho/core/search/lexicon"
)

// An Alt is a term added to a query for one or more of its words, at a
// weight below the typed terms' 1: its IDF is multiplied by Weight.
type Alt struct {
	Term   string
	Weight float64
}

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
	add := func(t string, w float64) {
		if typed[t] {
			return
		}
		if i, ok := at[t]; ok {
			out[i].Weight = max(out[i].Weight, w)
			return
		}
		at[t] = len(out)
		out = append(out, Alt{t, w})
	}
	for i := 0; i < len(terms); {
		n, phrases := lexiconAt(terms[i:])
		for _, p := range phrases {
			for t := range strings.SplitSeq(p, " ") {
				add(t, lexiconWeight)
			}
		}
		i += n
	}
	for _, w := range words {
		for _, c := range cognates(fold.Fold(w)) {
			add(s.stem(c), cognateWeight)
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

// addAlts adds to r the alternatives the index knows and the query has
// not already (seen), each weighted; the unknown ones are kept so that
// Update ranks anew when the index learns them. They leave r.seq and
// r.known (the tiers) alone.
func (r *Ranking) addAlts(x *Index, alts []Alt, seen map[uint32]bool, keep func(*Meta) bool) {
	for _, a := range alts {
		tid, ok := x.lookup(a.Term)
		if !ok {
			r.unknown = append(r.unknown, a.Term)
			continue
		}
		if seen[tid] {
			continue
		}
		seen[tid] = true
		r.terms = append(r.terms, x.rankTerm(tid, a.Weight, keep))
	}
}
