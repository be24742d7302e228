package frontmatter

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// entryShapes are top-level entries in every style; %k is the key, %i an
// indent unit. TestRandomFiles builds notes from them.
var entryShapes = []string{
	"%k: plain value",
	"%k: 'single'",
	"%k: \"double \\\" é\"",
	"%k: 42",
	"%k: 1.5",
	"%k: true",
	"%k: ~",
	"%k:",
	"%k:   # empty with comment",
	"%k: value # trailing comment",
	"%k: [a, 'b', \"c\"]",
	"%k: []",
	"%k: [x,\n%iy]",
	"%k: {a: 1, b: [2]}",
	"%k:\n%i- a\n%i- b",
	"%k:\n- a\n- b",
	"%k: # list comment\n%i- a\n%i# between\n%i- 'b'",
	"%k:\n%ia: 1\n%ib:\n%i%i- c",
	"%k: |\n%iline one\n\n%iline two",
	"%k: >-\n%ifolded\n%itext",
	"%k: |+\n%ikept\n",
	"%k: multi\n%iline plain",
	"%k: \"multi\n%iline quoted\"",
	"%k:\n%inext-line value",
	"%k: 2026-11-30",
	"%k: !!str 123",
	"%k: 😀 café",
	"%k: a#b:c",
	"%k: http://example.org/x#y",
}

var keyShapes = []string{"title", "tags", "é", "😀", "\"quoted key\"", "'sq'", "a b", "k1", "k2", "k3", "k4", "k5"}

var gaps = []string{"", "", "", "\n", "# comment\n", "  # indented comment\n", "\n# c\n\n"}

func randomNote(r *rand.Rand) string {
	nl := "\n"
	if r.IntN(4) == 0 {
		nl = "\r\n"
	}
	ind := strings.Repeat(" ", 1+r.IntN(4))
	var b strings.Builder
	if r.IntN(5) == 0 {
		b.WriteString(bom)
	}
	b.WriteString("---\n")
	used := map[string]bool{}
	for n := r.IntN(7); n > 0; n-- {
		k := keyShapes[r.IntN(len(keyShapes))]
		if used[k] {
			continue
		}
		used[k] = true
		b.WriteString(gaps[r.IntN(len(gaps))])
		e := entryShapes[r.IntN(len(entryShapes))]
		e = strings.ReplaceAll(strings.ReplaceAll(e, "%k", k), "%i", ind)
		b.WriteString(e + "\n")
	}
	b.WriteString(gaps[r.IntN(len(gaps))])
	body := []string{"", "# Body\n\ntext\n", "---\nnot: frontmatter\n"}[r.IntN(3)]
	closing := []string{"---\n", "---", "...\n", "---  \n"}[r.IntN(4)]
	if body != "" && !strings.HasSuffix(closing, "\n") {
		closing += "\n"
	}
	b.WriteString(closing + body)
	return strings.ReplaceAll(b.String(), "\n", nl)
}

// TestRandomFiles runs the fuzz properties on notes built from entryShapes:
// every key of each, a new key, with a few values and every kind of edit.
func TestRandomFiles(t *testing.T) {
	n := 800
	if testing.Short() {
		n = 150
	}
	r := rand.New(rand.NewPCG(1, 2))
	values := []string{"new", "yes", "a: b", "multi\nline", "x,y", "", "日本"}
	failed := 0
	for i := 0; i < n && failed < 5; i++ {
		text := randomNote(r)
		d, err := Parse(text)
		if err != nil {
			t.Errorf("generated note does not parse: %v\n%q", err, text)
			failed++
			continue
		}
		for _, key := range append(d.Keys(), "new key") {
			checkRemove(t, text, key)
			for kind := byte(0); kind < 8; kind++ {
				v := values[r.IntN(len(values))]
				checkEdit(t, text, key, v, kind)
				if _, err := Set(text, key, v); err != nil {
					t.Errorf("Set(%q, %q, %q): %v", text, key, v, err)
					failed++
				}
			}
		}
	}
}
