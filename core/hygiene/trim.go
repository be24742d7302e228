package hygiene

import (
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"
)

// Header lines given to an archive that does not exist yet (or is empty),
// followed by one blank line, in the line ending of the file being trimmed.
const (
	SessionArchiveHeader    = "# Session log archive"
	prioritiesArchiveHeader = "# Active priorities archive"
)

// TrimPlan is what a trim would write. A nil text means "leave that file as
// it is" (for an archive: do not create it). The host writes the archives
// first, then the sources they were trimmed from.
type TrimPlan struct {
	SessionLog        *string // new SESSION_LOG.md
	SessionArchive    *string // new SESSION_LOG_ARCHIVE_<today>.md
	Priorities        *string // new ACTIVE_PRIORITIES.md
	PrioritiesArchive *string // new ACTIVE_PRIORITIES_ARCHIVE_<today>.md

	MovedBlocks       int // blocks taken out of SESSION_LOG.md and written to its archive
	SkippedDuplicates int // blocks taken out of SESSION_LOG.md that the archive already held

	MovedPriorityItems        int // marked bullets and `## Archived` sections taken out of ACTIVE_PRIORITIES.md
	SkippedPriorityDuplicates int // of those, the ones the archive already held

	// Gates lists what needs a human, blocking or not, by file then line.
	// Lines refer to each file as it is after the plan is applied.
	Gates []Gate

	// Blocked is set when a blocking gate stopped the trim: then every text
	// is nil and every count zero.
	Blocked bool

	Before Report // the check of the inputs
	After  Report // the check of the files once the plan is applied (= Before when nothing changes)
}

// PlanTrim plans the nightly trim (SPEC section 9, steps 2 and 3) from the
// texts of SESSION_LOG.md and ACTIVE_PRIORITIES.md and the current texts of
// today's archives (nil: the archive does not exist).
//
//	p := hygiene.PlanTrim(log, priorities, nil, nil)
//	if p.Blocked { report p.Gates; write nothing }
//	write p.SessionArchive, p.PrioritiesArchive, then p.SessionLog, p.Priorities (each when non-nil)
//
// When the check already passes there is nothing to do: the plan is empty.
//
// SESSION_LOG.md keeps everything before its first block and its newest
// five blocks, byte for byte; the older blocks move, whole and in
// file order, to the end of the archive. A block is appended byte for byte;
// when the archive does not end with a line ending, one (the log's first
// line ending, "\n" when it has none) is written before the block so that
// its header starts a line. A block the archive already holds (a block of
// the archive with the same header line and the same SHA-256 of its bytes,
// or of its bytes less that one added line ending) is not written again,
// nor is a block appearing twice among those moved.
//
// These stop the trim (blocking gates; nothing is written, not even the
// priorities): a header with an invalid date, a malformed block, blocks out
// of order, and, in a block that would move, an unknown shape: a `#` or `##`
// heading line (outside fences) other than its header, or a code fence still
// open at the end of the log; an existing archive ending inside an open
// fence (the blocks appended after it would be hidden).
//
// ACTIVE_PRIORITIES.md loses only what is explicitly marked, outside fences:
//
//   - a bullet (`-`, `*` or `+`, optional checkbox) whose text starts with
//     `[stale]`, `[superseded]`, `[archived]`, `(stale)`, `(superseded)` or
//     `(archived)`, or that carries the tag `#stale`, `#superseded` or
//     `#archived` on its own line (a `#` at the start or after a blank, the
//     tag ending at the end of the line or at a character that cannot be in
//     a tag: the tag `#stale-2` is another tag), all case-insensitive;
//     with its sub-lines: the following lines indented more than the bullet,
//     and the blank lines between them (not the blank lines after them);
//   - a `## Archived` section (the line the checker counts as
//     embedded_archive) whole, up to the next `#` or `##` heading outside
//     fences, or the end of the file.
//
// They are appended to the priorities archive in file order, each byte for
// byte, separated as above; a chunk the archive already holds at a line
// start is not written twice. A marked bullet whose sub-lines would end
// inside a code fence is not moved (non-blocking gate). What needs a human
// (operating modes ≠ 1, no or too many live priorities, placeholders, no
// valid review stamp) is reported as non-blocking gates, computed on the
// priorities as they will be after the plan.
func PlanTrim(sessionLog, priorities string, sessionArchive, prioritiesArchive *string) TrimPlan {
	sc := scanSession(sessionLog)
	ps := scanPriorities(priorities)
	p := TrimPlan{Before: report(sc, ps)}
	p.After = p.Before
	if p.Before.Pass {
		return p
	}
	e := eol(sessionLog)

	// SESSION_LOG.md.
	gates, moved, archive := sessionTrim(sc, sessionArchive)
	blocked := false
	for _, g := range gates {
		blocked = blocked || g.Blocking
	}
	if blocked {
		p.Blocked = true
		p.Gates = sortGates(append(gates, priorityGates(ps)...))
		return p
	}

	if len(moved) > 0 {
		log := sessionLog[:moved[0].Start]
		p.SessionLog = &log
		p.SessionArchive, p.MovedBlocks, p.SkippedDuplicates = appendBlocks(sessionLog, moved, sessionArchive, archive, e)
	}

	// ACTIVE_PRIORITIES.md.
	after, stuckGates := p.trimPriorities(ps, priorities, prioritiesArchive)
	gates = append(gates, stuckGates...)
	gates = append(gates, priorityGates(after)...)
	p.Gates = sortGates(gates)

	afterLog := sc
	if p.SessionLog != nil {
		afterLog = scanSession(*p.SessionLog)
	}
	p.After = report(afterLog, after)
	return p
}

// sessionTrim returns the gates of SESSION_LOG.md's trim, the blocks it
// moves (past the newest retentionLimit) and the scan of the session
// archive they go to (nil when it does not exist or none move).
func sessionTrim(sc *sessionScan, sessionArchive *string) ([]Gate, []sessionBlock, *sessionScan) {
	gates := sc.gates()
	if len(sc.blocks) == 0 {
		gates = append(gates, Gate{File: FileSessionLog, Line: 1,
			Reason: "no session block (`## YYYY-MM-DD — title`): a human writes one"})
	}
	var moved []sessionBlock
	if len(sc.blocks) > retentionLimit {
		moved = sc.blocks[retentionLimit:]
		gates = append(gates, sc.shapeGates(retentionLimit)...)
	}
	var archive *sessionScan
	if sessionArchive != nil && len(moved) > 0 {
		archive = scanSession(*sessionArchive)
		if archive.t.open {
			gates = append(gates, Gate{File: FileSessionArchive, Line: archive.t.lastFenceLine(), Blocking: true,
				Reason: "the archive ends inside an unclosed code fence: blocks appended after it would be hidden"})
		}
	}
	return gates, moved, archive
}

// trimPriorities moves the marked items of ACTIVE_PRIORITIES.md (ps, of
// the text priorities) to its archive in p, and returns the scan of the
// file as the trim leaves it and a gate for each marked item that stays
// (it ends inside a code fence).
func (p *TrimPlan) trimPriorities(ps *prioScan, priorities string, prioritiesArchive *string) (*prioScan, []Gate) {
	after := ps
	chunks, stuck := markedChunks(ps)
	if len(chunks) > 0 {
		var kept strings.Builder
		prev := 0
		pieces := make([]string, 0, len(chunks))
		for _, c := range chunks {
			kept.WriteString(priorities[prev:c.start])
			pieces = append(pieces, priorities[c.start:c.end])
			prev = c.end
		}
		kept.WriteString(priorities[prev:])
		text := kept.String()
		p.Priorities = &text
		p.PrioritiesArchive, p.MovedPriorityItems, p.SkippedPriorityDuplicates = appendChunks(pieces, prioritiesArchive, eol(priorities))
		after = scanPriorities(text)
	}
	var gates []Gate
	for _, off := range stuck {
		removed := 0
		for _, c := range chunks {
			if c.end <= off {
				removed += c.end - c.start
			}
		}
		gates = append(gates, Gate{File: FilePriorities, Line: after.t.lineAt(off - removed),
			Reason: "marked item ends inside a code fence: move it by hand"})
	}
	return after, gates
}

// shapeGates returns a blocking gate for each unknown shape in the blocks
// from index first on: a `#`/`##` heading line other than the block's
// header, or a fence left open at the end of the text.
func (sc *sessionScan) shapeGates(first int) []Gate {
	var g []Gate
	t := sc.t
	for i := sc.headerLines[first] + 1; i < t.lines(); i++ {
		if t.masked(i) {
			continue
		}
		if l := t.line(i); heading12(l) && !isHeaderLine(sc, i) {
			g = append(g, Gate{File: FileSessionLog, Line: t.lineNo(i), Blocking: true,
				Reason: fmt.Sprintf("unknown shape: heading %q inside a session block to archive", l)})
		}
	}
	if t.open {
		g = append(g, Gate{File: FileSessionLog, Line: t.lastFenceLine(), Blocking: true,
			Reason: "unknown shape: a code fence opened here is never closed, inside a session block to archive"})
	}
	return g
}

// isHeaderLine reports whether line i is a counted header.
func isHeaderLine(sc *sessionScan, i int) bool {
	_, _, counted, _ := header(sc.t.line(i))
	return counted
}

// heading12 reports an ATX heading of level 1 or 2: `#` or `##` then a
// blank or the end of the line.
func heading12(l string) bool {
	n := 0
	for n < len(l) && l[n] == '#' {
		n++
	}
	return (n == 1 || n == 2) && (n == len(l) || l[n] == ' ' || l[n] == '\t')
}

// lastFenceLine returns the 1-based line where the last fence opened.
func (t *text) lastFenceLine() int {
	i := t.lines() - 1
	id := t.fenceOf(i)
	for i > 0 && t.fenceOf(i-1) == id {
		i--
	}
	return t.lineNo(i)
}

// blockKey identifies a block for de-duplication: its header line and the
// SHA-256 of its bytes.
func blockKey(heading, bytes string) string {
	sum := sha256.Sum256([]byte(bytes))
	return heading + "\x00" + string(sum[:])
}

// stripEOL removes one line ending at the end of s.
func stripEOL(s string) string {
	switch {
	case strings.HasSuffix(s, "\r\n"):
		return s[:len(s)-2]
	case strings.HasSuffix(s, "\n"), strings.HasSuffix(s, "\r"):
		return s[:len(s)-1]
	}
	return s
}

// appendBlocks appends the moved blocks of log to the archive (nil:
// absent; scanned: its scan, nil when absent) and returns the new archive
// text (nil when unchanged), how many blocks were written and how many the
// archive already held.
func appendBlocks(log string, moved []sessionBlock, archive *string, scanned *sessionScan, e string) (*string, int, int) {
	exact := map[string]bool{}
	loose := map[string]bool{} // keys of archive blocks less one trailing line ending
	var b strings.Builder
	if archive == nil || *archive == "" {
		b.WriteString(SessionArchiveHeader + e + e)
	} else {
		b.WriteString(*archive)
		for _, blk := range scanned.blocks {
			bytes := (*archive)[blk.Start:blk.End]
			exact[blockKey(blk.Heading, bytes)] = true
			if endsWithEOL(bytes) {
				loose[blockKey(blk.Heading, stripEOL(bytes))] = true
			}
		}
	}
	written, skipped := 0, 0
	last := lastByte(&b)
	for _, blk := range moved {
		bytes := log[blk.Start:blk.End]
		k := blockKey(blk.Heading, bytes)
		if exact[k] || (!endsWithEOL(bytes) && loose[k]) {
			skipped++
			continue
		}
		if last != 0 && last != '\n' && last != '\r' {
			b.WriteString(e)
		}
		b.WriteString(bytes)
		last = bytes[len(bytes)-1]
		exact[k] = true
		written++
	}
	if written == 0 {
		return nil, 0, skipped
	}
	s := b.String()
	return &s, written, skipped
}

func lastByte(b *strings.Builder) byte {
	s := b.String()
	if s == "" {
		return 0
	}
	return s[len(s)-1]
}

// chunk is a byte span of ACTIVE_PRIORITIES.md to move.
type chunk struct{ start, end int }

// markedChunks finds the content of ACTIVE_PRIORITIES.md marked to move,
// in file order, and the marked bullets it cannot move (byte offsets of
// their lines).
func markedChunks(ps *prioScan) ([]chunk, []int) {
	t := ps.t
	var cs []chunk
	var stuck []int
	for i := 0; i < t.lines(); {
		if t.masked(i) {
			i++
			continue
		}
		l := t.line(i)
		if archived(l) {
			j := i + 1
			for j < t.lines() && (t.masked(j) || !heading12(t.line(j))) {
				j++
			}
			cs = append(cs, chunk{t.start(i), t.next(j - 1)})
			i = j
			continue
		}
		indent, ok := markedBullet(l)
		if !ok {
			i++
			continue
		}
		last := i
		for j := i + 1; j < t.lines(); j++ {
			lj := t.line(j)
			if onlyBlanks(lj) {
				continue
			}
			if width(lj) <= indent {
				break
			}
			last = j
		}
		if f := t.fenceOf(last); f != 0 && last+1 < t.lines() && t.fenceOf(last+1) == f {
			stuck = append(stuck, t.start(i))
		} else {
			cs = append(cs, chunk{t.start(i), t.next(last)})
		}
		i = last + 1
	}
	return cs, stuck
}

// markedBullet reports whether l is a bullet explicitly marked stale,
// superseded or archived, and returns the width of its indentation.
func markedBullet(l string) (int, bool) {
	p := blanks(l, 0)
	if p >= len(l) || (l[p] != '-' && l[p] != '*' && l[p] != '+') {
		return 0, false
	}
	q := blanks(l, p+1)
	if q == p+1 {
		return 0, false
	}
	if len(l)-q > 3 && l[q] == '[' && (l[q+1] == ' ' || l[q+1] == 'x' || l[q+1] == 'X') && l[q+2] == ']' &&
		(l[q+3] == ' ' || l[q+3] == '\t') {
		q = blanks(l, q+3)
	}
	rest := l[q:]
	for _, m := range [...]string{"[stale]", "[superseded]", "[archived]", "(stale)", "(superseded)", "(archived)"} {
		if hasPrefixFold(rest, m) {
			return width(l), true
		}
	}
	for i := 0; i < len(rest); i++ {
		if rest[i] != '#' || (i > 0 && rest[i-1] != ' ' && rest[i-1] != '\t') {
			continue
		}
		for _, tag := range [...]string{"stale", "superseded", "archived"} {
			if hasPrefixFold(rest[i+1:], tag) && (i+1+len(tag) == len(rest) || !tagChar(rest[i+1+len(tag)])) {
				return width(l), true
			}
		}
	}
	return 0, false
}

// tagChar reports a byte that can continue an Obsidian tag.
func tagChar(b byte) bool { return isWord(b) || b == '-' || b == '/' || b >= 0x80 }

// width returns the width of l's indentation, a tab advancing to the next
// multiple of 4.
func width(l string) int {
	w := 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case ' ':
			w++
		case '\t':
			w += 4 - w%4
		default:
			return w
		}
	}
	return w
}

// appendChunks appends pieces to the priorities archive (nil: absent) and
// returns the new archive text (nil when unchanged), how many pieces were
// taken and how many of those the archive already held.
func appendChunks(pieces []string, archive *string, e string) (*string, int, int) {
	var b strings.Builder
	if archive == nil || *archive == "" {
		b.WriteString(prioritiesArchiveHeader + e + e)
	} else {
		b.WriteString(*archive)
	}
	written, skipped := 0, 0
	for _, c := range pieces {
		if holds(b.String(), c) {
			skipped++
			continue
		}
		if s := b.String(); s != "" && !endsWithEOL(s) {
			b.WriteString(e)
		}
		b.WriteString(c)
		written++
	}
	if written == 0 {
		return nil, len(pieces), skipped
	}
	s := b.String()
	return &s, len(pieces), skipped
}

// holds reports whether text holds c as whole lines: starting at a line
// start and ending at a line end.
func holds(text, c string) bool {
	for off := 0; ; {
		i := strings.Index(text[off:], c)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(c)
		if (i == 0 || text[i-1] == '\n' || text[i-1] == '\r') &&
			(endsWithEOL(c) || end == len(text) || text[end] == '\n' || text[end] == '\r') {
			return true
		}
		off = i + 1
	}
}

// priorityGates returns the non-blocking gates of ACTIVE_PRIORITIES.md:
// what only a human can decide.
func priorityGates(ps *prioScan) []Gate {
	var g []Gate
	add := func(line int, reason string) {
		g = append(g, Gate{File: FilePriorities, Line: line, Reason: reason})
	}
	switch n := len(ps.modes); {
	case n == 0:
		add(1, "no `## Operating Mode: <mode>` heading: a human chooses the mode")
	case n > 1:
		for _, i := range ps.modes[1:] {
			add(ps.t.lineNo(i), fmt.Sprintf("%d operating modes, exactly one is allowed: a human keeps one", n))
		}
	}
	switch n := len(ps.rows); {
	case n == 0:
		add(1, "no live priority under a `## Tier 1|2|3` heading: a human writes one")
	case n > 5:
		add(ps.t.lineNo(ps.rows[5].line), fmt.Sprintf("%d live priorities, at most 5: a human drops some or marks them #stale", n))
	}
	for _, r := range ps.rows {
		if r.placeholder {
			add(ps.t.lineNo(r.line), fmt.Sprintf("placeholder priority %q: a human replaces or removes it", r.text))
		}
	}
	switch {
	case ps.reviewLine < 0:
		add(1, "no review stamp `Last reviewed: YYYY-MM-DD`: a human reviews the priorities")
	case !ps.reviewed:
		add(ps.t.lineNo(ps.reviewLine), fmt.Sprintf("review stamp %s is not a real date", ps.reviewDate))
	}
	for _, i := range ps.archiveLines {
		add(ps.t.lineNo(i), "embedded `## Archived` section (moved to the archive by a trim that is not blocked)")
	}
	return g
}

// sortGates orders gates by file (session log, its archive, priorities)
// then line, keeping the order of gates on the same line.
func sortGates(g []Gate) []Gate {
	rank := func(f string) int {
		switch f {
		case FileSessionLog:
			return 0
		case FileSessionArchive:
			return 1
		case FilePriorities:
			return 2
		}
		return 3
	}
	sort.SliceStable(g, func(i, j int) bool {
		if ri, rj := rank(g[i].File), rank(g[j].File); ri != rj {
			return ri < rj
		}
		return g[i].Line < g[j].Line
	})
	return g
}
