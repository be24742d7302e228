// Package history reads and writes a project's history.md and names its
// archives (SPEC section 5): how a line is written so that any subject
// survives, how an entry is found again (by its link target, never by its
// text), where a new line goes and how one is removed (no other byte
// changes), and which archive file is the newest. mem_archive,
// mem_rollback_archive and mem_worklog use it.
package history

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/kessho/kessho/core/fold"
	"github.com/kessho/kessho/core/frontmatter"
	"github.com/kessho/kessho/core/markdown"
	"github.com/kessho/kessho/core/worklog"
)

// Title is a new history.md's first line and the blank line after it.
func Title(slug string) string { return fmt.Sprintf("# History — %s\n\n", slug) }

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

// Line is an archive's line in history.md:
// `- [<date> <HH>h<MM> — <subject>](archives/<file>)`, the subject escaped
// so that the link's text is exactly it, whatever it holds.
func Line(date, hhmm, subject, file string) string {
	return fmt.Sprintf("- [%s %s — %s](archives/%s)", date, hhmm, escapeLinkText(subject), markdownDest(file))
}

// Target is the path an entry's link destination names, relative to
// the project's folder: angle brackets and a leading ./ dropped,
// %-escapes decoded.
func Target(dest string) string {
	d := strings.TrimPrefix(strings.Trim(dest, "<>"), "./")
	if u, err := url.PathUnescape(d); err == nil {
		d = u
	}
	return d
}

// Find returns the first entry of history text whose link targets
// archives/<file>, found by its link target only.
func Find(text, file string) (markdown.Item, bool) {
	for _, e := range Entries(text) {
		if Target(e.Dest) == "archives/"+file {
			return e, true
		}
	}
	return markdown.Item{}, false
}

// Stamp returns the moment an archive file's name dates it, as
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
func Stamp(name string) (string, bool) {
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

// Newest returns the newest archive files among a listing of a
// project's archives/ folder (sub-folders end in "/"): the names that
// Stamp dates latest, sorted; several when they share that minute
// (two archives made in one minute cannot be told apart by name). Empty
// when no name dates an archive.
func Newest(listing []string) []string {
	var newest []string
	best := ""
	for _, name := range listing {
		if strings.HasSuffix(name, "/") {
			continue
		}
		stamp, ok := Stamp(name)
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

// WeekLine is a worklog's line in the worklogs domain's history.md:
// `- [<week> — Worklog](archives/<file>)`.
func WeekLine(week, file string) string {
	return fmt.Sprintf("- [%s — Worklog](archives/%s)", week, markdownDest(file))
}

// markdownDest writes a file name as a Markdown link destination: spaces
// and parentheses escaped as %20, %28, %29 so the link stays one token.
func markdownDest(name string) string {
	r := strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E")
	return r.Replace(name)
}

// isEntry reports whether a history list item links into archives/.
func isEntry(dest string) bool {
	d := strings.TrimPrefix(strings.Trim(dest, "<>"), "./")
	return strings.HasPrefix(d, "archives/")
}

// Entries returns history.md's entry lines in order: the list items whose
// link points into archives/.
func Entries(text string) []markdown.Item {
	var out []markdown.Item
	for _, it := range markdown.LinkedItems([]byte(text)) {
		if isEntry(it.Dest) {
			out = append(out, it)
		}
	}
	return out
}

// Newline returns the text's first line ending, "\n" when it has none.
func Newline(text string) string {
	i := strings.IndexAny(text, "\r\n")
	switch {
	case i < 0:
		return "\n"
	case text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n':
		return "\r\n"
	case text[i] == '\r':
		return "\r"
	}
	return "\n"
}

// Insert puts line right before the first entry line, separated from it
// as the file's entries are (spaced); with no entry yet, in place of the
// memory-kit's "no sessions yet" line (placeholder), else at the end of
// the file after one blank line; in the file's line ending. No other byte
// changes.
func Insert(text, line string) string {
	nl := Newline(text)
	if e := Entries(text); len(e) > 0 {
		at := e[0].Start
		sep := nl
		if spaced(text, e) {
			sep += nl
		}
		return text[:at] + line + sep + text[at:]
	}
	if at, end, ok := placeholder(text); ok {
		if end == len(text) {
			return text[:at] + line + nl
		}
		return text[:at] + line + text[end:]
	}
	if text == "" {
		return line + nl
	}
	if !strings.HasSuffix(text, "\n") && !strings.HasSuffix(text, "\r") {
		text += nl
	}
	if !strings.HasSuffix(text, nl+nl) {
		text += nl
	}
	return text + line + nl
}

// kitTitle ends the first line of a history.md the memory-kit started
// (`# Webshop — Historique des sessions`).
const kitTitle = "— Historique des sessions"

// spaced reports whether a history's entries are separated by blank
// lines, as the memory-kit writes them: the first two are, or, with one
// entry, the file is the kit's (its title, after its frontmatter). Kessho's histories and hand
// made ones with one entry take no blank line (SPEC's form).
func spaced(text string, e []markdown.Item) bool {
	if len(e) > 1 {
		between := text[e[0].End:e[1].Start]
		return between != "" && strings.TrimSpace(between) == ""
	}
	return strings.HasSuffix(titleLine(text), kitTitle)
}

// titleLine is the first heading line of a history's body, after its
// frontmatter (every history.md the memory-kit writes has one: its first
// line is `---`; its mem_init_project writes an intro line, `> Fil
// chronologique…`, before the title), its line ending and trailing spaces
// trimmed; "" when there is none.
func titleLine(text string) string {
	if d, err := frontmatter.Parse(text); err == nil {
		text = d.Body()
	}
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimRight(l, "\r \t"); strings.HasPrefix(strings.TrimSpace(l), "#") {
			return l
		}
	}
	return ""
}

// placeholder finds the memory-kit's line of a history with no entry yet,
// `_(no sessions yet — mem_archive will prepend new entries here)_`: the
// byte offsets of its text, line ending excluded, and whether there is
// one (any line starting "_(no sessions yet" and ending ")_").
func placeholder(text string) (start, end int, ok bool) {
	for at := 0; at < len(text); {
		stop := strings.IndexAny(text[at:], "\r\n")
		if stop < 0 {
			stop = len(text) - at
		}
		l := strings.TrimSpace(text[at : at+stop])
		if strings.HasPrefix(l, "_(no sessions yet") && strings.HasSuffix(l, ")_") {
			return at, at + stop, true
		}
		at += stop
		if strings.HasPrefix(text[at:], "\r\n") {
			at += 2
		} else if at < len(text) {
			at++
		}
	}
	return 0, 0, false
}

// Remove returns text without entry e's line; an entry between two
// blank lines (the memory-kit's spaced entries) takes the blank line
// after it too, so that removing what Insert added gives the text back.
// No other byte changes.
func Remove(text string, e markdown.Item) string {
	end := e.End
	if nl := Newline(text); strings.HasSuffix(text[:e.Start], nl+nl) && strings.HasPrefix(text[end:], nl) {
		end += len(nl)
	}
	return text[:e.Start] + text[end:]
}

// Stem is the stem of a new archive's file name in a folder whose
// archives/ lists listing: `<date>-<hhmm>-<slug>-<subject as a slug>`,
// never one taken (case aside): -2, -3… are added until it is free.
func Stem(date, hhmm, slug, subject string, listing []string) string {
	taken := map[string]bool{}
	for _, e := range listing {
		taken[strings.ToLower(strings.TrimSuffix(e, "/"))] = true
	}
	base := fmt.Sprintf("%s-%s-%s-%s", date, hhmm, slug, fold.Slug(subject, 60, "session"))
	stem := base
	for n := 2; taken[strings.ToLower(stem+".md")]; n++ {
		stem = fmt.Sprintf("%s-%d", base, n)
	}
	return stem
}
