package worklog

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kessho/kessho/core/frontmatter"
	"github.com/kessho/kessho/core/markdown"
	"github.com/kessho/kessho/core/vault"
)

// Domain is the slug of the domain that holds the worklogs; its own
// archives are never sessions of a week.
const Domain = "worklogs"

// Session is one archived session of the week, as mem_worklog returns it.
type Session struct {
	Project  string `json:"project"`
	Kind     string `json:"kind"` // project or domain
	Archived bool   `json:"archived"`
	Archive  string `json:"archive"`
	// Time is "HH:MM", or null when neither the name nor the frontmatter
	// gives one.
	Time      *string `json:"time"`
	Subject   string  `json:"subject"`
	Excerpt   string  `json:"excerpt"`
	NextSteps *string `json:"next_steps"`
}

// Found is a session with its day and its project's slug.
type Found struct {
	Date    Date
	Slug    string
	Session Session
}

// Candidate is an archive whose name may make it a session of the week:
// its name starts with one of the week's dates, or with no date at all.
type Candidate struct {
	Project vault.Project
	Path    string
	Name    string
	Stamp   *Stamp // nil when the name holds no timestamp
}

// Patterns are the name patterns of the archives that can be sessions of
// week: those that start with one of its dates, and those that start with
// no date (their frontmatter dates them). A name shaped like a date that
// is no real date is not read: it names no session of a real day.
func Patterns(week Week) []string {
	var out []string
	for _, d := range week.days() {
		out = append(out, d.String()+"*")
	}
	return append(out, "![0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*")
}

// Candidates returns the notes of each project's archives/ listing (dirs
// and listings in the order of projects) whose name does not date them
// outside week.
func Candidates(week Week, projects []vault.Project, dirs []string, listings [][]string) []Candidate {
	var out []Candidate
	for i, p := range projects {
		for _, e := range listings[i] {
			if !isNote(e) {
				continue
			}
			// This loop sees every archive name of the vault: the date
			// check comes first and allocates nothing.
			d, dated := nameDate(e)
			if dated && !week.contains(d) {
				continue
			}
			c := Candidate{Project: p, Path: dirs[i] + "/" + e, Name: e}
			if s, ok := ParseName(e); ok {
				c.Stamp = &s
			}
			out = append(out, c)
		}
	}
	return out
}

// isNote reports whether a folder entry is a Markdown file (".md" in any
// case), without allocating.
func isNote(e string) bool {
	n := len(e)
	return n > 3 && e[n-3] == '.' && e[n-2]|0x20 == 'm' && e[n-1]|0x20 == 'd'
}

// Outcome is what reading a candidate found.
type Outcome int

const (
	// Listed: a session of the week, read in full.
	Listed Outcome = iota
	// Skipped: not a session of the week (dated outside it by its
	// frontmatter, or an archeo-git reconstruction); nothing to say.
	Skipped
	// NameOnly: dated by its name, but its content cannot be read: listed
	// from its name only.
	NameOnly
	// Unreadable: no date in its name and its content cannot be read:
	// left out.
	Unreadable
	// Undated: no date in its name nor in its frontmatter: left out.
	Undated
)

// Problem says why an archive's content cannot be read: not UTF-8, or a
// frontmatter that is not valid (Line, 1-based).
type Problem struct {
	NotUTF8 bool
	Line    int
}

// Read reads one candidate from its content c, dating it in loc. It
// returns the session (nil unless Listed or NameOnly), what it found, and
// why the content could not be read (for NameOnly and Unreadable).
func Read(cand Candidate, c vault.Content, week Week, loc *time.Location) (*Found, Outcome, Problem) {
	p := cand.Project
	f := &Found{Slug: p.Slug, Session: Session{Project: p.Slug, Kind: p.Type(), Archive: cand.Path}}
	if p.Kind == vault.KindArchived {
		f.Session.Kind, f.Session.Archived = vault.KindProject, true
	}
	doc, problem := parse(c)
	if out, ok := f.date(cand.Stamp, doc, week, loc); !ok {
		return nil, out, problem
	}
	f.Session.Subject = subjectFromName(cand.Name, p.Slug)
	if doc == nil {
		return f, NameOnly, problem
	}
	if src, _ := doc.String("source"); strings.TrimSpace(src) == "archeo-git" {
		return nil, Skipped, problem
	}
	if subj, ok := doc.String("subject"); ok && strings.TrimSpace(subj) != "" {
		f.Session.Subject = strings.TrimSpace(subj)
	} else if subj, ok := subjectFromDisplay(doc, p.Slug); ok {
		f.Session.Subject = subj
	}
	body := doc.Body()
	hs := markdown.Headings([]byte(body))
	f.Session.Excerpt = excerpt(body, hs, 200)
	f.Session.NextSteps = nextSteps(body, hs)
	return f, Listed, problem
}

// parse reads an archive's frontmatter; nil and the problem when it
// cannot.
func parse(c vault.Content) (*frontmatter.Doc, Problem) {
	if c.NotUTF8 {
		return nil, Problem{NotUTF8: true}
	}
	doc, err := frontmatter.Parse(c.Text)
	if err != nil {
		line := 1
		var fe *frontmatter.Error
		if errors.As(err, &fe) {
			line = fe.Line
		}
		return nil, Problem{Line: line}
	}
	return doc, Problem{}
}

// date sets the session's day and time from the name's stamp, else from
// the frontmatter (doc, nil when unreadable); ok is false, with the
// outcome, when the archive is no session of week.
func (f *Found) date(stamp *Stamp, doc *frontmatter.Doc, week Week, loc *time.Location) (Outcome, bool) {
	if stamp != nil {
		f.Date = stamp.Date
		if stamp.Time != "" {
			t := stamp.Time
			f.Session.Time = &t
		} else if doc != nil {
			if t := frontmatterTime(doc); t != "" {
				f.Session.Time = &t
			}
		}
		return Listed, true
	}
	if doc == nil {
		return Unreadable, false
	}
	d, t, ok := frontmatterDate(doc, loc)
	switch {
	case !ok:
		return Undated, false
	case !week.contains(d):
		return Skipped, false
	}
	f.Date = d
	if t != "" {
		f.Session.Time = &t
	}
	return Listed, true
}

// Sort orders sessions by day, time (sessions without one last), project
// and path.
func Sort(found []Found) {
	sort.SliceStable(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.Date != b.Date {
			return a.Date.String() < b.Date.String()
		}
		at, bt := timeKey(a.Session.Time), timeKey(b.Session.Time)
		if at != bt {
			return at < bt
		}
		if a.Slug != b.Slug {
			return a.Slug < b.Slug
		}
		return a.Session.Archive < b.Session.Archive
	})
}

// timeKey sorts sessions without a time after those with one.
func timeKey(t *string) string {
	if t == nil {
		return "~"
	}
	return *t
}

// frontmatterDate reads `date` (a date, or a date-time taken in loc) and
// `time` ("HH:MM").
func frontmatterDate(doc *frontmatter.Doc, loc *time.Location) (Date, string, bool) {
	raw, ok := doc.String("date")
	raw = strings.TrimSpace(raw)
	if !ok || len(raw) < 10 {
		return Date{}, "", false
	}
	if len(raw) > 10 {
		for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04"} {
			if t, err := time.ParseInLocation(layout, raw, loc); err == nil {
				t = t.In(loc)
				return DateOf(t), t.Format("15:04"), true
			}
		}
	}
	d, err := ParseDate(raw[:10])
	if err != nil || len(raw) > 10 && raw[10] != 'T' && raw[10] != ' ' {
		return Date{}, "", false
	}
	return d, frontmatterTime(doc), true
}

// frontmatterTime reads `time` as "HH:MM" ("9:05", "09:05:00" and "09h05"
// are read too); "" when absent or not a time.
func frontmatterTime(doc *frontmatter.Doc) string {
	raw, ok := doc.String("time")
	if !ok {
		return ""
	}
	raw = strings.TrimSpace(raw)
	i := strings.IndexAny(raw, ":hH")
	if i < 1 || i > 2 || len(raw) < i+3 {
		return ""
	}
	hh, err1 := strconv.Atoi(raw[:i])
	mm, err2 := strconv.Atoi(raw[i+1 : i+3])
	if err1 != nil || err2 != nil || hh > 23 || mm > 59 || len(raw) > i+3 && raw[i+3] != ':' {
		return ""
	}
	return fmt.Sprintf("%02d:%02d", hh, mm)
}

// subjectFromDisplay is the subject of an archive without a `subject`
// key, as the memory-kit writes them: its `display` is
// `<slug> — <YYYY-MM-DD> <subject>` (the file name drops the subject's
// accented letters and punctuation, the display keeps them).
func subjectFromDisplay(doc *frontmatter.Doc, slug string) (string, bool) {
	display, _ := doc.String("display")
	rest, ok := strings.CutPrefix(strings.TrimSpace(display), slug+" — ")
	if !ok || len(rest) < 12 || rest[10] != ' ' {
		return "", false
	}
	if _, err := ParseDate(rest[:10]); err != nil {
		return "", false
	}
	subj := strings.TrimSpace(rest[11:])
	return subj, subj != ""
}

// subjectFromName is the subject an archive's file name gives: what
// follows the timestamp and the slug, dashes as spaces.
func subjectFromName(name, slug string) string {
	stem := strings.TrimSuffix(strings.TrimSuffix(name, ".md"), ".MD")
	rest := stem
	if s, ok := ParseName(stem); ok {
		rest = s.Rest
	}
	if r, ok := strings.CutPrefix(rest, slug+"-"); ok {
		rest = r
	} else if rest == slug {
		rest = ""
	}
	rest = strings.TrimSpace(strings.ReplaceAll(rest, "-", " "))
	if rest == "" {
		return stem
	}
	return rest
}
