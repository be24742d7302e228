package search

import (
	"testing"
	"unsafe"
)

// TestNoteKeepsNoPieceOfItsText: what the index keeps of a note (its title
// and date) is no piece of the note's text, which it would keep whole in
// memory (76 MB at 50,000 notes).
func TestNoteKeepsNoPieceOfItsText(t *testing.T) {
	text := "---\ndisplay: A title\ndate: 2026-01-02\n---\nBody.\n"
	n := ParseNote("20-knowledge/x.md", "k", &text)
	start := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	for name, s := range map[string]string{"title": n.Title, "date": n.Date} {
		if p := uintptr(unsafe.Pointer(unsafe.StringData(s))); s == "" || p >= start && p < start+uintptr(len(text)) {
			t.Errorf("the %s %q is a piece of the note's text", name, s)
		}
	}
}
