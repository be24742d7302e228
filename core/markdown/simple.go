package markdown

import (
	"bytes"
	"strings"
)

// simpleHeadings returns the headings of src without goldmark, when every
// line of src is one whose part in the document's structure is certain,
// and ok false otherwise (Headings then asks goldmark). goldmark's parse
// costs 30 to 40 times more on the wasm engine than natively (about
// 0.4 ms for a short archive), and a worklog reads the headings of every
// session of its week, most of them written by mem_archive in this shape.
// The lines it accepts:
//
//   - empty;
//   - an ATX heading at the start of the line: one to six "#", a space,
//     then text with no "#" (so no closing sequence to strip);
//   - a line that can only be paragraph text: starting with an ASCII
//     letter, a character beyond ASCII (but a BOM), digits not followed by
//     "." or ")" (an ordered list's marker), or "**" and a letter;
//   - a bullet list item ("- ", "* " or "+ ") whose text starts with a
//     letter or a character beyond ASCII.
//
// No line may hold a tab, a "\r" or a NUL. In such a document every
// heading line is a heading of the top level (one may interrupt a
// paragraph or end a list; nothing can hold it: no fence, no HTML block,
// no block quote, no indented line), and no other line is one (no setext
// underline). TestSimpleHeadingsAreGoldmarks checks it against goldmark.
func simpleHeadings(src []byte) ([]Heading, bool) {
	if bytes.ContainsAny(src, "\t\r\x00") || bytes.HasPrefix(src, []byte("\ufeff")) {
		return nil, false
	}
	var hs []Heading
	for start := 0; start < len(src); {
		end, next := len(src), len(src)
		if i := bytes.IndexByte(src[start:], '\n'); i >= 0 {
			end, next = start+i, start+i+1
		}
		line := src[start:end]
		switch {
		case len(line) == 0:
		case line[0] == '#':
			level := 0
			for level < len(line) && line[level] == '#' {
				level++
			}
			if level > 6 || level == len(line) || line[level] != ' ' || bytes.IndexByte(line[level:], '#') >= 0 {
				return nil, false
			}
			text := strings.Trim(string(line[level:]), " ")
			if text == "" {
				return nil, false
			}
			hs = append(hs, Heading{Level: level, Text: text, Start: start, BodyStart: next, End: len(src)})
		case !paragraphLine(line):
			return nil, false
		}
		start = next
	}
	for i := range hs {
		for j := i + 1; j < len(hs); j++ {
			if hs[j].Level <= hs[i].Level {
				hs[i].End = hs[j].Start
				break
			}
		}
	}
	return hs, true
}

// paragraphLine reports whether line, not empty, can only be the text of
// a paragraph, or a bullet item's first line of text (see simpleHeadings).
func paragraphLine(line []byte) bool {
	textByte := func(i int) bool {
		return i < len(line) && (line[i] >= 'a' && line[i] <= 'z' || line[i] >= 'A' && line[i] <= 'Z' || line[i] >= 0x80)
	}
	c := line[0]
	switch {
	case textByte(0):
		return true
	case c >= '0' && c <= '9':
		i := 0
		for i < len(line) && line[i] >= '0' && line[i] <= '9' {
			i++
		}
		return i == len(line) || line[i] != '.' && line[i] != ')'
	case c == '*' && len(line) > 1 && line[1] == '*':
		return textByte(2)
	case c == '-' || c == '*' || c == '+':
		return len(line) > 1 && line[1] == ' ' && textByte(2)
	}
	return false
}
