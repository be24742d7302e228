package tools

import (
	"fmt"
	"reflect"
	"testing"
	"unicode/utf16"

	"github.com/kessho/kessho/core/search"
)

func TestMarksUTF16(t *testing.T) {
	var stems search.Stems
	line := "🙂 Les Caches d'été: the cache, CACHE-headers; cachet"
	m := matcherOf("cache été headers", "cachet", "autre")
	holds, got := marks(m, line)
	u := utf16.Encode([]rune(line))
	var words []string
	for _, m := range got {
		words = append(words, string(utf16.Decode(u[m[0]:m[1]])))
	}
	if want := []string{"Caches", "été", "cache", "CACHE", "headers"}; !reflect.DeepEqual(words, want) {
		t.Errorf("marked %q (%v), want %q", words, got, want)
	}
	if got[0][0] != 7 { // the emoji is two code units, its space one, "Les " four
		t.Errorf("first mark at %d, want 7 (UTF-16)", got[0][0])
	}
	if !reflect.DeepEqual(holds, stems.Terms("caches été headers")) {
		t.Errorf("terms %v", holds)
	}
	if h, got := marks(m, ""); len(h) != 0 || len(got) != 0 || got == nil {
		t.Errorf("an empty line: %v %v", h, got)
	}
}

// matcherOf is the Matcher of query's terms in an index of notes holding
// them and others.
func matcherOf(query string, others ...string) *search.Matcher {
	idx := search.New()
	for i, text := range append([]string{query}, others...) {
		idx.Put(search.ParseNote(fmt.Sprintf("20-knowledge/n%d.md", i), "1", &text))
	}
	return idx.Rank((*search.Stems)(nil).Terms(query), func(*search.Meta) bool { return true }).Matcher(idx)
}
