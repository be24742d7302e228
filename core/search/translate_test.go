package search

import (
	"math"
	"reflect"
	"slices"
	"testing"
)

// rankAlts ranks query with its alternatives, every hit.
func (x *Index) rankAlts(query string) []Hit {
	hits, _ := x.RankAlts(Terms(query), (*Stems)(nil).Alternatives(query), all).Top(x, math.MaxInt)
	return hits
}

func TestAcrossLanguages(t *testing.T) {
	x := build(map[string]string{
		"20-knowledge/Invoices.md": "Round the invoice total once, after the tax.",
		"20-knowledge/Factures.md": "Le mot de passe du serveur de facturation est dans le coffre.",
		"20-knowledge/Other.md":    "Nothing about money here.",
	})
	for q, want := range map[string][]string{
		"arrondir la facture":     {"20-knowledge/Factures.md", "20-knowledge/Invoices.md"}, // facturation holds the typed term
		"billing server password": {"20-knowledge/Factures.md"},
		"invoice":                 {"20-knowledge/Invoices.md", "20-knowledge/Factures.md"},
		"money":                   {"20-knowledge/Other.md"},
	} {
		if got := paths(x.rankAlts(q)); !reflect.DeepEqual(got, want) {
			t.Errorf("query %q: got %v, want %v", q, got, want)
		}
	}
	// Without the alternatives, the French query misses the English note.
	if got := paths(x.search(Terms("arrondir la facture"), all)); slices.Contains(got, "20-knowledge/Invoices.md") {
		t.Errorf("Terms alone found %v", got)
	}
}

// A translated term weighs less than a typed one: the note in the query's
// language comes first when both hold the word once.
func TestTypedTermOutweighsItsTranslation(t *testing.T) {
	x := build(map[string]string{
		"20-knowledge/A.md": "La facture arrive.",
		"20-knowledge/B.md": "The invoice arrives.",
	})
	hits := x.rankAlts("facture")
	if len(hits) != 2 || hits[0].Path != "20-knowledge/A.md" || !(hits[0].Score > hits[1].Score) {
		t.Errorf("got %+v", hits)
	}
}

func TestAlternatives(t *testing.T) {
	var s Stems
	got := map[string]float64{}
	for _, a := range s.Alternatives("serveur mot de passe facture") {
		got[a.Term] = a.Weight
	}
	for term, w := range map[string]float64{
		s.stem("password"): lexiconWeight, // the phrase, not its words
		s.stem("invoice"):  lexiconWeight,
		s.stem("server"):   lexiconWeight, // lexicon and cognate: the higher weight
	} {
		if got[term] != w {
			t.Errorf("%q: weight %v, want %v (all: %v)", term, got[term], w, got)
		}
	}
	if _, ok := got[s.stem("word")]; ok {
		t.Errorf("mot de passe also gave mot's translation: %v", got)
	}
	for _, typed := range s.Terms("serveur mot de passe facture") {
		if _, ok := got[typed]; ok {
			t.Errorf("typed term %q among the alternatives", typed)
		}
	}
	if a := s.Alternatives("le la"); a != nil {
		t.Errorf("stopwords gave %v", a)
	}
}

func TestCognates(t *testing.T) {
	var s Stems
	for fr, en := range map[string]string{"moniteur": "monitor", "stratégie": "strategy", "curieux": "curious", "manuelle": "manual"} {
		if s.stem(fr) == s.stem(en) {
			continue // they meet without a cognate (strategy, yStem)
		}
		if !slices.ContainsFunc(s.Alternatives(fr), func(a Alt) bool { return a.Term == s.stem(en) }) {
			t.Errorf("%s: no %s among %v", fr, en, s.Alternatives(fr))
		}
		if !slices.ContainsFunc(s.Alternatives(en), func(a Alt) bool { return a.Term == s.stem(fr) }) {
			t.Errorf("%s: no %s among %v", en, fr, s.Alternatives(en))
		}
	}
	if c := cognates("port"); c != nil {
		t.Errorf("a short word gave %v", c)
	}
}
