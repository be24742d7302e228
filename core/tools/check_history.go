package tools

import (
	"slices"
	"strings"

	"github.com/kessho/kessho/core/history"
	"github.com/kessho/kessho/core/hygiene"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
)

// projects checks that no slug is in two places and each project's
// history.md against its archives/.
func (c *checker) projects() error {
	t := checkText().Msg
	found, err := vault.Folders(c.env.View, nil)
	if err != nil {
		return err
	}
	bySlug := map[string][]vault.Project{}
	for _, p := range found {
		k := strings.ToLower(p.Slug)
		bySlug[k] = append(bySlug[k], p)
	}
	// Each history.md is parsed on its own (goldmark): at once, as the
	// notes are (inParallel), the findings kept in the projects' order.
	// Read first, in turn: a read the View lacks is a need it records.
	// A history.md the tree of the first round does not hold is absent,
	// as the host would answer (the repair's create expects so): read, it
	// would cost a round, each redoing the whole check.
	histories := make([]vault.Content, len(found))
	for i, p := range found {
		if _, ok := slices.BinarySearch(c.files, p.History()); !ok {
			histories[i] = vault.Content{Path: p.History(), Expect: plan.Absent}
			continue
		}
		if histories[i], err = c.env.View.Read(p.History()); err != nil {
			return err
		}
	}
	checks := make([]historyCheck, len(found))
	inParallel(len(found), func(i int) { checks[i] = c.history(found[i], histories[i]) })
	for _, hc := range checks {
		if hc.err != nil {
			return hc.err
		}
		c.found = append(c.found, hc.found...)
		c.repairs = append(c.repairs, hc.repairs...)
	}
	for _, p := range found {
		for _, o := range bySlug[strings.ToLower(p.Slug)] {
			if o.Dir != p.Dir {
				c.add(FindSlugTwice, p.Dir, 0, c.env.say(t.SlugTwice, p.Slug, o.Dir), c.env.say(t.SlugTwiceFix), false)
				break
			}
		}
	}
	return nil
}

// archivesOf is the names of the .md files right in p's archives/.
func (c *checker) archivesOf(p vault.Project) []string {
	prefix := p.Dir + "/archives/"
	i, _ := slices.BinarySearch(c.files, prefix)
	var out []string
	for ; i < len(c.files) && strings.HasPrefix(c.files[i], prefix); i++ {
		name := c.files[i][len(prefix):]
		if !strings.Contains(name, "/") && strings.HasSuffix(name, ".md") && !strings.Contains(name, conflictMark) {
			out = append(out, name)
		}
	}
	return out
}

// historyCheck is what checking one project's history found: its
// findings and the repair's write.
type historyCheck struct {
	found   []Finding
	repairs plan.Plan
	err     error
}

// history checks p's history.md against its archives and records the
// mechanical repair: the lines of the archives it misses (history.md
// created when missing), without the lines of archives gone. It reads
// only what is shared, so projects are checked at once.
func (c *checker) history(p vault.Project, h vault.Content) (hc historyCheck) {
	t := checkText().Msg
	say := c.env.say
	add := func(code, path string, line int, msg, fix string) {
		hc.found = append(hc.found, Finding{Code: code, Path: path, Line: line, Message: msg, Fix: fix, Mechanical: true})
	}
	listing := c.archivesOf(p)
	if h.NotUTF8 || !h.Exists && len(listing) == 0 {
		return hc
	}
	text := h.Text
	if !h.Exists {
		add(FindNoHistory, p.History(), 0, say(t.NoHistory), say(t.NoHistoryFix))
		text = history.Title(p.Slug)
		if c.kit { // the kit's history.md, as its mem_init_project writes it
			var err error
			if text, err = kitHistory(contextNote{Slug: p.Slug, Kind: p.Type()}); err != nil {
				hc.err = err
				return hc
			}
		}
	}
	fixed := text
	var missing []string
	for _, a := range history.Archives(p, text, listing) {
		switch {
		case a.Entry == nil:
			missing = append(missing, a.Name)
			if h.Exists {
				add(FindNotInHistory, a.Path, 0, say(t.NotInHistory), say(t.NotInHistoryFix))
			}
		case !a.Exists && a.Name != "":
			add(FindHistoryDangling, p.History(), lineOf(text, strings.Index(text, a.Entry.Line)),
				say(t.HistoryDangling, a.Path), say(t.HistoryDanglingFix))
			if it, ok := history.Find(fixed, a.Name); ok {
				fixed = history.Remove(fixed, it)
			}
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		fixed = history.Insert(fixed, archiveLine(p, missing[i]))
	}
	if fixed != h.Text || !h.Exists {
		hc.repairs = plan.Plan{plan.WriteOp(p.History(), h.Expect, fixed)}
	}
	return hc
}

// archiveLine is the history line of archive name of p: its date and
// time from its name, its subject the rest of the name after the slug.
func archiveLine(p vault.Project, name string) string {
	stem := strings.TrimSuffix(name, ".md")
	date, hhmm := "", ""
	if st, ok := history.Stamp(name); ok {
		date, hhmm, _ = strings.Cut(st, " ")
		hhmm = strings.Replace(hhmm, ":", "h", 1)
	}
	subject := stem
	if len(stem) > 17 && date != "" {
		subject = strings.TrimPrefix(stem[17:], p.Slug+"-")
	}
	subject = strings.ReplaceAll(subject, "-", " ")
	if date == "" {
		return "- [" + subject + "](archives/" + name + ")"
	}
	return history.Line(date, hhmm, subject, name)
}

// hygiene checks memory/SESSION_LOG.md and memory/ACTIVE_PRIORITIES.md
// when the vault holds either.
func (c *checker) hygiene() error {
	_, hasLog := slices.BinarySearch(c.files, SessionLogPath)
	_, hasPrio := slices.BinarySearch(c.files, PrioritiesPath)
	if !hasLog && !hasPrio {
		return nil
	}
	texts := [2]string{}
	for i, p := range []string{SessionLogPath, PrioritiesPath} {
		f, err := c.env.View.Read(p)
		if err != nil {
			return err
		}
		texts[i] = f.Text
	}
	r := hygiene.Check(texts[0], texts[1])
	if !r.Pass {
		t := checkText().Msg
		at := SessionLogPath
		if !hasLog {
			at = PrioritiesPath
		}
		c.add(FindHygiene, at, 0, c.env.say(t.Hygiene, r.Line()), c.env.say(t.HygieneFix), false)
	}
	return nil
}
