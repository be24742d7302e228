package search

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestEnglishYWords checks that an English -y word's forms share one
// term (the French stemmer takes the plural's -ies off: retries and
// retry met no note of each other), that it meets the French -ie word,
// and that a vowel before the y, or a three-letter stem, keeps it.
func TestEnglishYWords(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"retry retries retried retrying", "retr"},
		{"strategy strategies stratégie stratégies", "strateg"},
		{"query queries", "quer"},
		{"deploy deploys deployed", "deploi"},
	} {
		terms := Terms(c.text)
		want := make([]string, len(terms))
		for i := range want {
			want[i] = c.want
		}
		if !reflect.DeepEqual(terms, want) {
			t.Errorf("%q: %v, want %s each", c.text, terms, c.want)
		}
	}
	if got := Terms("try"); !reflect.DeepEqual(got, []string{"try"}) {
		t.Errorf("try: %v", got)
	}
}

// TestLatinWords checks that scanWords' Latin-1 words (latinWord) are
// unicodeWords': on random stretches of ASCII letters and digits, every
// character of Latin-1's upper half (letters, × and ÷ among them), and
// others (combining accents, Ÿ, ǅ, a Hangul jamo, an emoji), up to past
// maxToken.
func TestLatinWords(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 2))
	var pool []rune
	for c := rune(0xa0); c <= 0xff; c++ {
		pool = append(pool, c)
	}
	latin := pool[0x20:] // À…ÿ, × and ÷ among them
	pool = append(pool, []rune("aZ09qÉ\u0301\u0300ŸǅᄀŒœ🙂İı")...)
	fast := 0
	for n := range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(30) {
			switch {
			case r.IntN(2) == 0:
				b.WriteByte("azAZ09mQ"[r.IntN(8)])
			case n%2 == 0:
				b.WriteRune(latin[r.IntN(len(latin))])
			default:
				b.WriteRune(pool[r.IntN(len(pool))])
			}
		}
		s := b.String()
		var want []string
		unicodeWords(s, func(w string) { want = append(want, w) })
		w, ok := latinWord(s, nil)
		if ok && (len(want) != 1 || string(w) != want[0]) {
			t.Fatalf("%q: latinWord %q, unicodeWords %q", s, w, want)
		}
		if ok {
			fast++
		}
	}
	if fast < 2000 {
		t.Errorf("latinWord read %d stretches of 20,000", fast)
	}
}

// TestScanWordsAsUnicode: scanWords, its byte classes and its copies of
// words without a capital, finds in any text the words unicodeWords finds
// in it whole: lowercased, composed, cut at maxToken bytes.
func TestScanWordsAsUnicode(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 7))
	pieces := []string{"a", "Z", "q", "M", "0", "9", " ", "-", "'", ".", "\n", "é", "É", "e\u0301", "—", "🙂", "ß", "İ", "œ", "_", "\t", strings.Repeat("x", 50), strings.Repeat("Ab", 30)}
	for range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(20) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		var want, got []string
		unicodeWords(s, func(w string) { want = append(want, w) })
		scanWords(s, nil, func(w []byte) { got = append(got, string(w)) })
		if !slices.Equal(got, want) {
			t.Fatalf("%q: scanWords %q, unicodeWords %q", s, got, want)
		}
	}
}
