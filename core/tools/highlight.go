package tools

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/kessho/kessho/core/search"
)

// marks is which of m's terms (those the ranking read) a hit's line
// holds, each once in order, and where:
// each word of line whose term is one of them, as [start, end) offsets in
// UTF-16 code units, the unit of a JavaScript string (the plugin slices
// the line with them; a Go host converts). A word is a run of letters,
// digits and combining marks, as the analyzer cuts them; its term is the
// analyzer's (folded, stemmed), so `Caches` marks for the term `cach`.
func marks(m *search.Matcher, line string) ([]string, [][2]int) {
	holds, out := []string{}, [][2]int{}
	at, start, startByte := 0, -1, 0 // UTF-16 offsets; the word's first byte
	end := func(i int) {
		if start >= 0 {
			found := -1 // the first of the word's terms that is one of m's
			m.Each(line[startByte:i], func(t int) {
				if found < 0 {
					found = t
				}
			})
			if found >= 0 {
				if t := m.Terms()[found]; !slices.Contains(holds, t) {
					holds = append(holds, t)
				}
				out = append(out, [2]int{start, at})
			}
		}
		start = -1
	}
	for i, r := range line {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			if start < 0 {
				start, startByte = at, i
			}
		} else {
			end(i)
		}
		at += utf16Len(r)
	}
	end(len(line))
	return holds, out
}

func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}
