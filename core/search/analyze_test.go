package search

import (
	"reflect"
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
