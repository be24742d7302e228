package search

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// benchNotes is n synthetic notes of about 1.1 KB.
func benchNotes(n int) []Note {
	r := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 6000)
	for i := range vocab {
		var w strings.Builder
		for range 4 + r.IntN(6) {
			w.WriteString(string("abcdefghijklmnopqrstuvwxyzéè"[r.IntN(26)]))
		}
		vocab[i] = w.String()
	}
	word := func() string { return vocab[int(float64(len(vocab))*r.Float64()*r.Float64())] }
	notes := make([]Note, n)
	for i := range notes {
		var body strings.Builder
		fmt.Fprintf(&body, "---\nsubject: %s %s\naliases: [%s %s, été]\ndate: 2026-01-02\n---\n", word(), word(), word(), word())
		for body.Len() < 1100 {
			body.WriteString(word() + " ")
		}
		text := body.String()
		notes[i] = ParseNote(fmt.Sprintf("20-knowledge/%s %d.md", word(), i), fmt.Sprint(i), &text)
	}
	return notes
}

// BenchmarkBuild indexes 10,000 notes of about 1.1 KB, stemming through
// one Stems, as an engine instance does (tools.State): after the first
// build, every word's stem is kept.
func BenchmarkBuild(b *testing.B) {
	notes := benchNotes(10000)
	var stems Stems
	for b.Loop() {
		x := New()
		x.UseStems(&stems)
		for _, n := range notes {
			x.Put(n)
		}
	}
}

// BenchmarkQuery ranks 10,000 notes for a two-word query.
func BenchmarkQuery(b *testing.B) {
	x := New()
	for _, n := range benchNotes(10000) {
		x.Put(n)
	}
	q := Terms(x.terms[10] + " " + x.terms[200])
	for b.Loop() {
		x.search(q, func(*Meta) bool { return true })
	}
}

// BenchmarkDecode decodes the index of 10,000 notes.
func BenchmarkDecode(b *testing.B) {
	x := New()
	for _, n := range benchNotes(10000) {
		x.Put(n)
	}
	data := x.EncodeRoom(0)
	b.ReportMetric(float64(len(data)), "bytes")
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQueryFuzzy ranks 10,000 notes for a two-word query whose
// second word is unknown (a typo): its alternatives are looked up over
// every term, and the last term also as a prefix.
func BenchmarkQueryFuzzy(b *testing.B) {
	x := New()
	for _, n := range benchNotes(10000) {
		x.Put(n)
	}
	q := Terms(x.terms[10] + " " + x.terms[200] + "q")
	for b.Loop() {
		x.RankExpanded(q, Fuzzy(len(q), true), func(*Meta) bool { return true }).Top(x, 10)
	}
}
