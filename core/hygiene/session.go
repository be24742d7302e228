package hygiene

import (
	"fmt"
	"strings"
)

// retentionLimit is the most session blocks SESSION_LOG.md keeps.
const retentionLimit = 5

// File names used in gates. The archive is named without its date, which
// only the host knows.
const (
	FileSessionLog     = "SESSION_LOG.md"
	FilePriorities     = "ACTIVE_PRIORITIES.md"
	FileSessionArchive = "SESSION_LOG_ARCHIVE" // today's SESSION_LOG_ARCHIVE_<date>.md
)

// labels are the field labels every session block holds exactly once, in the
// order the checker lists them.
var labels = [...]string{"Objective", "Completed", "Decisions", "Open threads", "Next action"}

// sessionBlock is one session block of SESSION_LOG.md: the UNMASKED text
// from a counted header to the next counted header or the end of the text.
type sessionBlock struct {
	Heading string // the header line, without its ending
	Date    string // YYYY-MM-DD, a valid date
	Title   string // the rest of the header after the dash, trimmed; may be empty
	Start   int    // byte offset of the header line
	End     int    // byte offset where the next block starts, or len(text)
	Line    int    // 1-based line of the header

	// Malformed is set when the title is empty or a field is missing,
	// empty or duplicated; Reason says which, in words.
	Malformed bool
	Reason    string
}

// Gate is something the trim cannot decide alone: a line a human has to
// look at. Blocking gates stop the trim (nothing is written); the others
// are reported and the trim goes on.
type Gate struct {
	File     string // FileSessionLog, FilePriorities, or an archive
	Line     int    // 1-based line in that file as it is after the plan (1 when the gate is about the whole file)
	Reason   string
	Blocking bool
}

// sessionScan is everything the checker and the trim need from a session log.
type sessionScan struct {
	t           *text
	blocks      []sessionBlock
	badHeaders  []int    // 0-based lines of headers with an invalid date
	badDates    []string // their dates
	outOfOrder  int      // index of the first block dated after the one before, or -1
	headerLines []int    // 0-based line of each block's header
}

// header recognises a counted session header or a malformed one on line l
// (not masked). It returns the date and title of a counted header, or
// malformed=true for a `##` + blanks + date-shaped text + word boundary line
// whose date is invalid.
func header(l string) (date, title string, counted, malformed bool) {
	if !strings.HasPrefix(l, "##") {
		return
	}
	p := blanks(l, 2)
	if p == 2 || !dateShape(l, p) {
		return
	}
	date = l[p : p+10]
	p += 10
	if !validDate(date) {
		return date, "", false, boundaryAt(l, p)
	}
	// [ \t]+ [—-] [ \t]+ (.+?) [ \t]*$ : one or more blanks, a dash, then
	// one or more blanks followed by at least one more character (a blank
	// counts).
	q := blanks(l, p)
	if q == p {
		return "", "", false, false
	}
	switch {
	case strings.HasPrefix(l[q:], "—"):
		q += len("—")
	case strings.HasPrefix(l[q:], "-"):
		q++
	default:
		return "", "", false, false
	}
	r := blanks(l, q)
	if r == q || (r == len(l) && r-q < 2) {
		return "", "", false, false
	}
	return date, trim(l[r:]), true, false
}

// marker returns the field index (into labels) when line l starts with
// `**Label:**` (label case-insensitive), and the inline text after it.
func marker(l string) (int, string) {
	if !strings.HasPrefix(l, "**") {
		return -1, ""
	}
	for k, f := range labels {
		if hasPrefixFold(l[2:], f) && strings.HasPrefix(l[2+len(f):], ":**") {
			return k, l[2+len(f)+3:]
		}
	}
	return -1, ""
}

// cuts reports whether a line ends a field body: it starts `##` + a blank.
func cuts(l string) bool {
	return len(l) >= 3 && l[0] == '#' && l[1] == '#' && (l[2] == ' ' || l[2] == '\t')
}

// scanSession finds the session blocks of s and checks each one.
func scanSession(s string) *sessionScan {
	t := scan(s)
	sc := &sessionScan{t: t, outOfOrder: -1}
	for i := 0; i < t.lines(); i++ {
		if t.masked(i) {
			continue
		}
		l := t.line(i)
		date, title, counted, bad := header(l)
		switch {
		case counted:
			sc.blocks = append(sc.blocks, sessionBlock{Heading: l, Date: date, Title: title, Start: t.start(i), Line: t.lineNo(i)})
			sc.headerLines = append(sc.headerLines, i)
		case bad:
			sc.badHeaders = append(sc.badHeaders, i)
			sc.badDates = append(sc.badDates, date)
		}
	}
	for k := range sc.blocks {
		b := &sc.blocks[k]
		last := t.lines()
		b.End = len(s)
		if k+1 < len(sc.blocks) {
			last = sc.headerLines[k+1]
			b.End = sc.blocks[k+1].Start
		}
		b.Reason = checkFields(t, sc.headerLines[k]+1, last, b.Title == "")
		b.Malformed = b.Reason != ""
		if k > 0 && sc.outOfOrder < 0 && b.Date > sc.blocks[k-1].Date {
			sc.outOfOrder = k
		}
	}
	return sc
}

// checkFields checks the field markers on lines [from, to) of a block (the
// unmasked text: fences included) and returns why the block is malformed,
// or "" when it is not.
//
// Markers are taken in line order; a label seen again is a duplicate. A
// field's body is its inline text plus the lines up to the next marker (of
// any label), cut at the first line starting `##` + a blank; it is empty
// when it holds only whitespace.
func checkFields(t *text, from, to int, emptyTitle bool) string {
	var seen, filled [len(labels)]bool
	var dup [len(labels)]bool
	cur := -1    // the field whose body is being read, -1 for none
	cut := false // the current body met a `## ` line
	for i := from; i < to; i++ {
		l := t.line(i)
		if k, inline := marker(l); k >= 0 {
			cur, cut = -1, false
			if seen[k] {
				dup[k] = true
				continue
			}
			seen[k] = true
			filled[k] = hasNonSpace(inline)
			cur = k
			continue
		}
		if cur < 0 || cut || filled[cur] {
			continue
		}
		if cuts(l) {
			cut = true
			continue
		}
		filled[cur] = hasNonSpace(l)
	}
	var why []string
	if emptyTitle {
		why = append(why, "empty title")
	}
	for k, f := range labels {
		switch {
		case !seen[k]:
			why = append(why, fmt.Sprintf("missing **%s:**", f))
		case !filled[k]:
			why = append(why, fmt.Sprintf("empty **%s:**", f))
		}
		if dup[k] {
			why = append(why, fmt.Sprintf("duplicate **%s:**", f))
		}
	}
	return strings.Join(why, "; ")
}

// gates returns the blocking gates of the session log, in line order.
func (sc *sessionScan) gates() []Gate {
	var g []Gate
	bi, hi := 0, 0
	for bi < len(sc.blocks) || hi < len(sc.badHeaders) {
		if hi < len(sc.badHeaders) && (bi >= len(sc.blocks) || sc.badHeaders[hi] < sc.headerLines[bi]) {
			g = append(g, Gate{File: FileSessionLog, Line: sc.t.lineNo(sc.badHeaders[hi]), Blocking: true,
				Reason: fmt.Sprintf("malformed session header: %s is not a real date", sc.badDates[hi])})
			hi++
			continue
		}
		b := sc.blocks[bi]
		if b.Malformed {
			g = append(g, Gate{File: FileSessionLog, Line: b.Line, Blocking: true,
				Reason: "malformed session block: " + b.Reason})
		}
		if bi > 0 && b.Date > sc.blocks[bi-1].Date {
			g = append(g, Gate{File: FileSessionLog, Line: b.Line, Blocking: true,
				Reason: fmt.Sprintf("session blocks out of order: %s comes after %s (newest first)", b.Date, sc.blocks[bi-1].Date)})
		}
		bi++
	}
	return g
}
