package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"kessho/core/catalog"
	"kessho/core/fault"
	"kessho/core/history"
	"kessho/core/note"
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

type worklogArgs struct {
	Phase          string  `json:"phase"`
	WeekOf         string  `json:"week_of"`
	AmplitudeHours float64 `json:"amplitude_hours"`
	IncludeWeekend bool    `json:"include_weekend"`
	BriefMD        *string `json:"brief_md"`
	DetailedMD     *string `json:"detailed_md"`
	DigestMD       *string `json:"digest_md"`
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
	Days []worklog.Day `json:"days"`
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

// worklogMsg is mem_worklog's messages.
var worklogMsg = struct {
	notQuarters, notDate, persistOnly, persistNeeds                fault.Msg
	notUTF8, badFrontmatter, unreadable, undated, nameOnly, offDay fault.Msg
	days                                                           [7]fault.Msg
	noSession, head, dayHours, dayOff, week, next                  fault.Msg
	isProject, noHours, created, replaced, unchanged, domainMade   fault.Msg
	title, chart, noChart, domainSummary, domainBody               fault.Msg
}{
	notQuarters: fault.Msg{
		En: "is %s, not a whole number of quarter hours (a day's hours are split in quarter hours and must sum to it); pass e.g. %s or %s",
		Fr: "vaut %s, pas un nombre entier de quarts d'heure (les heures d'un jour se répartissent au quart d'heure et doivent y sommer) ; passez par ex. %s ou %s"},
	notDate: fault.Msg{
		En: "%q is not a date YYYY-MM-DD (e.g. 2026-11-30); any day of the wanted week will do",
		Fr: "%q n'est pas une date AAAA-MM-JJ (par ex. 2026-11-30) ; n'importe quel jour de la semaine voulue convient"},
	persistOnly: fault.Msg{
		En: `only applies to phase "persist"; collect first (it writes nothing), then pass the three texts with phase "persist"`,
		Fr: `ne vaut qu'en phase « persist » ; faites d'abord collect (qui n'écrit rien), puis passez les trois textes avec phase « persist »`},
	persistNeeds: fault.Msg{
		En: `is required with phase "persist" and must not be blank: write it from what phase "collect" returned`,
		Fr: `est obligatoire en phase « persist » et ne doit pas être vide : rédigez-le d'après ce qu'a renvoyé la phase « collect »`},
	notUTF8:        fault.Msg{En: "is not UTF-8 text", Fr: "n'est pas du texte UTF-8"},
	badFrontmatter: fault.Msg{En: "has invalid frontmatter (line %d)", Fr: "a un frontmatter invalide (ligne %d)"},
	unreadable: fault.Msg{En: "%s %s and has no date in its name: left out",
		Fr: "%s %s et son nom ne porte pas de date : laissée de côté"},
	undated: fault.Msg{En: "%s has no date, neither in its name nor in its frontmatter: left out",
		Fr: "%s n'a pas de date, ni dans son nom ni dans son frontmatter : laissée de côté"},
	nameOnly: fault.Msg{En: "%s %s: listed from its name only", Fr: "%s %s : listée d'après son nom seulement"},
	offDay: fault.Msg{En: "%d session(s) on %s %s, not a worked day: listed with 0 h (include_weekend counts weekends)",
		Fr: "%d session(s) le %s %s, jour non travaillé : listée(s) avec 0 h (include_weekend compte les week-ends)"},
	days: [7]fault.Msg{{En: "Monday", Fr: "lundi"}, {En: "Tuesday", Fr: "mardi"}, {En: "Wednesday", Fr: "mercredi"},
		{En: "Thursday", Fr: "jeudi"}, {En: "Friday", Fr: "vendredi"}, {En: "Saturday", Fr: "samedi"}, {En: "Sunday", Fr: "dimanche"}},
	noSession: fault.Msg{En: "No archived session in %s.", Fr: "Aucune session archivée en %s."},
	head:      fault.Msg{En: "%s: %d session(s), %s h.\n\n", Fr: "%s : %d session(s), %s h.\n\n"},
	dayHours:  fault.Msg{En: "- %s %s: %s\n", Fr: "- %s %s : %s\n"},
	dayOff:    fault.Msg{En: "- %s %s: not a worked day (0 h)\n", Fr: "- %s %s : jour non travaillé (0 h)\n"},
	week:      fault.Msg{En: "\nWeek: %s.\n\n", Fr: "\nSemaine : %s.\n\n"},
	next: fault.Msg{En: "Next: write brief_md, digest_md and detailed_md from these sessions, then call mem_worklog with phase=persist and the same week_of.",
		Fr: "Ensuite : rédigez brief_md, digest_md et detailed_md d'après ces sessions, puis appelez mem_worklog avec phase=persist et le même week_of."},
	isProject: fault.Msg{En: "%s is a project, but worklogs are written to the domain %s; rename that project, nothing was written",
		Fr: "%s est un projet, mais les journaux s'écrivent dans le domaine %s ; renommez ce projet, rien n'a été écrit"},
	noHours: fault.Msg{En: "no archived session this week: the worklog holds no hours",
		Fr: "aucune session archivée cette semaine : le journal ne compte aucune heure"},
	created:    fault.Msg{En: "Worklog **%s** written: [[%s]] (%s h).", Fr: "Journal **%s** écrit : [[%s]] (%s h)."},
	replaced:   fault.Msg{En: "Worklog **%s** replaced: [[%s]] (%s h).", Fr: "Journal **%s** remplacé : [[%s]] (%s h)."},
	unchanged:  fault.Msg{En: "Worklog **%s** unchanged: [[%s]] already holds these texts and hours.", Fr: "Journal **%s** inchangé : [[%s]] contient déjà ces textes et ces heures."},
	domainMade: fault.Msg{En: " Domain worklogs created.", Fr: " Domaine worklogs créé."},
	title:      fault.Msg{En: "Worklog", Fr: "Journal"},
	chart:      fault.Msg{En: "Hours by project", Fr: "Heures par projet"},
	noChart:    fault.Msg{En: "_No worked hours this week._", Fr: "_Aucune heure travaillée cette semaine._"},
	domainSummary: fault.Msg{En: "Weekly worklogs, one note a week, written by mem_worklog.",
		Fr: "Journaux hebdomadaires, une note par semaine, écrits par mem_worklog."},
	domainBody: fault.Msg{En: "# worklogs\n\nOne worklog a week in archives/, written by mem_worklog (phase persist); history.md lists them.\n",
		Fr: "# worklogs\n\nUn journal par semaine dans archives/, écrit par mem_worklog (phase persist) ; history.md les liste.\n"},
}

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
	dom := vault.Project{Slug: worklog.Domain, Kind: vault.KindDomain, Dir: vault.Dir(vault.KindDomain, worklog.Domain)}
	notePath := fmt.Sprintf("%s/archives/%s-worklog.md", dom.Dir, week)
	var extra []string
	if a.Phase == "persist" {
		extra = []string{dom.Context(), dom.History(), notePath}
	}
	found, folders, warnings, err := weekSessions(env, week, extra)
	if err != nil {
		return nil, nil, err
	}
	totals, days := worklog.Prorate(week, found, quarters, a.IncludeWeekend)
	warnings = append(warnings, offDayWarnings(env, days)...)
	w := WorklogWeek{Phase: a.Phase, Week: week.String(), Start: week.Start().String(), End: week.End().String(),
		AmplitudeHours: a.AmplitudeHours, IncludeWeekend: a.IncludeWeekend, Sessions: totals.Sessions,
		TotalHours: totals.TotalHours, HoursByProject: totals.HoursByProject, SessionsByProject: totals.SessionsByProject}
	if a.Phase != "persist" {
		out := &WorklogCollect{WorklogWeek: w, Days: days, Common: Common{Warnings: warnings}}
		out.SummaryMD = collectSummary(env, &w, days)
		return out, nil, nil
	}
	res := &WorklogPersist{WorklogWeek: w, Note: notePath, Common: Common{Warnings: warnings}}
	return persistWorklog(env, &a, res, dom, week, totals, folders)
}

// argument is INVALID_ARGUMENT naming param, its message m formatted with
// args.
func argument(param string, m fault.Msg, args ...any) error {
	return fault.Argument(param, m.In("en", args...), m.In("fr", args...))
}

// checkWorklogArgs refuses what the arguments alone make wrong and returns
// the amplitude in quarter hours and the week.
func checkWorklogArgs(env *Env, a *worklogArgs) (int, worklog.Week, error) {
	quarters, ok := worklog.Quarters(a.AmplitudeHours)
	if !ok {
		lo := float64(int(a.AmplitudeHours*4)) / 4
		return 0, worklog.Week{}, argument("amplitude_hours", worklogMsg.notQuarters,
			worklog.FormatHours(a.AmplitudeHours), worklog.FormatHours(lo), worklog.FormatHours(lo+0.25))
	}
	day := worklog.DateOf(env.Now)
	if w := strings.TrimSpace(a.WeekOf); w != "" {
		d, err := worklog.ParseDate(w)
		if err != nil {
			return 0, worklog.Week{}, argument("week_of", worklogMsg.notDate, a.WeekOf)
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
			return 0, worklog.Week{}, argument(t.name, worklogMsg.persistOnly)
		case a.Phase == "persist" && (t.v == nil || strings.TrimSpace(*t.v) == ""):
			return 0, worklog.Week{}, argument(t.name, worklogMsg.persistNeeds)
		}
	}
	return quarters, worklog.WeekOf(day), nil
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
		why := env.Say(worklogMsg.badFrontmatter, problem.Line)
		if problem.NotUTF8 {
			why = env.Say(worklogMsg.notUTF8)
		}
		switch outcome {
		case worklog.Unreadable:
			warnings = append(warnings, env.Say(worklogMsg.unreadable, c.Path, why))
		case worklog.Undated:
			warnings = append(warnings, env.Say(worklogMsg.undated, c.Path))
		case worklog.NameOnly:
			warnings = append(warnings, env.Say(worklogMsg.nameOnly, c.Path, why))
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
			out = append(out, env.Say(worklogMsg.offDay, len(d.Sessions), env.Say(worklogMsg.days[i]), d.Date))
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
func collectSummary(env *Env, w *WorklogWeek, days []worklog.Day) string {
	head := fmt.Sprintf("**%s** (%s → %s)", w.Week, w.Start, w.End)
	if w.Sessions == 0 {
		return env.Say(worklogMsg.noSession, head)
	}
	var b strings.Builder
	b.WriteString(env.Say(worklogMsg.head, head, w.Sessions, worklog.FormatHours(w.TotalHours)))
	for i, d := range days {
		if len(d.Sessions) == 0 {
			continue
		}
		name := env.Say(worklogMsg.days[i])
		if d.Worked {
			b.WriteString(env.Say(worklogMsg.dayHours, name, d.Date, hoursList(d.HoursByProject)))
		} else {
			b.WriteString(env.Say(worklogMsg.dayOff, name, d.Date))
		}
		for _, s := range d.Sessions {
			at := ""
			if s.Time != nil {
				at = *s.Time + " "
			}
			fmt.Fprintf(&b, "  - %s%s — %s\n", at, s.Project, s.Subject)
		}
	}
	b.WriteString(env.Say(worklogMsg.week, hoursList(w.HoursByProject)))
	b.WriteString(env.Say(worklogMsg.next))
	return b.String()
}

// persistWorklog writes the week's note, its history line, and the
// worklogs domain when it is missing, after refusing a project that holds
// the domain's slug.
func persistWorklog(env *Env, a *worklogArgs, res *WorklogPersist, dom vault.Project, week worklog.Week, totals worklog.Totals, folders []vault.Project) (any, plan.Plan, error) {
	for _, f := range folders {
		if f.Slug == worklog.Domain && f.Kind != vault.KindDomain {
			return nil, nil, worklogMsg.isProject.Err(fault.SlugConflict, map[string]any{"slug": worklog.Domain, "places": []string{f.Dir, dom.Dir}}, f.Dir, dom.Dir)
		}
	}
	if res.Sessions == 0 {
		res.Warnings = append(res.Warnings, env.Say(worklogMsg.noHours))
	}
	text, err := worklog.Note(week, a.AmplitudeHours, totals, worklog.Texts{Brief: *a.BriefMD, Digest: *a.DigestMD, Detailed: *a.DetailedMD},
		worklog.Labels{Title: env.Say(worklogMsg.title), Chart: env.Say(worklogMsg.chart), NoHours: env.Say(worklogMsg.noChart)})
	if err != nil {
		return nil, nil, fault.Internalf("writing the worklog: %v", err)
	}
	file := strings.TrimPrefix(res.Note, dom.Dir+"/archives/")
	noteOps, err := worklogNoteOp(env, res, text)
	if err != nil {
		return nil, nil, err
	}
	histOps, err := worklogHistoryOp(env, res, dom, file)
	if err != nil {
		return nil, nil, err
	}
	domOps, err := worklogDomainOp(env, res, dom)
	if err != nil {
		return nil, nil, err
	}
	res.SummaryMD = persistSummary(env, res, strings.TrimSuffix(file, ".md"))
	return res, append(append(noteOps, histOps...), domOps...), nil
}

// persistSummary says what persist did to the note stem.
func persistSummary(env *Env, res *WorklogPersist, stem string) string {
	hours := worklog.FormatHours(res.TotalHours)
	var s string
	switch res.Status {
	case "created":
		s = env.Say(worklogMsg.created, res.Week, stem, hours)
	case "replaced":
		s = env.Say(worklogMsg.replaced, res.Week, stem, hours)
	default:
		s = env.Say(worklogMsg.unchanged, res.Week, stem)
	}
	if res.DomainCreated {
		s += env.Say(worklogMsg.domainMade)
	}
	return s
}

// worklogNoteOp writes the note: created, or replaced when its text
// changes.
func worklogNoteOp(env *Env, res *WorklogPersist, text string) (plan.Plan, error) {
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

// worklogHistoryOp adds the note's line to the domain's history.md, once.
func worklogHistoryOp(env *Env, res *WorklogPersist, dom vault.Project, file string) (plan.Plan, error) {
	res.HistoryLine = history.WeekLine(res.Week, file)
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

// worklogDomainOp creates the domain's context.md, only when missing.
func worklogDomainOp(env *Env, res *WorklogPersist, dom vault.Project) (plan.Plan, error) {
	ctx, err := env.View.Read(dom.Context())
	if err != nil || ctx.Exists {
		return nil, err
	}
	f := note.Fields{{Key: "slug", Node: note.Str(worklog.Domain)}, {Key: "kind", Node: note.Str("domain")},
		{Key: "created", Node: note.Stamp(env.Now.Format("2006-01-02"))}, {Key: "summary", Node: note.Str(env.Say(worklogMsg.domainSummary))}}
	text, err := f.Render(env.Say(worklogMsg.domainBody))
	if err != nil {
		return nil, fault.Internalf("writing the worklogs domain: %v", err)
	}
	res.DomainCreated = true
	return plan.Plan{plan.WriteOp(dom.Context(), plan.Absent, text)}, nil
}
