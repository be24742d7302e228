package search

import (
	"fmt"
	"testing"
)

// translatedQuery is a French query of work words whose English
// alternatives the lexicon holds.
const translatedQuery = "où est le mot de passe du serveur de sauvegarde des factures"

// BenchmarkAlternatives is the query-side cost of the lexicon and the
// cognate rules for one query, its words' stems cached (a warm engine).
func BenchmarkAlternatives(b *testing.B) {
	var s Stems
	s.Alternatives(translatedQuery)
	for b.Loop() {
		s.Alternatives(translatedQuery)
	}
}

// BenchmarkQueryTranslated ranks 10,000 synthetic notes and 1,000 English
// ones for the French query with its alternatives: compare with the same
// query without them (BenchmarkQueryUntranslated).
func BenchmarkQueryTranslated(b *testing.B) { benchTranslated(b, true, translatedQuery) }

func BenchmarkQueryUntranslated(b *testing.B) { benchTranslated(b, false, translatedQuery) }

// BenchmarkQueryEnglish ranks them for the English words typed, which
// find the same 1,000 notes.
func BenchmarkQueryEnglish(b *testing.B) {
	benchTranslated(b, false, "where is the backup server password of the invoices")
}

func benchTranslated(b *testing.B, alts bool, query string) {
	var s Stems
	x := New()
	x.UseStems(&s)
	for _, n := range benchNotes(10000) {
		x.Put(n)
	}
	for i := range 1000 {
		text := fmt.Sprintf("The backup server %d keeps the invoices; its password is in the vault.", i)
		x.Put(ParseNote(fmt.Sprintf("20-knowledge/en %d.md", i), fmt.Sprint("en", i), &text))
	}
	terms := s.Terms(query)
	var a []Alt
	if alts {
		a = s.Alternatives(query)
	}
	for b.Loop() {
		x.RankAlts(terms, a, all).Top(x, 10)
	}
}
