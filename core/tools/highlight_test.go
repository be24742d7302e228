package tools

import (
	"reflect"
	"testing"
	"unicode/utf16"

	"github.com/kessho/kessho/core/search"
)

func TestMarksUTF16(t *testing.T) {
	var stems search.Stems
	line := "🙂 Les Caches d'été: the cache, CACHE-headers; cachet"
	terms := stems.Terms("cache été headers")
	holds, got := marks(&stems, line, terms)
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
	if h, m := marks(&stems, "", terms); len(h) != 0 || len(m) != 0 || m == nil {
		t.Errorf("an empty line: %v %v", h, m)
	}
}
