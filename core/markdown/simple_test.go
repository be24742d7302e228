package markdown

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// simpleLines are lines simpleHeadings accepts (the first
// simpleAccepted) and lines it must refuse, for documents made at random.
const simpleAccepted = 16

var simpleLines = []string{
	"", "", "# Title", "## Next steps", "###### Six", "## Trailing spaces  ", "#  Two spaces",
	"Worked on the parser.", "Été, café", "\u00a0nbsp first", "2026 was a year", "42", "**Bold** lead", "- an item", "* star item", "+ plus item",
	"####### seven", "#no space", "##", "## closing ##", "## a # b", "1. one", "2) two", "- ## in an item", "-", "- ", "* ", "- 1. nested",
	"  indented", "    code", "```", "~~~", "```go", "---", "===", "***", "___", "- - -", "> quote", "<div>", "</div>", "<!-- c -->",
	"[ref]: /url", "[ref]: /url 'title", "# in title'", "\tTab", "carriage\r", "\ufeff# BOM", "*emph* start", "_under_", "`code` start", "| a | b |", "|---|---|",
}

// TestSimpleHeadingsAreGoldmarks: on thousands of random documents made of
// the lines above, whenever simpleHeadings answers, it answers what
// goldmark's tree gives; and it does answer on the shape mem_archive
// writes.
func TestSimpleHeadingsAreGoldmarks(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	answered := 0
	for range 20000 {
		n := 1 + rng.Intn(8)
		lines := make([]string, n)
		for i := range lines {
			if rng.Intn(8) == 0 {
				lines[i] = simpleLines[rng.Intn(len(simpleLines))]
			} else {
				lines[i] = simpleLines[rng.Intn(simpleAccepted)]
			}
		}
		src := []byte(strings.Join(lines, "\n"))
		if rng.Intn(2) == 0 {
			src = append(src, '\n')
		}
		got, ok := simpleHeadings(src)
		if !ok {
			continue
		}
		answered++
		if want := headingsIn(parse(src), src); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("simpleHeadings(%q) = %+v; goldmark gives %+v", src, got, want)
		}
	}
	if answered < 2000 {
		t.Errorf("simpleHeadings answered %d random documents of 20000; want at least 2000", answered)
	}
	archive := "# Session 3 — the parser\n\nWorked on the parser, the proration and the cases.\n\n**Decisions**\n- keep the cache\n- drop the flag\n\n## Next steps\n- Session 4.\n"
	if _, ok := simpleHeadings([]byte(archive)); !ok {
		t.Errorf("simpleHeadings refuses the shape mem_archive writes: %q", archive)
	}
}
