package wire

import (
	"slices"
	"testing"
)

func TestShown(t *testing.T) {
	names := []string{"b.md", "a.md", ".obsidian/", "sub/", "c:d.md", "é.md", "😀.md", "\uffff.md", "x.txt"}
	if got := Shown(names, nil); !slices.Equal(got, []string{"a.md", "b.md", "sub/", "x.txt", "é.md", "\uffff.md", "😀.md"}) {
		t.Errorf("Shown = %q", got)
	}
	if got := Shown(names, []string{"*.md"}); !slices.Equal(got, []string{"a.md", "b.md", "é.md", "\uffff.md", "😀.md"}) {
		t.Errorf("Shown with patterns = %q", got)
	}
	if got := Shown(names, []string{"[a-b].md", "su?", "!*.*"}); !slices.Equal(got, []string{"a.md", "b.md", "sub/"}) {
		t.Errorf("Shown with a class = %q", got)
	}
	if got := Shown(names, []string{"[", "x.*"}); !slices.Equal(got, []string{"x.txt"}) {
		t.Errorf("Shown with a malformed pattern = %q (it selects nothing)", got)
	}
}
