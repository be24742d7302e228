package tools

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/history"
	"github.com/kessho/kessho/core/note"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/worklog"
)

// worklogSpec is mem_worklog in the catalogue. The memory-kit's agents
// pass the week's hours by project themselves (hours_by_project, unlisted:
// kitAccepts): see givenHours.
var worklogSpec = kitAccepts(tool[either[worklogCollect, worklogPersist]](catalogText("worklog.yaml"), "mem_worklog", "worklog", writes|destroys|idempotent, []fault.Code{fault.SlugConflict, fault.FileNotUTF8}, []catalog.Param{
	{Name: "phase", Type: catalog.String, Enum: []string{"collect", "persist"}, Default: "collect"},
	{Name: "week_of", Type: catalog.String},
	{Name: "amplitude_hours", Type: catalog.Number, Default: 7, Minimum: floatp(0.25), Maximum: floatp(24)},
	{Name: "include_weekend", Type: catalog.Boolean, Default: false},
	{Name: "brief_md", Type: catalog.String},
	{Name: "detailed_md", Type: catalog.String},
	{Name: "digest_md", Type: catalog.String},
}), catalog.Param{Name: "hours_by_project", Type: catalog.Object})

type worklogArgs struct {
	Phase          string  `json:"phase"`
	WeekOf         string  `json:"week_of"`
	AmplitudeHours float64 `json:"amplitude_hours"`
	IncludeWeekend bool    `json:"include_weekend"`
	BriefMD        *string `json:"brief_md"`
	DetailedMD     *string `json:"detailed_md"`
	DigestMD       *string `json:"digest_md"`
	// HoursByProject is the memory-kit's split of the week's hours, nil
	// when not sent (givenHours).
	HoursByProject map[string]any `json:"hours_by_project"`
}

// worklogWeek is what both phases say about the week.
type worklogWeek struct {
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

// worklogCollect is mem_worklog's result in phase collect.
type worklogCollect struct {
	worklogWeek
	Days []worklog.Day `json:"days"`
	Common
}

// worklogPersist is mem_worklog's result in phase persist.
type worklogPersist struct {
	worklogWeek
	Note string `json:"note"`
	// Status is created, replaced or unchanged.
	Status           string `json:"status"`
	HistoryLine      string `json:"history_line"`
	HistoryLineAdded bool   `json:"history_line_added"`
	DomainCreated    bool   `json:"domain_created"`
	Common
}

// worklogText is worklog.yaml: mem_worklog's catalogue texts and messages, parsed on first use.
var worklogText = loadText[struct {
	NotQuarters, NotDate, PersistOnly, PersistNeeds                fault.Msg
	NotUTF8, BadFrontmatter, Unreadable, Undated, NameOnly, OffDay fault.Msg
	HoursPersistOnly, HoursNone, HoursNotNumber, HoursNegative     fault.Msg
	HoursOverWeek, HoursUnknown, HoursNear, HoursLeftOut           fault.Msg
	Days                                                           [7]fault.Msg
	NoSession, Head, DayHours, DayOff, Week, Next                  fault.Msg
	IsProject, NoHours, Created, Replaced, Unchanged, DomainMade   fault.Msg
	Title, Chart, NoChart, DomainSummary, DomainBody               fault.Msg
}]("worklog.yaml")

// worklogTool is mem_worklog: it finds the week's sessions (weekSessions),
// prorates the hours (worklog.Prorate), and returns them (collect) or
// writes the week's note (persistWorklog).
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
//   - persist recomputes the week itself (the hours in the note come
//     from the caller only as the memory-kit's hours_by_project, see
//     givenHours), and writes the note's sections in English
//     (Brief, Digest, Detailed) whatever the language, so tools can find
//     them; the title and the chart's heading follow the caller's language.
//     The history line is `- [<week> — Worklog](archives/<file>)`, added
//     with the same rule as mem_archive's (before the first entry), once: a
//     re-run that finds a line pointing at the note adds none. A re-run with
//     the same texts writes nothing (status unchanged).
//   - In a vault whose worklogs domain holds the memory-kit's week notes
//     (`<monday>-worklog-S<WW>.md`), the note takes that name, the kit's
//     keys besides Kessho's, and the kit's history line, so that the week
//     has one note whichever tool wrote it first (kitWorklogs).
//   - persist with hours_by_project (the memory-kit's agents count the
//     hours themselves) writes those hours instead of the prorated ones:
//     see givenHours.
func worklogTool(env *Env, a worklogArgs) (any, plan.Plan, error) {
	quarters, week, err := checkWorklogArgs(env, &a)
	if err != nil {
		return nil, nil, err
	}
	dom := vault.Project{Slug: worklog.Domain, Kind: vault.KindDomain, Dir: vault.Dir(vault.KindDomain, worklog.Domain)}
	notePath := fmt.Sprintf("%s/archives/%s-worklog.md", dom.Dir, week)
	var extra []string
	kit := false
	if a.Phase == "persist" {
		extra = []string{dom.Context(), dom.History(), notePath}
		if kit, err = kitWorklogs(env, dom, extra); err != nil {
			return nil, nil, err
		}
		if kit {
			notePath = dom.Dir + "/archives/" + worklog.KitName(week)
			extra = []string{dom.Context(), dom.History(), notePath}
		}
	}
	found, folders, warnings, err := weekSessions(env, week, extra)
	if err != nil {
		return nil, nil, err
	}
	totals, days := worklog.Prorate(week, found, quarters, a.IncludeWeekend)
	warnings = append(warnings, offDayWarnings(env, days)...)
	if a.HoursByProject != nil {
		left, err := givenHours(a.HoursByProject, folders, &totals)
		if err != nil {
			return nil, nil, err
		}
		for _, slug := range left {
			warnings = append(warnings, env.say(worklogText().Msg.HoursLeftOut, slug, totals.SessionsByProject[slug]))
		}
	}
	w := worklogWeek{Phase: a.Phase, Week: week.String(), Start: week.Start().String(), End: week.End().String(),
		AmplitudeHours: a.AmplitudeHours, IncludeWeekend: a.IncludeWeekend, Sessions: totals.Sessions,
		TotalHours: totals.TotalHours, HoursByProject: totals.HoursByProject, SessionsByProject: totals.SessionsByProject}
	if a.Phase != "persist" {
		out := &worklogCollect{worklogWeek: w, Days: days, Common: Common{Warnings: warnings}}
		out.SummaryMD = collectSummary(env, &w, days)
		return out, nil, nil
	}
	res := &worklogPersist{worklogWeek: w, Note: notePath, Common: Common{Warnings: warnings}}
	return persistWorklog(env, &a, res, dom, week, totals, folders, kit)
}

// kitWorklogs reports whether the worklogs domain holds the memory-kit's
// week notes (worklog.KitPattern): persist then names, keys and lists the
// week's note as they are, so that a vault used by both tools keeps one
// note per week (the kit's note of that week, when there is one, is the
// note persist replaces). It asks in the round that weekSessions asks
// first (the files of extra, the three parent folders), so a vault without
// the kit's notes costs no round more; one with them, a round to read the
// kit's note of the week.
func kitWorklogs(env *Env, dom vault.Project, extra []string) (bool, error) {
	m := vault.Match{Dir: dom.Dir + "/archives", Patterns: []string{worklog.KitPattern}}
	need := vault.Need{Files: extra, Dirs: []string{vault.Projects, vault.Domains, vault.Archived}, Matches: []vault.Match{m}}
	if err := env.View.Ask(need); err != nil {
		return false, err
	}
	entries, err := env.View.Match(m)
	if err != nil && !errors.Is(err, vault.ErrNotExist) {
		return false, err
	}
	return len(entries) > 0, nil
}

// checkWorklogArgs refuses what the arguments alone make wrong and returns
// the amplitude in quarter hours and the week.
func checkWorklogArgs(env *Env, a *worklogArgs) (int, worklog.Week, error) {
	quarters, ok := worklog.Quarters(a.AmplitudeHours)
	if !ok {
		lo := float64(int(a.AmplitudeHours*4)) / 4
		return 0, worklog.Week{}, argument("amplitude_hours", worklogText().Msg.NotQuarters,
			worklog.FormatHours(a.AmplitudeHours), worklog.FormatHours(lo), worklog.FormatHours(lo+0.25))
	}
	day := worklog.DateOf(env.Now)
	if w := strings.TrimSpace(a.WeekOf); w != "" {
		d, err := worklog.ParseDate(w)
		if err != nil {
			return 0, worklog.Week{}, argument("week_of", worklogText().Msg.NotDate, a.WeekOf)
		}
		day = d
	}
	if err := checkHours(a); err != nil {
		return 0, worklog.Week{}, err
	}
	texts := []struct {
		name string
		v    *string
	}{{"brief_md", a.BriefMD}, {"detailed_md", a.DetailedMD}, {"digest_md", a.DigestMD}}
	for _, t := range texts {
		switch {
		case a.Phase != "persist" && t.v != nil:
			return 0, worklog.Week{}, argument(t.name, worklogText().Msg.PersistOnly)
		case a.Phase == "persist" && (t.v == nil || strings.TrimSpace(*t.v) == ""):
			return 0, worklog.Week{}, argument(t.name, worklogText().Msg.PersistNeeds)
		}
	}
	return quarters, worklog.WeekOf(day), nil
}

// hoursWeek is the most hours a week holds: 7 days of 24 hours.
const hoursWeek = 7 * 24

// checkHours refuses an hours_by_project (the memory-kit's, persist only)
// that is empty or holds anything but hours: each value a number of hours,
// not negative, the week's sum at most hoursWeek. Its projects are checked
// once the vault's folders are known (givenHours).
func checkHours(a *worklogArgs) error {
	if a.HoursByProject == nil {
		return nil
	}
	m := worklogText().Msg
	if a.Phase != "persist" {
		return argument("hours_by_project", m.HoursPersistOnly)
	}
	if len(a.HoursByProject) == 0 {
		return argument("hours_by_project", m.HoursNone)
	}
	sum := 0.0
	for _, slug := range slices.Sorted(maps.Keys(a.HoursByProject)) {
		h, ok := a.HoursByProject[slug].(float64)
		switch {
		case !ok:
			return argument("hours_by_project."+slug, m.HoursNotNumber, typeOf(a.HoursByProject[slug]))
		case h < 0:
			return argument("hours_by_project."+slug, m.HoursNegative, worklog.FormatHours(h))
		}
		sum += h
	}
	if sum > hoursWeek {
		return argument("hours_by_project", m.HoursOverWeek, worklog.FormatHours(sum), hoursWeek)
	}
	return nil
}

// typeOf names the JSON type of v, a value encoding/json decoded.
func typeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "number"
}

// givenHours puts the hours the memory-kit's agent gave (hours_by_project,
// checked by checkHours) in place of the prorated ones in totals: the
// note's frontmatter, totals line and pie chart, and the result, hold them
// as given, any number of hours (not only quarters: they are the kit's
// count, with no day to sum to), a project given 0 h kept at 0. The
// sessions stay counted from the archives. Each key must be the slug of a
// project, archived project or domain of the vault whose sessions a
// worklog counts (not worklogs itself): another is INVALID_ARGUMENT naming
// hours_by_project.<key> with the closest slugs, so that a typo never
// makes a project of its own in the week's hours. It returns the projects
// with sessions this week that the given hours leave out, for a warning.
func givenHours(given map[string]any, folders []vault.Project, totals *worklog.Totals) ([]string, error) {
	var slugs []string
	for _, f := range folders {
		if !(f.Kind == vault.KindDomain && f.Slug == worklog.Domain) && !slices.Contains(slugs, f.Slug) {
			slugs = append(slugs, f.Slug)
		}
	}
	slices.Sort(slugs)
	hours := map[string]float64{}
	sum := 0.0
	m := worklogText().Msg
	for _, slug := range slices.Sorted(maps.Keys(given)) {
		if !slices.Contains(slugs, slug) {
			en, fr := "", ""
			if close := vault.Closest(slug, slugs, 5); len(close) > 0 {
				en, fr = m.HoursNear.In("en", strings.Join(close, ", ")), m.HoursNear.In("fr", strings.Join(close, ", "))
			}
			return nil, fault.Argument("hours_by_project."+slug, m.HoursUnknown.In("en", slug, en), m.HoursUnknown.In("fr", slug, fr))
		}
		hours[slug] = given[slug].(float64)
		sum += hours[slug]
	}
	var left []string
	for _, slug := range slices.Sorted(maps.Keys(totals.SessionsByProject)) {
		if _, ok := hours[slug]; !ok {
			left = append(left, slug)
		}
	}
	// The sum of decimal hours, to a thousandth of an hour (no float
	// noise such as 20.799999999999997 in the note).
	totals.HoursByProject, totals.TotalHours = hours, math.Round(sum*1000)/1000
	return left, nil
}

// weekSessions finds the sessions of week, sorted. It reads, in as few
// rounds as it can: the three parent folders (with extra files, in the
// same round); then every folder's archives/ listing (only the names
// worklog.Patterns keeps); then the content of the candidates; never
// another archive's content. It also returns every project folder found.
func weekSessions(env *Env, week worklog.Week, extra []string) ([]worklog.Found, []vault.Project, []string, error) {
	folders, err := vault.Folders(env.View, extra)
	if err != nil {
		return nil, nil, nil, err
	}
	var projects []vault.Project
	var dirs []string
	for _, p := range folders {
		if p.Kind == vault.KindDomain && p.Slug == worklog.Domain {
			continue
		}
		projects = append(projects, p)
		dirs = append(dirs, p.Dir+"/archives")
	}
	listings, err := weekListings(env.View, week, dirs)
	if err != nil {
		return nil, nil, nil, err
	}
	found, warnings, err := readSessions(env, worklog.Candidates(week, projects, dirs, listings), week)
	if err != nil {
		return nil, nil, nil, err
	}
	worklog.Sort(found)
	return found, folders, warnings, nil
}

// weekListings lists, in one round, the names of each of dirs that can be
// sessions of week.
func weekListings(v *vault.View, week worklog.Week, dirs []string) ([][]string, error) {
	patterns := worklog.Patterns(week)
	matches := make([]vault.Match, len(dirs))
	for i, d := range dirs {
		matches[i] = vault.Match{Dir: d, Patterns: patterns}
	}
	if err := v.Ask(vault.Need{Matches: matches}); err != nil {
		return nil, err
	}
	listings := make([][]string, len(dirs))
	for i, m := range matches {
		entries, err := v.Match(m)
		if err != nil && !errors.Is(err, vault.ErrNotExist) {
			return nil, err
		}
		listings[i] = entries
	}
	return listings, nil
}

// readSessions reads the candidates in one round and keeps the sessions of
// week, with a warning for each archive left out or listed from its name.
func readSessions(env *Env, cands []worklog.Candidate, week worklog.Week) ([]worklog.Found, []string, error) {
	files := make([]string, len(cands))
	for i, c := range cands {
		files[i] = c.Path
	}
	if err := env.View.Ask(vault.Need{Files: files}); err != nil {
		return nil, nil, err
	}
	warnings := []string{}
	var out []worklog.Found
	for _, c := range cands {
		content, err := env.View.Read(c.Path)
		if err != nil {
			return nil, nil, err
		}
		s, outcome, problem := worklog.Read(c, content, week, env.Now.Location())
		why := env.say(worklogText().Msg.BadFrontmatter, problem.Line)
		if problem.NotUTF8 {
			why = env.say(worklogText().Msg.NotUTF8)
		}
		switch outcome {
		case worklog.Unreadable:
			warnings = append(warnings, env.say(worklogText().Msg.Unreadable, c.Path, why))
		case worklog.Undated:
			warnings = append(warnings, env.say(worklogText().Msg.Undated, c.Path))
		case worklog.NameOnly:
			warnings = append(warnings, env.say(worklogText().Msg.NameOnly, c.Path, why))
		}
		if s != nil {
			out = append(out, *s)
		}
	}
	return out, warnings, nil
}

// offDayWarnings warns of each day whose sessions count no hours.
func offDayWarnings(env *Env, days []worklog.Day) []string {
	var out []string
	for i, d := range days {
		if !d.Worked && len(d.Sessions) > 0 {
			out = append(out, env.say(worklogText().Msg.OffDay, len(d.Sessions), env.say(worklogText().Msg.Days[i]), d.Date))
		}
	}
	return out
}

// hoursList writes hours as "slug 3.5 h, other 2 h", most hours first.
func hoursList(hours map[string]float64) string {
	var parts []string
	for _, k := range worklog.ByHours(hours) {
		parts = append(parts, fmt.Sprintf("%s %s h", k, worklog.FormatHours(hours[k])))
	}
	return strings.Join(parts, ", ")
}

// collectSummary is the Markdown summary of phase collect.
func collectSummary(env *Env, w *worklogWeek, days []worklog.Day) string {
	head := fmt.Sprintf("**%s** (%s → %s)", w.Week, w.Start, w.End)
	if w.Sessions == 0 {
		return env.say(worklogText().Msg.NoSession, head)
	}
	var b strings.Builder
	b.WriteString(env.say(worklogText().Msg.Head, head, w.Sessions, worklog.FormatHours(w.TotalHours)))
	for i, d := range days {
		if len(d.Sessions) == 0 {
			continue
		}
		name := env.say(worklogText().Msg.Days[i])
		if d.Worked {
			b.WriteString(env.say(worklogText().Msg.DayHours, name, d.Date, hoursList(d.HoursByProject)))
		} else {
			b.WriteString(env.say(worklogText().Msg.DayOff, name, d.Date))
		}
		for _, s := range d.Sessions {
			at := ""
			if s.Time != nil {
				at = *s.Time + " "
			}
			fmt.Fprintf(&b, "  - %s%s — %s\n", at, s.Project, s.Subject)
		}
	}
	b.WriteString(env.say(worklogText().Msg.Week, hoursList(w.HoursByProject)))
	b.WriteString(env.say(worklogText().Msg.Next))
	return b.String()
}

// persistWorklog writes the week's note, its history line, and the
// worklogs domain when it is missing, after refusing a project that holds
// the domain's slug.
func persistWorklog(env *Env, a *worklogArgs, res *worklogPersist, dom vault.Project, week worklog.Week, totals worklog.Totals, folders []vault.Project, kit bool) (any, plan.Plan, error) {
	for _, f := range folders {
		if f.Slug == worklog.Domain && f.Kind != vault.KindDomain {
			return nil, nil, worklogText().Msg.IsProject.Err(fault.SlugConflict, map[string]any{"slug": worklog.Domain, "places": []string{f.Dir, dom.Dir}}, f.Dir, dom.Dir)
		}
	}
	if res.Sessions == 0 && a.HoursByProject == nil {
		res.Warnings = append(res.Warnings, env.say(worklogText().Msg.NoHours))
	}
	text, err := worklog.Note(week, a.AmplitudeHours, totals, worklog.Texts{Brief: *a.BriefMD, Digest: *a.DigestMD, Detailed: *a.DetailedMD},
		worklog.Labels{Title: env.say(worklogText().Msg.Title), Chart: env.say(worklogText().Msg.Chart), NoHours: env.say(worklogText().Msg.NoChart)}, kit)
	if err != nil {
		return nil, nil, fault.Internalf("writing the worklog: %v", err)
	}
	file := strings.TrimPrefix(res.Note, dom.Dir+"/archives/")
	noteOps, err := worklogNoteOp(env, res, text)
	if err != nil {
		return nil, nil, err
	}
	res.HistoryLine = history.WeekLine(res.Week, file)
	if kit {
		res.HistoryLine = worklog.KitLine(week)
	}
	histOps, err := worklogHistoryOp(env, res, dom, file)
	if err != nil {
		return nil, nil, err
	}
	domOps, err := worklogDomainOp(env, res, dom, week, kit)
	if err != nil {
		return nil, nil, err
	}
	res.SummaryMD = persistSummary(env, res, strings.TrimSuffix(file, ".md"))
	return res, append(append(noteOps, histOps...), domOps...), nil
}

// persistSummary says what persist did to the note stem.
func persistSummary(env *Env, res *worklogPersist, stem string) string {
	hours := worklog.FormatHours(res.TotalHours)
	var s string
	switch res.Status {
	case "created":
		s = env.say(worklogText().Msg.Created, res.Week, stem, hours)
	case "replaced":
		s = env.say(worklogText().Msg.Replaced, res.Week, stem, hours)
	default:
		s = env.say(worklogText().Msg.Unchanged, res.Week, stem)
	}
	if res.DomainCreated {
		s += env.say(worklogText().Msg.DomainMade)
	}
	return s
}

// worklogNoteOp writes the note: created, or replaced when its text
// changes.
func worklogNoteOp(env *Env, res *worklogPersist, text string) (plan.Plan, error) {
	old, err := env.View.Read(res.Note)
	switch {
	case err != nil:
		return nil, err
	case !old.Exists:
		res.Status = "created"
	case !old.NotUTF8 && old.Text == text:
		res.Status = "unchanged"
		return nil, nil
	default:
		res.Status = "replaced"
	}
	return plan.Plan{plan.WriteOp(res.Note, old.Expect, text)}, nil
}

// worklogHistoryOp adds the note's line (res.HistoryLine) to the domain's
// history.md, once.
func worklogHistoryOp(env *Env, res *worklogPersist, dom vault.Project, file string) (plan.Plan, error) {
	hist, err := env.View.ReadText(dom.History())
	if err != nil {
		return nil, err
	}
	if !hist.Exists {
		hist.Text = history.Title(worklog.Domain)
	}
	if _, ok := history.Find(hist.Text, file); ok {
		return nil, nil
	}
	res.HistoryLineAdded = true
	return plan.Plan{plan.WriteOp(dom.History(), hist.Expect, history.Insert(hist.Text, res.HistoryLine))}, nil
}

// worklogDomainOp creates the domain's context.md, only when missing; in
// a vault holding the memory-kit's week notes (kit), an existing context
// says which week was persisted last, as the kit's worklog writes it, in
// its phase, last-session, "Dernier relevé" line and the lines under it
// (worklog.KitContext), so the kit's health scan and its users see the
// week Kessho wrote, and the file does not contradict itself.
func worklogDomainOp(env *Env, res *worklogPersist, dom vault.Project, week worklog.Week, kit bool) (plan.Plan, error) {
	ctx, err := env.View.Read(dom.Context())
	if err != nil {
		return nil, err
	}
	if ctx.Exists {
		if !kit || ctx.NotUTF8 {
			return nil, nil
		}
		r := worklog.KitRecord{Week: week, Amplitude: res.AmplitudeHours, Hours: res.HoursByProject, Now: env.Now}
		if text := worklog.KitContext(env.docs(), ctx.Text, r); text != ctx.Text {
			return plan.Plan{plan.WriteOp(dom.Context(), ctx.Expect, text)}, nil
		}
		return nil, nil
	}
	f := note.Fields{{Key: "slug", Node: note.Str(worklog.Domain)}, {Key: "kind", Node: note.Str("domain")},
		{Key: "created", Node: note.Stamp(env.Now.Format("2006-01-02"))}, {Key: "summary", Node: note.Str(env.say(worklogText().Msg.DomainSummary))}}
	text, err := f.Render(env.say(worklogText().Msg.DomainBody))
	if err != nil {
		return nil, fault.Internalf("writing the worklogs domain: %v", err)
	}
	res.DomainCreated = true
	return plan.Plan{plan.WriteOp(dom.Context(), plan.Absent, text)}, nil
}
