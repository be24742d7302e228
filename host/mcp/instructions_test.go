package mcp_test

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kessho/kessho/core/i18n/i18ntest"
	"github.com/kessho/kessho/core/tools"
	"github.com/kessho/kessho/host/mcp"
)

// TestInstructions checks the server's instructions as a client receives
// them at initialize: given in the server's language (English, French
// with fr), each under 1,500 characters, naming only tools the server
// offers, and saying how to use the memory: recall at the start, search
// before asking, archive at the end, and mem_init_project for a vault
// with no project yet.
func TestInstructions(t *testing.T) {
	dir := newVault(t)
	got := map[string]string{}
	for _, lang := range []string{"en", "fr"} {
		text := nativeSession(t, dir, lang).InitializeResult().Instructions
		got[lang] = text
		if n := utf8.RuneCountInString(text); n == 0 || n >= 1500 {
			t.Errorf("%s: instructions of %d characters, want 1 to 1,499", lang, n)
		}
		for _, name := range regexp.MustCompile(`mem_[a-z_]+`).FindAllString(text, -1) {
			if _, ok := tools.Spec(name); !ok {
				t.Errorf("%s: the instructions name %s, which is no tool", lang, name)
			}
		}
		for _, name := range []string{"mem_recall", "mem_search", "mem_archive", "mem_list", "mem_init_project"} {
			if !strings.Contains(text, name) {
				t.Errorf("%s: the instructions do not name %s", lang, name)
			}
		}
	}
	for _, e := range i18ntest.Errors(mcp.ServerText) { // the server's text file: both languages, nothing unknown
		t.Errorf("%v", e)
	}
	if !strings.Contains(got["en"], "memory") || !strings.Contains(got["fr"], "mémoire") || got["en"] == got["fr"] {
		t.Errorf("instructions not in the server's language:\nen: %s\nfr: %s", got["en"], got["fr"])
	}
}
