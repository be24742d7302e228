package recallbench

import (
	"reflect"
	"testing"
)

func TestTokenize(t *testing.T) {
	got := Tokenize("Été: l'ÉCHÉANCE d’un Vase, 2 kg — e\u0301te\u0301 déjà-vu")
	want := []string{"ete", "l", "echeance", "d", "un", "vase", "2", "kg", "ete", "deja", "vu"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Tokenize = %q, want %q (lowercase, accents folded from NFC and NFD, no stemming)", got, want)
	}
	if got := Tokenize("pommes pomme"); got[0] == got[1] {
		t.Error("Tokenize stems: the baselines must not")
	}
}

func tinyCorpus() *Corpus {
	return NewCorpus([]Doc{
		{Path: "a.md", Text: "---\nsubject: Deadlock in invoices\naliases:\n  - penny bug\n---\nPostgres deadlock detected.\n"},
		{Path: "b.md", Text: "---\nsubject: Lunch\n---\nWe talked about the penny bug over lunch, and lunch again, lunch lunch.\n"},
		{Path: "c.md", Text: "Nothing here about it.\n"},
		{Path: "d.md", Text: "deadlock deadlock deadlock in the pool of the airflow scheduler pool pool pool pool pool pool pool pool\n"},
	})
}

func TestGrepOrdersByDistinctWordsThenWalk(t *testing.T) {
	c := tinyCorpus()
	got := paths((Grep{c}).Rank("penny deadlock"))
	// a.md holds both words; b.md and d.md one each, in walk order; c.md none.
	want := []string{"a.md", "b.md", "d.md"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Grep = %v, want %v", got, want)
	}
	if got := (Grep{c}).Rank("zebra"); len(got) != 0 {
		t.Errorf("no word matches: %v", got)
	}
}

func TestBM25AndBM25F(t *testing.T) {
	c := tinyCorpus()
	// "deadlock": d.md says it three times in a long text, a.md in its
	// subject and once in a short body. Whole-file BM25 reads the subject
	// as text like any other; BM25F weighs the subject.
	if got := paths((BM25{c}).Rank("deadlock")); len(got) != 2 {
		t.Errorf("BM25 = %v, want a.md and d.md", got)
	}
	if got := paths((BM25F{c}).Rank("deadlock")); got[0] != "a.md" {
		t.Errorf("BM25F = %v, want a.md first (subject weighed)", got)
	}
	// Aliases: whole-file BM25 reads them as text; BM25F without
	// aliases never sees them, so "penny" finds b.md only.
	if got := paths((BM25{c}).Rank("penny")); len(got) != 2 {
		t.Errorf("BM25 penny = %v, want a.md and b.md", got)
	}
	if got := paths((BM25F{c}).Rank("penny")); !reflect.DeepEqual(got, []string{"b.md"}) {
		t.Errorf("BM25F penny = %v, want only b.md (aliases left out)", got)
	}
}

func paths(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Path)
	}
	return out
}
