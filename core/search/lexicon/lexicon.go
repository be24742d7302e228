// Package lexicon holds Kessho's French–English lexicon of work
// vocabulary in the analyzer's terms: fr-en.txt is its source (the
// project's own list), lexicon_gen.go its compact form, generated from the
// source by `go generate` (gen runs every entry through the analyzer,
// search.Stems, so a key is what Terms gives for a word or a phrase).
// The search package looks a query's terms up here and adds the other
// language's terms to the query, at a lower weight (search.Alternatives).
package lexicon

import "strings"

//go:generate go run ./gen

// table is data parsed once, when the package is loaded, and never
// changed after.
var table = load()

type lexiconTable struct {
	entries  map[string][]string
	maxWords int
}

// load parses data: one entry a line, "key\talt|alt…", each a phrase of
// terms separated by single spaces.
func load() lexiconTable {
	t := lexiconTable{entries: map[string][]string{}}
	for line := range strings.SplitSeq(data, "\n") {
		key, alts, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		t.entries[key] = strings.Split(alts, "|")
		t.maxWords = max(t.maxWords, strings.Count(key, " ")+1)
	}
	return t
}

// Lookup returns the other language's phrases (terms separated by spaces)
// for key, a phrase of terms separated by single spaces; nil when the
// lexicon has none. The slice is shared: do not change it.
func Lookup(key string) []string { return table.entries[key] }

// MaxWords is the number of terms of the longest key.
func MaxWords() int { return table.maxWords }
