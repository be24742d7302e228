package tools

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"kessho/core/markdown"
	"kessho/core/worklog"
)

// History lines and the archives they name (SPEC section 5): how a line is
// written so that any subject survives, how an entry is found again (by
// its link target, never by its text), and which archive file is the
// newest.

// linkTextEscapes are the characters backslash-escaped in a history line's
// link text: every ASCII punctuation character that can open or close an
// inline construct in CommonMark (\ ` * _ [ ] < &: escapes, code spans,
// emphasis, links and images, autolinks and HTML, entities), or in
// Obsidian's own syntax (~ = $ %: strikethrough, highlight, math,
// comments). CommonMark turns a backslash before any ASCII punctuation
// into that character, so the link's text reads exactly the subject.
const linkTextEscapes = "\\`*_[]<&~=$%"

// escapeLinkText writes s as Markdown link text that reads s.
func escapeLinkText(s string) string {
	if !strings.ContainsAny(s, linkTextEscapes) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && strings.ContainsRune(linkTextEscapes, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// historyLine is an archive's line in history.md:
// `- [<date> <HH>h<MM> — <subject>](archives/<file>)`, the subject escaped
// so that the link's text is exactly it, whatever it holds.
func historyLine(date, hhmm, subject, file string) string {
	return fmt.Sprintf("- [%s %s — %s](archives/%s)", date, hhmm, escapeLinkText(subject), markdownDest(file))
}

// entryTarget is the path an entry's link destination names, relative to
// the project's folder: angle brackets and a leading ./ dropped,
// %-escapes decoded.
func entryTarget(dest string) string {
	d := strings.TrimPrefix(strings.Trim(dest, "<>"), "./")
	if u, err := url.PathUnescape(d); err == nil {
		d = u
	}
	return d
}

// findEntry returns the first entry of history text whose link targets
// archives/<file>, found by its link target only.
func findEntry(text, file string) (markdown.Item, bool) {
	for _, e := range historyEntries(text) {
		if entryTarget(e.Dest) == "archives/"+file {
			return e, true
		}
	}
	return markdown.Item{}, false
}

// archiveStamp returns the moment an archive file's name dates it, as
// "YYYY-MM-DD HH:MM" (ordered as text), and whether the name dates it:
//
//   - `<YYYY-MM-DD>-<HH>h<MM>-….md` (what mem_archive writes): that date
//     and minute;
//   - `<YYYY>-W<WW>-worklog.md` (what mem_worklog writes in the worklogs
//     domain): the last minute of that ISO week, Sunday 23:59, since a
//     week's worklog is written once its sessions are.
//
// Any other name (a note added by hand, a sub-folder, a file that is not
// .md) dates nothing: it is never the newest archive.
func archiveStamp(name string) (string, bool) {
	stem, ok := strings.CutSuffix(name, ".md")
	if !ok {
		return "", false
	}
	if s, ok := worklog.ParseName(name); ok && s.Time != "" && len(stem) > 16 && stem[16] == '-' {
		return s.Date.String() + " " + s.Time, true
	}
	if w, ok := strings.CutSuffix(stem, "-worklog"); ok && len(w) == 8 && w[4] == '-' && w[5] == 'W' {
		y, err1 := strconv.Atoi(w[:4])
		n, err2 := strconv.Atoi(w[6:])
		if err1 != nil || err2 != nil || !isDigit(w[6]) || !isDigit(w[7]) {
			return "", false
		}
		// The Monday of ISO week 1 is the one of the week holding 4 January.
		jan4 := worklog.WeekOf(worklog.Date{Year: y, Month: 1, Day: 4})
		week := worklog.WeekOf(jan4.Start().AddDays(7 * (n - 1)))
		if n < 1 || week.Year != y || week.Num != n {
			return "", false
		}
		return week.End().String() + " 23:59", true
	}
	return "", false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// newestArchives returns the newest archive files among a listing of a
// project's archives/ folder (sub-folders end in "/"): the names that
// archiveStamp dates latest, sorted; several when they share that minute
// (two archives made in one minute cannot be told apart by name). Empty
// when no name dates an archive.
func newestArchives(listing []string) []string {
	var newest []string
	best := ""
	for _, name := range listing {
		if strings.HasSuffix(name, "/") {
			continue
		}
		stamp, ok := archiveStamp(name)
		switch {
		case !ok || stamp < best:
		case stamp > best:
			best, newest = stamp, []string{name}
		default:
			newest = append(newest, name)
		}
	}
	sort.Strings(newest)
	return newest
}
