package fold

import (
	"strings"
	"testing"
)

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"Décision été": "decision ete", "Œuvre Straße": "oeuvre strasse", "ÇA Ñ": "ca n", "日本": "日本",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q; want %q", in, got, want)
		}
	}
	if got := Alnum("Use the *vault* layout — as-is!"); got != "usethevaultlayoutasis" {
		t.Errorf("Alnum = %q", got)
	}
}

func TestSlug(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Décision été", "decision-ete"},
		{"  --Fix: the menu-bar (systray) bug!! ", "fix-the-menu-bar-systray-bug"},
		{"日本語", "session"},
		{"", "session"},
		{strings.Repeat("abc ", 30), "abc-abc-abc-abc-abc-abc-abc-abc-abc-abc-abc-abc-abc-abc-abc"},
	}
	for _, tt := range tests {
		if got := Slug(tt.in, 60, "session"); got != tt.want {
			t.Errorf("Slug(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}
