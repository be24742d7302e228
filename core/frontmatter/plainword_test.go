package frontmatter

import (
	"math/rand/v2"
	"testing"
)

// TestPlainWord: every string plainWord or plainDate takes is one that
// plainOK's round trip through yaml.v3 takes too, at every place (the
// shortcut changes no answer): YAML's words for true, false and null
// and 1.1's booleans in every case, words of every character the
// shortcut allows, dates real and not; and it takes none of the words
// the round trip refuses.
func TestPlainWord(t *testing.T) {
	words := []string{
		"draft", "bench-0", "bench-target", "p001", "kessho-docs", "x", "Z", "a_b", "a-", "a--b", "e5", "E10", "Infinity", "NaN", "nan", "inf",
		"y", "Y", "n", "N", "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
		"true", "True", "TRUE", "tRUE", "false", "False", "FALSE", "null", "Null", "NULL", "nULL", "tilde",
		"2026-11-26", "2026-02-30", "9999-12-31", "0000-00-00", "2026-13-45",
	}
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		b := make([]byte, 1+r.IntN(12))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		words = append(words, string(b))
	}
	for range 300 {
		d := []byte("0000-00-00")
		for _, i := range []int{0, 1, 2, 3, 5, 6, 8, 9} {
			d[i] = byte('0' + r.IntN(10))
		}
		words = append(words, string(d))
	}
	taken := 0
	for _, s := range words {
		if !plainWord(s) && !plainDate(s) {
			continue
		}
		taken++
		for _, at := range []place{asValue, asKey, asFlowItem, asBlockItem} {
			if !plainTrip(s, at) {
				t.Errorf("%q at place %d: taken by the shortcut, refused by the round trip", s, at)
			}
		}
	}
	if taken < 1000 {
		t.Errorf("the shortcut took only %d of %d strings", taken, len(words))
	}
}

// plainTrip is plainOK without its shortcut.
func plainTrip(s string, at place) bool {
	defer func(w, d func(string) bool) { plainWordFn, plainDateFn = w, d }(plainWordFn, plainDateFn)
	plainWordFn, plainDateFn = func(string) bool { return false }, func(string) bool { return false }
	return plainOK(s, at)
}
