package eol

import "testing"

func TestLoneCR(t *testing.T) {
	for in, want := range map[string]string{
		"":              "",
		"a\r\nb\r\n":    "a\r\nb\r\n",
		"a\rb\r":        "a\nb\n",
		"a\r\nb\rc":     "a\r\nb\nc",
		"\r\r\n\r":      "\n\r\n\n",
		"no line break": "no line break",
	} {
		if got := LoneCR(in); got != want {
			t.Errorf("LoneCR(%q) = %q, want %q", in, got, want)
		}
		src := []byte(in)
		if got := string(LoneCRBytes(src)); got != want {
			t.Errorf("LoneCRBytes(%q) = %q, want %q", in, got, want)
		}
		if string(src) != in {
			t.Errorf("LoneCRBytes changed its input %q", in)
		}
	}
}
