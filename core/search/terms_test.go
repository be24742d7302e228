package search

import "testing"

// Terms and stem are Stems' without a cache, as the tests call them.
func Terms(text string) []string { return (*Stems)(nil).Terms(text) }

func stem(w string) string { return (*Stems)(nil).stem(w) }

// TestStemsCache checks that a Stems gives the stems the nil one does,
// kept by word, and starts again empty when full.
func TestStemsCache(t *testing.T) {
	var s Stems
	for _, w := range []string{"décisions", "sauvegardée", "running", "été", "ab", "2026"} {
		if got, want := s.stem(w), stem(w); got != want {
			t.Errorf("stem(%q) = %q through a Stems, %q without", w, got, want)
		}
	}
	if _, ok := s.cached("décisions"); !ok {
		t.Error("a Stems did not keep the stem of décisions")
	}
	for i := len(s.m); i < stemCacheMax; i++ {
		s.m[string(rune(0x10000+i))] = ""
	}
	s.stem("archives")
	if len(s.m) != 1 {
		t.Errorf("a full Stems holds %d stems after one more; want 1 (started again)", len(s.m))
	}
}
