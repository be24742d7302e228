package hygiene

import "strings"

// row is one live priority: a bullet line inside a tier section.
type row struct {
	line        int    // 0-based
	text        string // the priority text, trimmed
	placeholder bool
}

// prioScan is everything the checker and the trim need from
// ACTIVE_PRIORITIES.md. All of it is read on the masked text.
type prioScan struct {
	t            *text
	modes        []int // 0-based lines of `## Operating Mode: <mode>` headings
	rows         []row
	reviewLine   int // 0-based line of the first review stamp, -1 when none
	reviewDate   string
	reviewed     bool
	archiveLines []int // 0-based lines of `## Archived` headings
}

// h2 reports whether l starts `##` + a blank: the line that ends a tier
// section.
func h2(l string) bool { return cuts(l) }

// h2Word reports whether l is `##` + blanks + word (case-insensitive) and
// returns the offset after the word.
func h2Word(l, word string) (int, bool) {
	if !strings.HasPrefix(l, "##") {
		return 0, false
	}
	p := blanks(l, 2)
	if p == 2 || !hasPrefixFold(l[p:], word) {
		return 0, false
	}
	return p + len(word), true
}

// operatingMode: `##` + blanks + `Operating Mode:` + optional blanks + a
// mode of at least two characters — /^##[ \t]+Operating Mode:[ \t]*(\S.+?)[ \t]*$/im:
// the first character after the blanks is not whitespace and at least one
// more UTF-16 unit follows it on the line (a trailing blank counts; so does
// the second half of a character outside the BMP).
func operatingMode(l string) bool {
	p, ok := h2Word(l, "Operating Mode:")
	if !ok {
		return false
	}
	p = blanks(l, p)
	if p >= len(l) {
		return false
	}
	r, n := decode(l, p)
	if isSpace(r) {
		return false
	}
	return p+n < len(l) || r >= 0x10000
}

// tier: `##` + blanks + `Tier` + blanks + 1, 2 or 3 + word boundary.
func tier(l string) bool {
	p, ok := h2Word(l, "Tier")
	if !ok {
		return false
	}
	q := blanks(l, p)
	if q == p || q >= len(l) || l[q] < '1' || l[q] > '3' {
		return false
	}
	return boundaryAt(l, q+1)
}

// archived: `##` + blanks + `Archived` + word boundary.
func archived(l string) bool {
	p, ok := h2Word(l, "Archived")
	return ok && boundaryAt(l, p)
}

// priority matches a live-priority line,
// /^[ \t]*[-*][ \t]+(?:\[[ xX]\][ \t]+)?(.+\S)[ \t]*$/, with the regular
// expression's backtracking: the text must be at least two UTF-16 units and
// end (before trailing blanks) with a non-whitespace character; when the
// text after a checkbox is too short, the checkbox becomes part of the text
// ("- [ ] x" is the priority "[ ] x"). It returns the captured text,
// trimmed.
func priority(l string) (string, bool) {
	p := blanks(l, 0)
	if p >= len(l) || (l[p] != '-' && l[p] != '*') {
		return "", false
	}
	p++
	q := blanks(l, p)
	if q == p {
		return "", false
	}
	e := len(l)
	for e > 0 && (l[e-1] == ' ' || l[e-1] == '\t') {
		e--
	}
	if q >= e || isSpace(lastChar(l[q:e])) {
		return "", false
	}
	// With a checkbox: `[ ]`, `[x]` or `[X]`, blanks, then the text.
	if q+3 < e && l[q] == '[' && (l[q+1] == ' ' || l[q+1] == 'x' || l[q+1] == 'X') && l[q+2] == ']' &&
		(l[q+3] == ' ' || l[q+3] == '\t') {
		u := blanks(l, q+3)
		if u < e && (u-(q+4))+units(l[u:e], 2) >= 2 {
			return trim(l[u:e]), true
		}
	}
	if (q-(p+1))+units(l[q:e], 2) >= 2 {
		return trim(l[q:e]), true
	}
	return "", false
}

// placeholder: the text starts `[your`, `[optional`, `[list`, `[describe`
// or `[add` followed by a word boundary, or holds `[your…]` or
// `[optional…]` anywhere (case-insensitive).
func placeholder(text string) bool {
	if strings.HasPrefix(text, "[") {
		for _, w := range [...]string{"your", "optional", "list", "describe", "add"} {
			if hasPrefixFold(text[1:], w) && boundaryAt(text, 1+len(w)) {
				return true
			}
		}
	}
	closing := strings.LastIndexByte(text, ']')
	for i := 0; i < closing; i++ {
		if text[i] != '[' {
			continue
		}
		for _, w := range [...]string{"your", "optional"} {
			if hasPrefixFold(text[i+1:], w) && i+1+len(w) <= closing {
				return true
			}
		}
	}
	return false
}

// reviewStamp matches /^(?:\*\*)?Last reviewed(?::\*\*|\*\*:|:)[ \t]*(\d{4}-\d{2}-\d{2})\b/i
// and returns the date.
func reviewStamp(l string) (string, bool) {
	p := 0
	if strings.HasPrefix(l, "**") {
		p = 2
	}
	if !hasPrefixFold(l[p:], "Last reviewed") {
		return "", false
	}
	p += len("Last reviewed")
	switch {
	case strings.HasPrefix(l[p:], ":**"), strings.HasPrefix(l[p:], "**:"):
		p += 3
	case strings.HasPrefix(l[p:], ":"):
		p++
	default:
		return "", false
	}
	p = blanks(l, p)
	if !dateShape(l, p) || !boundaryAt(l, p+10) {
		return "", false
	}
	return l[p : p+10], true
}

// scanPriorities reads ACTIVE_PRIORITIES.md.
func scanPriorities(s string) *prioScan {
	t := scan(s)
	ps := &prioScan{t: t, reviewLine: -1}
	inTier := false
	for i := 0; i < t.lines(); i++ {
		if t.masked(i) {
			continue
		}
		l := t.line(i)
		if operatingMode(l) {
			ps.modes = append(ps.modes, i)
		}
		if archived(l) {
			ps.archiveLines = append(ps.archiveLines, i)
		}
		if ps.reviewLine < 0 {
			if d, ok := reviewStamp(l); ok {
				ps.reviewLine, ps.reviewDate, ps.reviewed = i, d, validDate(d)
			}
		}
		if h2(l) {
			inTier = tier(l)
			continue
		}
		if inTier {
			if text, ok := priority(l); ok {
				ps.rows = append(ps.rows, row{line: i, text: text, placeholder: placeholder(text)})
			}
		}
	}
	return ps
}

func (ps *prioScan) placeholders() int {
	n := 0
	for _, r := range ps.rows {
		if r.placeholder {
			n++
		}
	}
	return n
}
