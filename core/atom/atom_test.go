package atom

import (
	"strings"
	"testing"
)

func TestAtomFileName(t *testing.T) {
	long := strings.Repeat("é", 59) + "xy. tail" // 118 bytes of é and x, then "y" at 120
	for _, tc := range []struct{ fact, want string }{
		{"Plain fact", "Plain fact"},
		{"Ship v1: before January?", "Ship v1 before January"},
		{"  spaced  ", "spaced"},
		// Leading dots and spaces: a hidden file on Unix, in Obsidian.
		{".hidden fact", "hidden fact"},
		{" . .. dotted", "dotted"},
		{"...", ""},
		{" . ", ""},
		// Trailing dots and spaces: Windows drops them, so the link breaks.
		{"Ends with a dot.", "Ends with a dot"},
		{"Ends with dots and spaces . . ", "Ends with dots and spaces"},
		{"v1.2 is out", "v1.2 is out"},
		// Windows device names, alone or before an extension, any case.
		{"CON", "CON_"},
		{"con", "con_"},
		{"Nul", "Nul_"},
		{"PRN", "PRN_"},
		{"aux", "aux_"},
		{"COM1", "COM1_"},
		{"lpt9", "lpt9_"},
		{"COM¹", "COM¹_"},
		{"CON.tar", "CON_.tar"},
		{"nul.tar.gz", "nul_.tar.gz"},
		{"NUL .txt", "NUL_ .txt"},
		{"LPT1 ", "LPT1_"},
		{".CON", "CON_"},
		{"COM0", "COM0"},
		{"COM10", "COM10"},
		{"CONsole", "CONsole"},
		{"CON job", "CON job"},
		{"AUX: the helper", "AUX the helper"},
		// Line breaks and tabs become one space; other controls go.
		{"two\nlines", "two lines"},
		{"crlf\r\n\r\nend", "crlf end"},
		{"tab\there", "tab here"},
		{"ls\u2028ps\u2029x", "ls ps x"},
		{"bell\x07", "bell"},
		// At most 120 bytes, cut on a character, then trimmed again.
		{long, strings.Repeat("é", 59) + "xy"},
		{strings.Repeat("a", 119) + ". more", strings.Repeat("a", 119)},
	} {
		if got := FileName(tc.fact); got != tc.want {
			t.Errorf("FileName(%q) = %q; want %q", tc.fact, got, tc.want)
		}
		if got := FileName(tc.fact); len(got) > 120 {
			t.Errorf("FileName(%q) is %d bytes", tc.fact, len(got))
		}
	}
}
