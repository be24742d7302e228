package relocate

import (
	"errors"
	"strings"

	"github.com/kessho/kessho/core/frontmatter"
	"github.com/kessho/kessho/core/history"
)

// Line is a line of a note that a rewrite changes, before and after.
type Line struct {
	Line   int    `json:"line"` // 1-based, in the whole file
	Before string `json:"before"`
	After  string `json:"after"`
}

// Note rewrites the paths under r in the body of a note's text, never in
// its frontmatter. It returns the new text, how many paths it rewrote and
// the lines that changed. A frontmatter that does not parse leaves the
// body's start unknown: Note then rewrites nothing and returns the 1-based
// line of the fault (bad > 0). text is parsed through docs, the caller's
// cache (nil: none).
func (r Root) Note(docs *frontmatter.Cache, text string) (out string, n int, lines []Line, bad int) {
	doc, err := docs.Parse(text)
	if err != nil {
		bad = 1
		var fe *frontmatter.Error
		if errors.As(err, &fe) {
			bad = fe.Line
		}
		return text, 0, nil, bad
	}
	off := doc.BodyOffset()
	body, n := r.rewrite(text[off:])
	if n == 0 {
		return text, 0, nil, 0
	}
	return text[:off] + body, n, changedLines(text[off:], body, strings.Count(text[:off], "\n")), 0
}

// changedLines pairs the lines of before and after (a rewrite never adds
// or removes a line break) and returns those that differ, numbered from
// first+1.
func changedLines(before, after string, first int) []Line {
	b, a := strings.Split(before, "\n"), strings.Split(after, "\n")
	out := []Line{}
	if len(a) != len(b) {
		return out
	}
	for i := range b {
		if b[i] != a[i] {
			out = append(out, Line{Line: first + i + 1, Before: strings.TrimSuffix(b[i], "\r"), After: strings.TrimSuffix(a[i], "\r")})
		}
	}
	return out
}

// AppendLogLine adds line at the end of a log note's text, in its line
// ending, after a blank line unless the text already ends with a list
// item.
func AppendLogLine(text, line string) string {
	nl := history.Newline(text)
	if text != "" && !strings.HasSuffix(text, "\n") && !strings.HasSuffix(text, "\r") {
		text += nl
	}
	trimmed := strings.TrimRight(text, "\r\n")
	lastLine := trimmed[strings.LastIndexAny(trimmed, "\r\n")+1:]
	if trimmed != "" && !strings.HasSuffix(text, nl+nl) && !strings.HasPrefix(strings.TrimLeft(lastLine, " "), "- ") {
		text += nl
	}
	return text + line + nl
}
