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
		if err := c.history(p); err != nil {
			return err
		}
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

// history checks p's history.md against its archives and records the
// mechanical repair: the lines of the archives it misses (history.md
// created when missing), without the lines of archives gone.
func (c *checker) history(p vault.Project) error {
	t := checkText().Msg
	say := c.env.say
	listing := c.archivesOf(p)
	h, err := c.env.View.Read(p.History())
	if err != nil || h.NotUTF8 {
		return err
	}
	if !h.Exists && len(listing) == 0 {
		return nil
	}
	text := h.Text
	if !h.Exists {
		c.add(FindNoHistory, p.History(), 0, say(t.NoHistory), say(t.NoHistoryFix), true)
		text = history.Title(p.Slug)
		if c.kit { // the kit's history.md, as its mem_init_project writes it
			if text, err = kitHistory(contextNote{Slug: p.Slug, Kind: p.Type()}); err != nil {
				return err
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
				c.add(FindNotInHistory, a.Path, 0, say(t.NotInHistory), say(t.NotInHistoryFix), true)
			}
		case !a.Exists && a.Name != "":
			c.add(FindHistoryDangling, p.History(), lineOf(text, strings.Index(text, a.Entry.Line)),
				say(t.HistoryDangling, a.Path), say(t.HistoryDanglingFix), true)
			if it, ok := history.Find(fixed, a.Name); ok {
				fixed = history.Remove(fixed, it)
			}
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		fixed = history.Insert(fixed, archiveLine(p, missing[i]))
	}
	if fixed != h.Text || !h.Exists {
		c.repairs = append(c.repairs, plan.WriteOp(p.History(), h.Expect, fixed))
	}
	return nil
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
