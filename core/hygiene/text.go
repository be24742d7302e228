package hygiene

import (
	"sort"
	"strings"
)

// text is a document split into lines once, with the fence mask computed in
// the same pass. Every rule of the checker works line by line on it, so a
// check is linear in the size of the input.
type text struct {
	s    string
	ls   []lineInfo
	open bool // the last fence is still open at the end of the text
}

type lineInfo struct {
	start int // byte offset where the line starts
	end   int // byte offset where its content ends (its ending excluded)
	fence int // 0 when the line is not masked; else the 1-based fence it belongs to
	num   int // 1-based number of the line as people count them (\n, \r\n, \r)
}

// splitOnUnicodeSeparators makes U+2028 and U+2029 end a line for every
// rule except fence masking, as they do for the reference checker: its
// masking splits lines at "\r\n", "\n" and "\r" only, but all its other
// rules are JavaScript regular expressions with the m flag, whose ^ and $
// also match around U+2028 and U+2029 (and whose . does not match them).
// SPEC section 10 lists only "\n", "\r\n" and "\r"; set this to false to
// follow that sentence literally instead of the checker.
const splitOnUnicodeSeparators = true

// scan splits s into lines (ending at "\n", "\r\n" or "\r") and applies the
// checker's fence masking:
//
//   - outside a fence, a line whose start is optional spaces/tabs then 3+
//     backticks or 3+ tildes opens one (whatever follows on the line);
//   - inside, a line of optional spaces/tabs, 3+ of the opening character, at
//     least as many as the opening run, then only spaces/tabs closes it;
//   - every line from the opening one to the closing one is masked; an
//     unclosed fence runs to the end of the text.
//
// A masked line is blank in the checker's masked text, so no rule ever
// matches it: scan records a fence number per line instead of copying the
// text.
func scan(s string) *text {
	t := &text{s: s}
	t.ls = make([]lineInfo, 0, 1+strings.Count(s, "\n")+strings.Count(s, "\r"))
	var (
		inFence bool
		char    byte
		length  int
		id      int
		n       int // lines so far
	)
	for i := 0; i < len(s); {
		start := i
		for i < len(s) && s[i] != '\n' && s[i] != '\r' {
			i++
		}
		end := i
		if i < len(s) {
			if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				i += 2
			} else {
				i++
			}
		}
		line := s[start:end]
		f := 0
		if inFence {
			f = id
			if c, run, ok := fenceRun(line); ok && c == char && run >= length && onlyBlanks(line[blanks(line, 0)+run:]) {
				inFence = false
			}
		} else if c, run, ok := fenceRun(line); ok {
			inFence, char, length = true, c, run
			id++
			f = id
		}
		n++
		from := start
		if splitOnUnicodeSeparators {
			for k := start; k+2 < end; k++ {
				if s[k] == 0xE2 && s[k+1] == 0x80 && (s[k+2] == 0xA8 || s[k+2] == 0xA9) {
					t.add(from, k, f, n)
					from = k + 3
					k += 2
				}
			}
		}
		t.add(from, end, f, n)
	}
	if len(s) == 0 {
		// One empty line, so that line 1 exists.
		t.add(0, 0, 0, 1)
	}
	t.open = inFence
	return t
}

func (t *text) add(start, end, fence, num int) {
	t.ls = append(t.ls, lineInfo{start, end, fence, num})
}

// fenceRun reports the run of 3+ backticks or tildes that follows the
// line's leading spaces/tabs: its character and its length.
func fenceRun(line string) (byte, int, bool) {
	p := blanks(line, 0)
	if p >= len(line) || (line[p] != '`' && line[p] != '~') {
		return 0, 0, false
	}
	c := line[p]
	n := 0
	for p+n < len(line) && line[p+n] == c {
		n++
	}
	return c, n, n >= 3
}

// blanks returns the offset of the first byte at or after p that is not a
// space or a tab.
func blanks(s string, p int) int {
	for p < len(s) && (s[p] == ' ' || s[p] == '\t') {
		p++
	}
	return p
}

func onlyBlanks(s string) bool { return blanks(s, 0) == len(s) }

// lines is the number of lines.
func (t *text) lines() int { return len(t.ls) }

// start returns the offset where line i starts.
func (t *text) start(i int) int { return t.ls[i].start }

// fenceOf returns the fence line i belongs to, 0 for none.
func (t *text) fenceOf(i int) int { return t.ls[i].fence }

// line returns line i (0-based) without its ending.
func (t *text) line(i int) string { return t.s[t.ls[i].start:t.ls[i].end] }

// masked reports whether line i is inside a fence.
func (t *text) masked(i int) bool { return t.ls[i].fence != 0 }

// lineNo returns the 1-based number of line i as people count lines.
func (t *text) lineNo(i int) int { return t.ls[i].num }

// lineAt returns the 1-based line (as people count lines) holding byte
// offset off.
func (t *text) lineAt(off int) int {
	i := sort.Search(len(t.ls), func(i int) bool { return t.ls[i].start > off }) - 1
	if i < 0 {
		i = 0
	}
	return t.ls[i].num
}

// next returns the offset where line i+1 starts (len(s) after the last line).
func (t *text) next(i int) int {
	if i+1 < len(t.ls) {
		return t.ls[i+1].start
	}
	return len(t.s)
}

// eol returns the text's first line ending, "\n" when it has none.
func eol(s string) string {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			return "\n"
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				return "\r\n"
			}
			return "\r"
		}
	}
	return "\n"
}

// endsWithEOL reports whether s ends with a line ending.
func endsWithEOL(s string) bool {
	return len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r')
}
