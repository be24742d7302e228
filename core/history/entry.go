package history

import (
	"path"
	"regexp"
	"strings"

	"github.com/kessho/kessho/core/worklog"
)

// Entry is one history.md entry read back: what its line says and the
// archive it names.
type Entry struct {
	Line    string // the line as written, without its ending
	Date    string // "2026-11-30", or "" when the entry dates nothing
	Time    string // "10:15", or "" when it gives no time
	Week    string // "2026-W48" for a week's entry (a worklog), else ""
	Subject string // the link's text after its date and time
	Target  string // the link's target, relative to the project's folder
}

// entryText reads a link text `<date> <HH>h<MM> — <subject>` (what Line
// writes; `HH:MM` and the dashes – and - are read too), `<date> —
// <subject>` or `<YYYY>-W<WW> — <subject>` (WeekLine).
var entryText = regexp.MustCompile(`^(?:(\d{4}-\d{2}-\d{2})(?:[ T]+(\d{1,2})[h:H](\d{2}))?|(\d{4}-W\d{2}))\s*(?:[—–-]\s*(.*))?$`)

// Parse returns history text's entries in order (newest first, as
// history.md holds them): each list item whose link points into
// archives/, read by its link text and target. The text's backslash
// escapes are undone, so Subject reads as the subject Line was given.
// An entry whose text dates nothing takes the date and time its file's
// name gives (`<date>-<HH>h<MM>-….md`), if any.
func Parse(text string) []Entry {
	items := Entries(text)
	out := make([]Entry, 0, len(items))
	for _, it := range items {
		e := Entry{Line: it.Line, Target: Target(it.Dest)}
		label := unescape(strings.TrimSpace(it.Text))
		m := entryText.FindStringSubmatch(label)
		switch {
		case m == nil:
			e.Subject = label
		case m[4] != "":
			e.Week, e.Subject = m[4], m[5]
		default:
			e.Date, e.Subject = m[1], m[5]
			if m[2] != "" {
				e.Time = pad2(m[2]) + ":" + m[3]
			}
		}
		if e.Date == "" && e.Week == "" {
			if s, ok := worklog.ParseName(path.Base(e.Target)); ok {
				e.Date, e.Time = s.Date.String(), s.Time
			}
		}
		e.Subject = strings.TrimSpace(e.Subject)
		out = append(out, e)
	}
	return out
}

func pad2(s string) string {
	if len(s) == 1 {
		return "0" + s
	}
	return s
}

// unescape undoes Markdown's backslash escapes: a backslash before an
// ASCII punctuation character is dropped.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && isPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}
