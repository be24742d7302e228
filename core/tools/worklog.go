package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"kessho/core/catalog"
	"kessho/core/history"
	"kessho/core/note"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"kessho/core/fault"
	"kessho/core/fold"
	"kessho/core/frontmatter"
	"kessho/core/markdown"
	"kessho/core/plan"
	"kessho/core/vault"
	"kessho/core/worklog"
)

// worklogSpec is mem_worklog in the catalogue.
var worklogSpec = &catalog.Tool{
	Name:  "mem_worklog",
	Title: catalog.Text{En: "Weekly worklog", Fr: "Journal de la semaine"},
	Description: catalog.Text{
		En: "Builds the worklog of one ISO week (Monday to Sunday) in two calls. First phase=collect (the default; read-only, writes nothing): it returns every archived session of the week across active and archived projects and domains (project, archive, time, subject, an excerpt, its next steps) and the hours of each worked day split among that day's projects in proportion to their sessions, in quarter hours. From that, write three texts yourself — brief_md, digest_md, detailed_md — then call again with phase=persist, the same week_of and amplitude_hours, and the texts: it writes 10-episodes/domains/worklogs/archives/<YYYY>-W<WW>-worklog.md (replacing that week's note if it exists) with a pie chart of hours by project, and adds its history line once.",
		Fr: "Construit le journal d'une semaine ISO (du lundi au dimanche) en deux appels. D'abord phase=collect (par défaut ; lecture seule, rien n'est écrit) : il renvoie chaque session archivée de la semaine dans les projets actifs, archivés et les domaines (projet, archive, heure, sujet, un extrait, ses prochaines étapes) et les heures de chaque jour travaillé réparties entre les projets du jour au prorata de leurs sessions, au quart d'heure. À partir de là, rédigez vous-même trois textes — brief_md, digest_md, detailed_md — puis rappelez avec phase=persist, les mêmes week_of et amplitude_hours, et les textes : il écrit 10-episodes/domains/worklogs/archives/<AAAA>-W<SS>-worklog.md (en remplaçant la note de cette semaine si elle existe) avec un camembert des heures par projet, et ajoute sa ligne d'historique une seule fois.",
	},
	Params: []catalog.Param{
		{Name: "phase", Type: catalog.String, Enum: []string{"collect", "persist"}, Default: "collect",
			Description: catalog.Text{
				En: "collect first (read-only: returns the week's sessions and hours, writes nothing); write the three texts from what it returns; then persist (writes the worklog note with those texts).",
				Fr: "collect d'abord (lecture seule : renvoie les sessions et les heures de la semaine, n'écrit rien) ; rédigez les trois textes d'après ce qu'il renvoie ; puis persist (écrit la note du journal avec ces textes).",
			}},
		{Name: "week_of", Type: catalog.String,
			Description: catalog.Text{
				En: "Any day of the wanted week, YYYY-MM-DD (e.g. last Friday for last week's worklog); empty or omitted: today, in the vault's time zone.",
				Fr: "N'importe quel jour de la semaine voulue, AAAA-MM-JJ (par ex. vendredi dernier pour le journal de la semaine passée) ; vide ou omis : aujourd'hui, dans le fuseau du coffre.",
			}},
		{Name: "amplitude_hours", Type: catalog.Number, Default: 7, Minimum: floatp(0.25), Maximum: floatp(24),
			Description: catalog.Text{
				En: "Hours worked on each worked day, in quarter hours (7, 7.5, 7.75…), at most 24; each worked day's hours sum exactly to it.",
				Fr: "Heures travaillées chaque jour travaillé, au quart d'heure (7, 7.5, 7.75…), 24 au plus ; les heures de chaque jour travaillé y somment exactement.",
			}},
		{Name: "include_weekend", Type: catalog.Boolean, Default: false,
			Description: catalog.Text{
				En: "Count Saturday and Sunday as worked days. Without it, weekend sessions are listed with 0 h.",
				Fr: "Compter samedi et dimanche comme jours travaillés. Sans cela, les sessions du week-end sont listées avec 0 h.",
			}},
		{Name: "brief_md", Type: catalog.String,
			Description: catalog.Text{
				En: "persist only, required: a few lines for a manager — what the week delivered. Written by you from the collect result.",
				Fr: "persist seulement, obligatoire : quelques lignes pour un responsable — ce que la semaine a livré. Rédigé par vous d'après le résultat de collect.",
			}},
		{Name: "detailed_md", Type: catalog.String,
			Description: catalog.Text{
				En: "persist only, required: the day-by-day account, session by session, with the next steps that remain.",
				Fr: "persist seulement, obligatoire : le compte rendu jour par jour, session par session, avec les prochaines étapes qui restent.",
			}},
		{Name: "digest_md", Type: catalog.String,
			Description: catalog.Text{
				En: "persist only, required: one paragraph or a short list per project — what moved, what was decided, what is blocked.",
				Fr: "persist seulement, obligatoire : un paragraphe ou une courte liste par projet — ce qui a avancé, ce qui a été décidé, ce qui bloque.",
			}},
	},
	Errors: append([]fault.Code{fault.SlugConflict, fault.FileNotUTF8}, catalog.Shared...),
	Writes: true,
	CLI:    catalog.CLI{Command: "worklog"},
}

// WorklogsSlug is the domain that holds the worklogs; its own archives are
// never sessions of a week.
const WorklogsSlug = "worklogs"

type worklogArgs struct {
	Phase          string  `json:"phase"`
	WeekOf         string  `json:"week_of"`
	AmplitudeHours float64 `json:"amplitude_hours"`
	IncludeWeekend bool    `json:"include_weekend"`
	BriefMD        *string `json:"brief_md"`
	DetailedMD     *string `json:"detailed_md"`
	DigestMD       *string `json:"digest_md"`
}

// WorklogSession is one archived session of the week.
type WorklogSession struct {
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

// WorklogDay is one day of the week.
type WorklogDay struct {
	Date    string `json:"date"`
	Weekday string `json:"weekday"`
	// Worked: the day has sessions and is a weekday (or include_weekend).
	Worked         bool               `json:"worked"`
	Hours          float64            `json:"hours"`
	HoursByProject map[string]float64 `json:"hours_by_project"`
	Sessions       []WorklogSession   `json:"sessions"`
}

// WorklogWeek is what both phases say about the week.
type WorklogWeek struct {
	Phase             string             `json:"phase"`
	Week              string             `json:"week"`
	Start             string             `json:"start"`
	End               string             `json:"end"`
	AmplitudeHours    float64            `json:"amplitude_hours"`
	IncludeWeekend    bool               `json:"include_weekend"`
	Sessions          int                `json:"sessions"`
	TotalHours        float64            `json:"total_hours"`
	HoursByProject    map[string]float64 `json:"hours_by_project"`
	SessionsByProject map[string]int     `json:"sessions_by_project"`
}

// WorklogCollect is mem_worklog's result in phase collect.
type WorklogCollect struct {
	WorklogWeek
	Days []WorklogDay `json:"days"`
	Common
}

// WorklogPersist is mem_worklog's result in phase persist.
type WorklogPersist struct {
	WorklogWeek
	Note string `json:"note"`
	// Status is created, replaced or unchanged.
	Status           string `json:"status"`
	HistoryLine      string `json:"history_line"`
	HistoryLineAdded bool   `json:"history_line_added"`
	DomainCreated    bool   `json:"domain_created"`
	Common
}

var weekdays = [7]struct{ en, fr string }{
	{"monday", "lundi"}, {"tuesday", "mardi"}, {"wednesday", "mercredi"}, {"thursday", "jeudi"},
	{"friday", "vendredi"}, {"saturday", "samedi"}, {"sunday", "dimanche"},
}

// worklogTool is mem_worklog.
//
// Choices where SPEC is silent:
//   - amplitude_hours must be a whole number of quarter hours (7, 7.25…):
//     a day can only sum exactly to its amplitude in quarter hours if the
//     amplitude is one. Another value is refused (INVALID_ARGUMENT with the
//     nearest quarters), never rounded behind the caller's back.
//   - A worked day is a day with at least one session (Monday to Friday,
//     or any day with include_weekend); a day without sessions has no hours.
//   - Projects are keyed by slug. Ties in the largest-remainder rounding go
//     to the project with more sessions that day, then to the smaller slug.
//   - An archive's day comes from its file name (YYYY-MM-DD-HHhMM-… or
//     YYYY-MM-DD…), else from its frontmatter `date` (a date, or a date-time
//     converted to the vault's zone) and `time`. An archive with no date at
//     all is left out with a warning; so is an undated one whose content
//     cannot be read (not UTF-8, invalid frontmatter). One whose name dates
//     it in the week but whose content cannot be read is listed from its
//     name, with a warning. Archives whose name dates them outside the week
//     are never read.
//   - Only `.md` files directly in a folder's archives/ are archives.
//   - The excerpt is the body with headings removed and white space joined,
//     cut at about 200 characters on a word boundary ("…" when cut).
//   - persist recomputes the week itself (the hours in the note never come
//     from the caller), and writes the note's sections in English
//     (Brief, Digest, Detailed) whatever the language, so tools can find
//     them; the title and the chart's heading follow the caller's language.
//     The history line is `- [<week> — Worklog](archives/<file>)`, added
//     with the same rule as mem_archive's (before the first entry), once: a
//     re-run that finds a line pointing at the note adds none. A re-run with
//     the same texts writes nothing (status unchanged).
func worklogTool(env *Env, raw json.RawMessage) (any, plan.Plan, error) {
	var a worklogArgs
	if err := decode(raw, &a); err != nil {
		return nil, nil, err
	}
	quarters, week, err := checkWorklogArgs(env, &a)
	if err != nil {
		return nil, nil, err
	}
	persist := a.Phase == "persist"
	dir := vault.Dir(vault.KindDomain, WorklogsSlug)
	notePath := fmt.Sprintf("%s/archives/%s-worklog.md", dir, week)
	var extra []string
	if persist {
		extra = []string{dir + "/context.md", dir + "/history.md", notePath}
	}
	sessions, folders, warnings, err := weekSessions(env, week, extra)
	if err != nil {
		return nil, nil, err
	}
	res, days, dayWarnings := prorate(env, week, sessions, quarters, a.IncludeWeekend)
	warnings = append(warnings, dayWarnings...)
	res.Phase = a.Phase
	res.AmplitudeHours = a.AmplitudeHours
	if !persist {
		out := &WorklogCollect{WorklogWeek: res, Days: days, Common: Common{Warnings: warnings}}
		out.SummaryMD = collectSummary(env, &out.WorklogWeek, days)
		return out, nil, nil
	}
	return persistWorklog(env, &a, res, folders, notePath, warnings)
}

// checkWorklogArgs refuses what the arguments alone make wrong and returns
// the amplitude in quarter hours and the week.
func checkWorklogArgs(env *Env, a *worklogArgs) (int, worklog.Week, error) {
	quarters, ok := worklog.Quarters(a.AmplitudeHours)
	if !ok {
		lo := float64(int(a.AmplitudeHours*4)) / 4
		near := fmt.Sprintf("%s or %s", fmtHours(lo), fmtHours(lo+0.25))
		return 0, worklog.Week{}, fault.Argument("amplitude_hours",
			fmt.Sprintf("is %s, not a whole number of quarter hours (a day's hours are split in quarter hours and must sum to it); pass e.g. %s", fmtHours(a.AmplitudeHours), near),
			fmt.Sprintf("vaut %s, pas un nombre entier de quarts d'heure (les heures d'un jour se répartissent au quart d'heure et doivent y sommer) ; passez par ex. %s", fmtHours(a.AmplitudeHours), strings.Replace(near, " or ", " ou ", 1)))
	}
	day := worklog.DateOf(env.Now)
	if w := strings.TrimSpace(a.WeekOf); w != "" {
		d, err := worklog.ParseDate(w)
		if err != nil {
			return 0, worklog.Week{}, fault.Argument("week_of",
				fmt.Sprintf("%q is not a date YYYY-MM-DD (e.g. 2026-11-30); any day of the wanted week will do", a.WeekOf),
				fmt.Sprintf("%q n'est pas une date AAAA-MM-JJ (par ex. 2026-11-30) ; n'importe quel jour de la semaine voulue convient", a.WeekOf))
		}
		day = d
	}
	texts := []struct {
		name string
		v    *string
	}{{"brief_md", a.BriefMD}, {"detailed_md", a.DetailedMD}, {"digest_md", a.DigestMD}}
	for _, t := range texts {
		switch {
		case a.Phase != "persist" && t.v != nil:
			return 0, worklog.Week{}, fault.Argument(t.name,
				`only applies to phase "persist"; collect first (it writes nothing), then pass the three texts with phase "persist"`,
				`ne vaut qu'en phase « persist » ; faites d'abord collect (qui n'écrit rien), puis passez les trois textes avec phase « persist »`)
		case a.Phase == "persist" && (t.v == nil || strings.TrimSpace(*t.v) == ""):
			return 0, worklog.Week{}, fault.Argument(t.name,
				`is required with phase "persist" and must not be blank: write it from what phase "collect" returned`,
				`est obligatoire en phase « persist » et ne doit pas être vide : rédigez-le d'après ce qu'a renvoyé la phase « collect »`)
		}
	}
	return quarters, worklog.WeekOf(day), nil
}

// session is an archive of the week, as read.
type session struct {
	project vault.Project
	path    string
	date    worklog.Date
	out     WorklogSession
}

// weekSessions finds the sessions of week. It reads, in as few rounds as it
// can: the three parent folders (with extra files, in the same round); then
// every folder's archives/ listing; then the content of the archives whose
// name dates them in the week and of those whose name holds no date; never
// another archive's content. It also returns every project folder found.
func weekSessions(env *Env, week worklog.Week, extra []string) ([]session, []vault.Project, []string, error) {
	v := env.View
	folders, err := vault.Folders(v, extra)
	if err != nil {
		return nil, nil, nil, err
	}
	var projects []vault.Project
	var dirs []string
	for _, p := range folders {
		if p.Kind == vault.KindDomain && p.Slug == WorklogsSlug {
			continue
		}
		projects = append(projects, p)
		dirs = append(dirs, p.Dir+"/archives")
	}
	// Only the names that can be this week's sessions travel: those that
	// start with one of its dates, and those that start with no date (their
	// frontmatter dates them). A name shaped like a date that is no real
	// date is not read: it names no session of a real day.
	var patterns []string
	for _, d := range week.Days() {
		patterns = append(patterns, d.String()+"*")
	}
	patterns = append(patterns, "![0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*")
	matches := make([]vault.Match, len(dirs))
	for i, d := range dirs {
		matches[i] = vault.Match{Dir: d, Patterns: patterns}
	}
	if err := v.Ask(vault.Need{Matches: matches}); err != nil {
		return nil, nil, nil, err
	}
	listings := make([][]string, len(dirs))
	for i, m := range matches {
		entries, err := v.Match(m)
		if err != nil && !errors.Is(err, vault.ErrNotExist) {
			return nil, nil, nil, err
		}
		listings[i] = entries
	}
	type candidate struct {
		project vault.Project
		path    string
		name    string
		stamp   *worklog.Stamp
	}
	var cands []candidate
	var files []string
	for i, p := range projects {
		for _, e := range listings[i] {
			if !isNote(e) {
				continue
			}
			// This loop sees every archive name of the vault: the date
			// check comes first and allocates nothing.
			d, dated := worklog.NameDate(e)
			if dated && !week.Contains(d) {
				continue
			}
			c := candidate{project: p, path: dirs[i] + "/" + e, name: e}
			if s, ok := worklog.ParseName(e); ok {
				c.stamp = &s
			}
			cands = append(cands, c)
			files = append(files, c.path)
		}
	}
	if err := v.Ask(vault.Need{Files: files}); err != nil {
		return nil, nil, nil, err
	}
	warnings := []string{}
	var out []session
	for _, c := range cands {
		s, warn, err := readSession(env, c.project, c.path, c.name, c.stamp, week)
		if err != nil {
			return nil, nil, nil, err
		}
		if warn != "" {
			warnings = append(warnings, warn)
		}
		if s != nil {
			out = append(out, *s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.date != b.date {
			return a.date.String() < b.date.String()
		}
		at, bt := timeKey(a.out.Time), timeKey(b.out.Time)
		if at != bt {
			return at < bt
		}
		if a.project.Slug != b.project.Slug {
			return a.project.Slug < b.project.Slug
		}
		return a.path < b.path
	})
	return out, folders, warnings, nil
}

// isNote reports whether a folder entry is a Markdown file (".md" in any
// case), without allocating.
func isNote(e string) bool {
	n := len(e)
	return n > 3 && e[n-3] == '.' && e[n-2]|0x20 == 'm' && e[n-1]|0x20 == 'd'
}

// timeKey sorts sessions without a time after those with one.
func timeKey(t *string) string {
	if t == nil {
		return "~"
	}
	return *t
}

// readSession reads one candidate archive. It returns nil (and maybe a
// warning) when the archive is not a session of the week: an archeo-git
// reconstruction, or dated outside the week by its frontmatter, or not
// dated at all.
func readSession(env *Env, p vault.Project, path, name string, stamp *worklog.Stamp, week worklog.Week) (*session, string, error) {
	s := &session{project: p, path: path, out: WorklogSession{Project: p.Slug, Kind: p.Type(), Archive: path}}
	if p.Kind == vault.KindArchived {
		s.out.Kind, s.out.Archived = vault.KindProject, true
	}
	c, err := env.View.Read(path)
	var doc *frontmatter.Doc
	var problem string
	switch {
	case err != nil:
		return nil, "", err
	case c.NotUTF8:
		problem = env.T("is not UTF-8 text", "n'est pas du texte UTF-8")
	default:
		var perr error
		doc, perr = frontmatter.Parse(c.Text)
		if perr != nil {
			line := 1
			var fe *frontmatter.Error
			if errors.As(perr, &fe) {
				line = fe.Line
			}
			problem = env.T(fmt.Sprintf("has invalid frontmatter (line %d)", line), fmt.Sprintf("a un frontmatter invalide (ligne %d)", line))
			doc = nil
		}
	}
	if stamp == nil {
		if doc == nil {
			return nil, env.T(fmt.Sprintf("%s %s and has no date in its name: left out", path, problem),
				fmt.Sprintf("%s %s et son nom ne porte pas de date : laissée de côté", path, problem)), nil
		}
		d, t, ok := frontmatterDate(env, doc)
		if !ok {
			return nil, env.T(fmt.Sprintf("%s has no date, neither in its name nor in its frontmatter: left out", path),
				fmt.Sprintf("%s n'a pas de date, ni dans son nom ni dans son frontmatter : laissée de côté", path)), nil
		}
		if !week.Contains(d) {
			return nil, "", nil
		}
		s.date = d
		if t != "" {
			s.out.Time = &t
		}
	} else {
		s.date = stamp.Date
		if stamp.Time != "" {
			t := stamp.Time
			s.out.Time = &t
		} else if doc != nil {
			if t := frontmatterTime(doc); t != "" {
				s.out.Time = &t
			}
		}
	}
	s.out.Subject = subjectFromName(name, p.Slug)
	warn := ""
	if doc == nil {
		warn = env.T(fmt.Sprintf("%s %s: listed from its name only", path, problem),
			fmt.Sprintf("%s %s : listée d'après son nom seulement", path, problem))
		return s, warn, nil
	}
	if src, _ := doc.String("source"); strings.TrimSpace(src) == "archeo-git" {
		return nil, "", nil
	}
	if subj, ok := doc.String("subject"); ok && strings.TrimSpace(subj) != "" {
		s.out.Subject = strings.TrimSpace(subj)
	}
	body := doc.Body()
	hs := markdown.Headings([]byte(body))
	s.out.Excerpt = excerpt(body, hs, 200)
	s.out.NextSteps = nextSteps(body, hs)
	return s, "", nil
}

// frontmatterDate reads `date` (a date, or a date-time taken in the vault's
// zone) and `time` ("HH:MM").
func frontmatterDate(env *Env, doc *frontmatter.Doc) (worklog.Date, string, bool) {
	raw, ok := doc.String("date")
	raw = strings.TrimSpace(raw)
	if !ok || len(raw) < 10 {
		return worklog.Date{}, "", false
	}
	if len(raw) > 10 {
		for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04"} {
			loc := env.Now.Location()
			if t, err := time.ParseInLocation(layout, raw, loc); err == nil {
				t = t.In(loc)
				return worklog.DateOf(t), t.Format("15:04"), true
			}
		}
	}
	d, err := worklog.ParseDate(raw[:10])
	if err != nil || len(raw) > 10 && raw[10] != 'T' && raw[10] != ' ' {
		return worklog.Date{}, "", false
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

// subjectFromName is the subject an archive's file name gives: what
// follows the timestamp and the slug, dashes as spaces.
func subjectFromName(name, slug string) string {
	stem := strings.TrimSuffix(strings.TrimSuffix(name, ".md"), ".MD")
	rest := stem
	if s, ok := worklog.ParseName(stem); ok {
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

// excerpt returns the body's text without its heading lines, white space
// joined, cut at about max characters on a word boundary.
func excerpt(body string, hs []markdown.Heading, max int) string {
	var b strings.Builder
	last := 0
	for _, h := range hs {
		if h.Start >= last {
			b.WriteString(body[last:h.Start])
			b.WriteByte(' ')
			last = h.BodyStart
		}
	}
	b.WriteString(body[last:])
	text := strings.Join(strings.Fields(b.String()), " ")
	if utf8.RuneCountInString(text) <= max {
		return text
	}
	cut, n := 0, 0
	for i := range text {
		if n > max {
			break
		}
		cut, n = i, n+1
	}
	if sp := strings.LastIndexByte(text[:cut], ' '); sp > cut*3/4 {
		cut = sp
	}
	return strings.TrimRightFunc(text[:cut], func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) && r != ')' }) + "…"
}

// nextStepNames are the headings of a next-steps section, folded.
var nextStepNames = map[string]bool{
	"next steps": true, "next step": true, "next actions": true, "next action": true,
	"todo": true, "to do": true, "reste a faire": true, "prochaines etapes": true, "prochaine etape": true,
}

// nextSteps returns the text of the first next-steps section (heading of
// any level, any case, accents and surrounding punctuation ignored), or nil.
func nextSteps(body string, hs []markdown.Heading) *string {
	for _, h := range hs {
		if !nextStepNames[headingKey(h.Text)] {
			continue
		}
		s := strings.TrimSpace(body[h.BodyStart:h.End])
		if s == "" {
			return nil
		}
		return &s
	}
	return nil
}

// headingKey folds a heading's text to lowercase words, accents and
// punctuation dropped: "Next action(s) :" → "next actions",
// "Prochaines Étapes" → "prochaines etapes".
func headingKey(t string) string {
	t = strings.ReplaceAll(strings.ReplaceAll(t, "(s)", "s"), "(S)", "s")
	t = fold.Fold(t)
	t = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return ' '
	}, t)
	return strings.Join(strings.Fields(t), " ")
}

// prorate splits each worked day's amplitude among its projects and sums
// the week.
func prorate(env *Env, week worklog.Week, sessions []session, quarters int, weekend bool) (WorklogWeek, []WorklogDay, []string) {
	var warnings []string
	res := WorklogWeek{Week: week.String(), Start: week.Start().String(), End: week.End().String(),
		IncludeWeekend: weekend, HoursByProject: map[string]float64{}, SessionsByProject: map[string]int{}}
	weekQ := map[string]int{}
	var days []WorklogDay
	for i, d := range week.Days() {
		day := WorklogDay{Date: d.String(), Weekday: weekdays[i].en, HoursByProject: map[string]float64{}, Sessions: []WorklogSession{}}
		count := map[string]int{}
		for _, s := range sessions {
			if s.date == d {
				day.Sessions = append(day.Sessions, s.out)
				count[s.project.Slug]++
			}
		}
		var shares []worklog.Share
		for slug, n := range count {
			shares = append(shares, worklog.Share{Key: slug, Sessions: n})
			res.SessionsByProject[slug] += n
			if _, ok := weekQ[slug]; !ok {
				weekQ[slug] = 0
			}
		}
		sort.Slice(shares, func(a, b int) bool { return shares[a].Key < shares[b].Key })
		res.Sessions += len(day.Sessions)
		day.Worked = len(day.Sessions) > 0 && (weekend || !d.Weekend())
		if day.Worked {
			for j, q := range worklog.Split(quarters, shares) {
				day.HoursByProject[shares[j].Key] = worklog.Hours(q)
				weekQ[shares[j].Key] += q
			}
			day.Hours = worklog.Hours(quarters)
		} else if len(day.Sessions) > 0 {
			for _, sh := range shares {
				day.HoursByProject[sh.Key] = 0
			}
			warnings = append(warnings, env.T(
				fmt.Sprintf("%d session(s) on %s %s, not a worked day: listed with 0 h (include_weekend counts weekends)", len(day.Sessions), capital(weekdays[i].en), day.Date),
				fmt.Sprintf("%d session(s) le %s %s, jour non travaillé : listée(s) avec 0 h (include_weekend compte les week-ends)", len(day.Sessions), weekdays[i].fr, day.Date)))
		}
		days = append(days, day)
	}
	total := 0
	for slug, q := range weekQ {
		res.HoursByProject[slug] = worklog.Hours(q)
		total += q
	}
	res.TotalHours = worklog.Hours(total)
	return res, days, warnings
}

func capital(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func fmtHours(h float64) string { return strconv.FormatFloat(h, 'f', -1, 64) }

// projectsByHours returns the slugs of hours, most hours first, then by slug.
func projectsByHours(hours map[string]float64) []string {
	var out []string
	for k := range hours {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if hours[out[i]] != hours[out[j]] {
			return hours[out[i]] > hours[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}

func hoursList(hours map[string]float64) string {
	var parts []string
	for _, k := range projectsByHours(hours) {
		parts = append(parts, fmt.Sprintf("%s %s h", k, fmtHours(hours[k])))
	}
	return strings.Join(parts, ", ")
}

// collectSummary is the Markdown summary of phase collect.
func collectSummary(env *Env, w *WorklogWeek, days []WorklogDay) string {
	head := fmt.Sprintf("**%s** (%s → %s)", w.Week, w.Start, w.End)
	if w.Sessions == 0 {
		return env.T("No archived session in "+head+".", "Aucune session archivée en "+head+".")
	}
	var b strings.Builder
	b.WriteString(env.T(fmt.Sprintf("%s: %d session(s), %s h.\n\n", head, w.Sessions, fmtHours(w.TotalHours)),
		fmt.Sprintf("%s : %d session(s), %s h.\n\n", head, w.Sessions, fmtHours(w.TotalHours))))
	for i, d := range days {
		if len(d.Sessions) == 0 {
			continue
		}
		name := env.T(capital(d.Weekday), weekdays[i].fr)
		if d.Worked {
			fmt.Fprintf(&b, env.T("- %s %s: %s\n", "- %s %s : %s\n"), name, d.Date, hoursList(d.HoursByProject))
		} else {
			b.WriteString(env.T(fmt.Sprintf("- %s %s: not a worked day (0 h)\n", name, d.Date),
				fmt.Sprintf("- %s %s : jour non travaillé (0 h)\n", name, d.Date)))
		}
		for _, s := range d.Sessions {
			at := ""
			if s.Time != nil {
				at = *s.Time + " "
			}
			fmt.Fprintf(&b, "  - %s%s — %s\n", at, s.Project, s.Subject)
		}
	}
	b.WriteString(env.T("\nWeek: "+hoursList(w.HoursByProject)+".\n\n", "\nSemaine : "+hoursList(w.HoursByProject)+".\n\n"))
	b.WriteString(env.T("Next: write brief_md, digest_md and detailed_md from these sessions, then call mem_worklog with phase=persist and the same week_of.",
		"Ensuite : rédigez brief_md, digest_md et detailed_md d'après ces sessions, puis appelez mem_worklog avec phase=persist et le même week_of."))
	return b.String()
}

// persistWorklog writes the week's note, its history line, and the
// worklogs domain when it is missing.
func persistWorklog(env *Env, a *worklogArgs, w WorklogWeek, folders []vault.Project, notePath string, warnings []string) (any, plan.Plan, error) {
	v := env.View
	dom := vault.Project{Slug: WorklogsSlug, Kind: vault.KindDomain, Dir: vault.Dir(vault.KindDomain, WorklogsSlug)}
	for _, f := range folders {
		if f.Slug == WorklogsSlug && f.Kind != vault.KindDomain {
			return nil, nil, fault.New(fault.SlugConflict, map[string]any{"slug": WorklogsSlug, "places": []string{f.Dir, dom.Dir}},
				fmt.Sprintf("%s is a project, but worklogs are written to the domain %s; rename that project, nothing was written", f.Dir, dom.Dir),
				fmt.Sprintf("%s est un projet, mais les journaux s'écrivent dans le domaine %s ; renommez ce projet, rien n'a été écrit", f.Dir, dom.Dir))
		}
	}
	file := strings.TrimPrefix(notePath, dom.Dir+"/archives/")
	res := &WorklogPersist{WorklogWeek: w, Note: notePath, Common: Common{Warnings: warnings}}
	if w.Sessions == 0 {
		res.Warnings = append(res.Warnings, env.T("no archived session this week: the worklog holds no hours",
			"aucune session archivée cette semaine : le journal ne compte aucune heure"))
	}
	text, err := worklogNote(env, a, &w)
	if err != nil {
		return nil, nil, fault.Internalf("writing the worklog: %v", err)
	}
	var p plan.Plan

	// The note: created, or replaced when its text changes.
	old, err := v.Read(notePath)
	switch {
	case err != nil:
		return nil, nil, err
	case !old.Exists:
		res.Status = "created"
		p = append(p, plan.WriteOp(notePath, plan.Absent, text))
	case old.NotUTF8:
		res.Status = "replaced"
		p = append(p, plan.WriteOp(notePath, old.Expect, text))
	case old.Text == text:
		res.Status = "unchanged"
	default:
		res.Status = "replaced"
		p = append(p, plan.WriteOp(notePath, old.Expect, text))
	}

	// history.md: the line once.
	res.HistoryLine = history.WeekLine(w.Week, file)
	hist, err := v.ReadText(dom.History())
	if err != nil {
		return nil, nil, err
	}
	if !hist.Exists {
		hist.Text = history.Title(WorklogsSlug)
	}
	if !hasEntry(hist.Text, file) {
		res.HistoryLineAdded = true
		p = append(p, plan.WriteOp(dom.History(), hist.Expect, history.Insert(hist.Text, res.HistoryLine)))
	}

	// The domain's context.md, only when missing.
	if ctx, err := v.Read(dom.Context()); err != nil {
		return nil, nil, err
	} else if !ctx.Exists {
		f := note.Fields{{Key: "slug", Node: note.Str(WorklogsSlug)}, {Key: "kind", Node: note.Str("domain")}, {Key: "created", Node: note.Stamp(env.Now.Format("2006-01-02"))},
			{Key: "summary", Node: note.Str(env.T("Weekly worklogs, one note a week, written by mem_worklog.", "Journaux hebdomadaires, une note par semaine, écrits par mem_worklog."))}}
		text, err := f.Render(env.T("# worklogs\n\nOne worklog a week in archives/, written by mem_worklog (phase persist); history.md lists them.\n",
			"# worklogs\n\nUn journal par semaine dans archives/, écrit par mem_worklog (phase persist) ; history.md les liste.\n"))
		if err != nil {
			return nil, nil, fault.Internalf("writing the worklogs domain: %v", err)
		}
		res.DomainCreated = true
		p = append(p, plan.WriteOp(dom.Context(), plan.Absent, text))
	}

	stem := strings.TrimSuffix(file, ".md")
	switch res.Status {
	case "created":
		res.SummaryMD = env.T(fmt.Sprintf("Worklog **%s** written: [[%s]] (%s h).", w.Week, stem, fmtHours(w.TotalHours)),
			fmt.Sprintf("Journal **%s** écrit : [[%s]] (%s h).", w.Week, stem, fmtHours(w.TotalHours)))
	case "replaced":
		res.SummaryMD = env.T(fmt.Sprintf("Worklog **%s** replaced: [[%s]] (%s h).", w.Week, stem, fmtHours(w.TotalHours)),
			fmt.Sprintf("Journal **%s** remplacé : [[%s]] (%s h).", w.Week, stem, fmtHours(w.TotalHours)))
	default:
		res.SummaryMD = env.T(fmt.Sprintf("Worklog **%s** unchanged: [[%s]] already holds these texts and hours.", w.Week, stem),
			fmt.Sprintf("Journal **%s** inchangé : [[%s]] contient déjà ces textes et ces heures.", w.Week, stem))
	}
	if res.DomainCreated {
		res.SummaryMD += env.T(" Domain worklogs created.", " Domaine worklogs créé.")
	}
	return res, p, nil
}

// worklogNote renders the week's note.
func worklogNote(env *Env, a *worklogArgs, w *WorklogWeek) (string, error) {
	hours := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	var slugs []string
	for k := range w.HoursByProject {
		slugs = append(slugs, k)
	}
	sort.Strings(slugs)
	for _, k := range slugs {
		hours.Content = append(hours.Content, note.Str(k), note.Number(w.HoursByProject[k]))
	}
	if len(slugs) == 0 {
		hours.Style = yaml.FlowStyle
	}
	f := note.Fields{
		{Key: "slug", Node: note.Str(WorklogsSlug)}, {Key: "kind", Node: note.Str("worklog")}, {Key: "zone", Node: note.Str("episodes")},
		{Key: "week", Node: note.Str(w.Week)}, {Key: "week_start", Node: note.Stamp(w.Start)}, {Key: "week_end", Node: note.Stamp(w.End)},
		{Key: "amplitude_hours", Node: note.Number(w.AmplitudeHours)}, {Key: "hours_by_project", Node: hours},
		{Key: "display", Node: note.Str(WorklogsSlug + " — " + w.Week + " Worklog")},
		{Key: "tags", Node: note.List([]string{"kind/worklog", "zone/episodes"})},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s\n\n", env.T("Worklog", "Journal"), w.Week)
	fmt.Fprintf(&b, "%s → %s · %d session(s) · %s h\n\n", w.Start, w.End, w.Sessions, fmtHours(w.TotalHours))
	for _, s := range []struct {
		title string
		text  *string
	}{{"Brief", a.BriefMD}, {"Digest", a.DigestMD}, {"Detailed", a.DetailedMD}} {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", s.title, sectionText(*s.text, s.title))
	}
	chart := env.T("Hours by project", "Heures par projet")
	fmt.Fprintf(&b, "## %s\n\n", chart)
	order := projectsByHours(w.HoursByProject)
	if w.TotalHours == 0 {
		b.WriteString(env.T("_No worked hours this week._\n", "_Aucune heure travaillée cette semaine._\n"))
	} else {
		fmt.Fprintf(&b, "```mermaid\npie title %s\n", chart)
		for _, k := range order {
			if h := w.HoursByProject[k]; h > 0 {
				fmt.Fprintf(&b, "    %q : %s\n", k, fmtHours(h))
			}
		}
		b.WriteString("```\n")
	}
	return f.Render(b.String())
}

// hasEntry reports whether history text has an entry line linking to
// archives/<file>.
func hasEntry(text, file string) bool {
	_, ok := history.Find(text, file)
	return ok
}

// sectionText trims a text for its section: blank lines around it, and a
// first heading that only repeats the section's name ("## Brief").
func sectionText(text, title string) string {
	text = strings.TrimRightFunc(text, unicode.IsSpace)
	for {
		line, rest, ok := strings.Cut(text, "\n")
		if !ok || strings.TrimSpace(line) != "" {
			break
		}
		text = rest
	}
	if hs := markdown.Headings([]byte(text)); len(hs) > 0 && hs[0].Start == 0 && headingKey(hs[0].Text) == strings.ToLower(title) {
		text = strings.TrimLeftFunc(text[hs[0].BodyStart:], func(r rune) bool { return r == '\n' || r == '\r' })
	}
	return text
}
