// Package genvault writes the vaults `make bench` measures: N notes in the
// layout the Python memory-kit (SecondBrain) leaves behind, from a fixed
// seed, byte for byte the same on every run.
//
//	10-episodes/projects|domains|archived/<slug>/{context.md,history.md,archives/…}
//	10-episodes/domains/worklogs/            weekly worklog notes, as the kit writes them
//	20-knowledge/<sub>/, 40-principles/<scope>/, 50-goals/<horizon>/   atoms, each zone with index.md
//	00-inbox/, 30-procedures/, 60-people/, 70-cognition/, 99-meta/     a few notes and an index.md
//	memory/SESSION_LOG.md, memory/ACTIVE_PRIORITIES.md                 for mem_context_hygiene
//
// Archives are named and shaped as mem_archive writes them
// (YYYY-MM-DD-HHhMM-<slug>-<subject>.md, the kit's frontmatter, a body
// with Done, Decisions and Next steps), dated over the two years before
// 2026-11-29, so the vault's every week holds its share of sessions, and
// each folder has one in the last week: at 50,000 notes a week holds
// hundreds, the last one more.
//
// Two projects have the same shape in every vault, whatever N: Target
// (what the one-project tools act on) and Shelf (what mem_historize moves
// back and forth), each TargetArchives archives with the same text, so a
// one-project tool's time at 1k and at 50k compares the same work.
//
// Files are written directly (no tool, no journal, no fsync): generation
// is a matter of seconds even at 50,000 notes. [Cached] keeps a generated
// vault in a cache folder and reuses it while Version, the seed and N are
// unchanged.
package genvault

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Version names the generator's output: change it whenever a change here
// changes a byte of a generated vault, so cached vaults are made again.
const Version = 1

// Config says what to generate.
type Config struct {
	Notes int    // how many .md files in all (at least MinNotes)
	Seed  uint64 // the random choices; the same seed gives the same vault
}

// Manifest says what a generated vault holds, for the benchmarks and the
// tests that use it.
type Manifest struct {
	Notes    int      `json:"notes"`
	Projects []string `json:"projects"` // active projects (10-episodes/projects), sorted
	Domains  []string `json:"domains"`  // domains, worklogs included, sorted
	Archived []string `json:"archived"` // archived projects, sorted
	// Target and Shelf are active projects of the same shape in every
	// vault: TargetArchives archives each, the same text whatever Notes.
	Target         string `json:"target"`
	Shelf          string `json:"shelf"`
	TargetArchives int    `json:"target_archives"`
	// Week is a day of the last full week before Now; WeekSessions is how
	// many archives (worklogs aside) that week holds.
	Week         string `json:"week"`
	WeekSessions int    `json:"week_sessions"`
}

// Now is the moment the generated vaults are as of: a Monday, the day
// after the last week their archives fill.
var Now = time.Date(2026, 11, 30, 9, 15, 0, 0, time.UTC)

const (
	// TargetArchives is the size of the two fixed projects.
	TargetArchives = 40
	// worklogWeeks is how many past weeks have a worklog note.
	worklogWeeks = 26
	// spanDays is how far back the archives go.
	spanDays = 728
	// MinNotes is the smallest vault: the fixed part and one folder.
	MinNotes = 2*(TargetArchives+2) + (worklogWeeks + 2) + 6 + 3 + 2 + 4*2
)

// lastSunday is the last day of the week Manifest.Week names.
var lastSunday = time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)

// Generate writes the vault c describes into dir (which must be empty or
// absent) and returns its manifest.
func Generate(dir string, c Config) (Manifest, error) {
	if c.Notes < MinNotes {
		return Manifest{}, fmt.Errorf("genvault: %d notes asked, at least %d needed", c.Notes, MinNotes)
	}
	g := &gen{dir: dir, rng: rand.New(rand.NewPCG(c.Seed, 0x6b657373686f)), seed: c.Seed, dirs: map[string]bool{}}
	m := g.vault(c.Notes)
	if g.err != nil {
		return Manifest{}, g.err
	}
	if g.notes != c.Notes {
		return Manifest{}, fmt.Errorf("genvault: wrote %d notes, meant %d", g.notes, c.Notes)
	}
	m.Notes = g.notes
	return m, nil
}

// gen writes one vault; the first error stops it.
type gen struct {
	dir   string
	rng   *rand.Rand
	seed  uint64
	dirs  map[string]bool
	notes int
	err   error
}

func (g *gen) write(rel, text string) {
	if g.err != nil {
		return
	}
	p := filepath.Join(g.dir, filepath.FromSlash(rel))
	if d := filepath.Dir(p); !g.dirs[d] {
		if g.err = os.MkdirAll(d, 0o755); g.err != nil {
			return
		}
		g.dirs[d] = true
	}
	g.err = os.WriteFile(p, []byte(text), 0o644)
	if strings.HasSuffix(rel, ".md") {
		g.notes++
	}
}

// vault writes every part, the fixed ones first, then fills up to notes.
func (g *gen) vault(notes int) Manifest {
	m := Manifest{Target: "bench-target", Shelf: "bench-shelf", TargetArchives: TargetArchives,
		Week: lastSunday.AddDate(0, 0, -3).Format("2006-01-02")}
	// The fixed projects draw from their own generator, so that they are
	// the same whatever the rest of the vault.
	for _, slug := range []string{m.Target, m.Shelf} {
		fixed := &gen{dir: g.dir, rng: rand.New(rand.NewPCG(g.seed, 1)), dirs: g.dirs}
		m.WeekSessions += fixed.folder("projects", slug, TargetArchives)
		g.notes += fixed.notes
		if fixed.err != nil {
			g.err = fixed.err
		}
	}
	m.Projects = append(m.Projects, m.Target, m.Shelf)
	g.worklogs()
	m.Domains = append(m.Domains, "worklogs")
	g.zones()
	g.memory()
	rest := notes - g.notes
	atoms := max(len(atomZones), rest*15/100)
	loose := rest * 3 / 100
	g.atoms(atoms)
	g.loose(loose)
	g.folders(notes-g.notes, &m)
	slices.Sort(m.Projects)
	slices.Sort(m.Domains)
	slices.Sort(m.Archived)
	return m
}

// folders writes project, domain and archived folders of about 100 notes
// each (context.md, history.md, archives), n notes in all, at least four
// folders: 60 % active projects, 20 % domains, 20 % archived.
func (g *gen) folders(n int, m *Manifest) {
	count := max(4, n/100)
	for i := range count {
		size := n / count
		if i < n%count {
			size++
		}
		kind, list := "projects", &m.Projects
		switch {
		case i%10 == 1 || i%10 == 6:
			kind, list = "domains", &m.Domains
		case i%10 == 2 || i%10 == 8:
			kind, list = "archived", &m.Archived
		}
		slug := fmt.Sprintf("%s-%s-%d", pick(g.rng, words), pick(g.rng, words), i)
		*list = append(*list, slug)
		m.WeekSessions += g.folder(kind, slug, size-2)
	}
}

// folder writes one project or domain with n archives; it returns how
// many fall in the manifest's week.
func (g *gen) folder(kind, slug string, n int) int {
	base := "10-episodes/" + kind + "/" + slug + "/"
	key := "project"
	if kind == "domains" {
		key = "domain"
	}
	type entry struct{ line, name string }
	var entries []entry
	taken := map[string]bool{}
	inWeek := 0
	var last time.Time
	for i := range n {
		// Every folder was worked on in the last week: its first archive
		// falls in it; the others anywhere in the two years.
		back := g.rng.IntN(spanDays)
		if i == 0 {
			back %= 7
		}
		at := lastSunday.AddDate(0, 0, -back).Add(time.Duration(8*60+g.rng.IntN(12*60)) * time.Minute)
		subject := sentence(g.rng, 2+g.rng.IntN(4))
		name := fmt.Sprintf("%s-%s-%s", at.Format("2006-01-02-15h04"), slug, kebab(subject))
		for taken[name] {
			name += "-2"
		}
		taken[name] = true
		name += ".md"
		if at.After(lastSunday.AddDate(0, 0, -6)) {
			inWeek++
		}
		if at.After(last) {
			last = at
		}
		g.write(base+"archives/"+name, g.archive(key, slug, at, subject))
		entries = append(entries, entry{fmt.Sprintf("- [%s — %s](archives/%s)", at.Format("2006-01-02 15h04"), subject, name), name})
	}
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(b.name, a.name) })
	var h strings.Builder
	fmt.Fprintf(&h, "# %s — Historique des sessions\n\n", title(slug))
	for i, e := range entries {
		if i > 0 {
			h.WriteString("\n")
		}
		h.WriteString(e.line + "\n")
	}
	if len(entries) == 0 {
		h.WriteString("_(no sessions yet — mem_archive will prepend new entries here)_\n")
	}
	g.write(base+"history.md", h.String())
	g.write(base+"context.md", g.context(kind, key, slug, last))
	return inWeek
}

// context is a context.md as the kit writes it.
func (g *gen) context(kind, key, slug string, last time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\n%s: %s\nslug: %s\nkind: %s\nzone: episodes\ntags:\n- %s/%s\n- zone/episodes\n- kind/context\nscope: %s\ncollective: false\n",
		key, slug, slug, key, key, slug, pick(g.rng, []string{"work", "personal"}))
	display := slug + " — context"
	if kind == "archived" {
		fmt.Fprintf(&b, "phase: archived\narchived_at: '%s'\n", last.AddDate(0, 0, 3).Format("2006-01-02"))
		display += " [archived]"
	} else {
		fmt.Fprintf(&b, "phase: %s\n", pick(g.rng, phases))
	}
	fmt.Fprintf(&b, "last-session: '%s'\ndisplay: %s\nrepo_path: /home/ada/src/%s\n---\n", last.Format("2006-01-02"), display, slug)
	fmt.Fprintf(&b, "# %s — context\n\n## Where we are\n%s\n\n## Decisions\n", title(slug), paragraph(g.rng, 3))
	for range 4 + g.rng.IntN(6) {
		fmt.Fprintf(&b, "- %s.\n", sentence(g.rng, 6+g.rng.IntN(8)))
	}
	fmt.Fprintf(&b, "\n## Next\n- %s.\n- %s.\n", sentence(g.rng, 6), sentence(g.rng, 5))
	return b.String()
}

// archive is an archive note as mem_archive writes it.
func (g *gen) archive(key, slug string, at time.Time, subject string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\n%s: %s\ntags:\n- %s/%s\n- zone/episodes\n- kind/archive\nzone: episodes\nkind: archive\nslug: %s\ndate: '%s'\ntime: '%s'\nsubject: %s\ndisplay: %s — %s %s\nno_derived_because: routine session\n---\n\n",
		key, slug, key, slug, slug, at.Format("2006-01-02"), at.Format("15:04"), subject, slug, at.Format("2006-01-02"), subject)
	fmt.Fprintf(&b, "## Done\n%s\n\n%s\n\n## Decisions\n", paragraph(g.rng, 4+g.rng.IntN(6)), paragraph(g.rng, 2+g.rng.IntN(4)))
	for range 1 + g.rng.IntN(3) {
		fmt.Fprintf(&b, "- %s.\n", sentence(g.rng, 6+g.rng.IntN(8)))
	}
	fmt.Fprintf(&b, "\n## Next steps\n- %s.\n- %s in /home/ada/src/%s/core.\n", sentence(g.rng, 6), sentence(g.rng, 4), slug)
	return b.String()
}

// worklogs writes the worklogs domain: a worklog note for each of the
// worklogWeeks weeks before the manifest's week (that one is left for
// mem_worklog persist), as the kit writes them.
func (g *gen) worklogs() {
	base := "10-episodes/domains/worklogs/"
	var h strings.Builder
	h.WriteString("# Worklogs — Historique des sessions\n\n")
	var last string
	for w := 1; w <= worklogWeeks; w++ {
		monday := lastSunday.AddDate(0, 0, -6-7*w)
		year, week := monday.ISOWeek()
		name := fmt.Sprintf("%s-worklog-S%02d.md", monday.Format("2006-01-02"), week)
		if last == "" {
			last = fmt.Sprintf("%d-S%02d", year, week)
		}
		g.write(base+"archives/"+name, fmt.Sprintf("---\ndomain: worklogs\ntags:\n- domain/worklogs\n- zone/episodes\n- kind/archive\nzone: episodes\nkind: archive\nslug: worklogs\ndate: '%s'\nworklog: true\nweek_number: %d\nweek_year: %d\namplitude_hours: 7\ndisplay: worklogs — Worklog S%02d\n---\n\n## Brief\n%s\n\n## Detailed\n%s\n\n## Digest\n%s\n",
			monday.Format("2006-01-02"), week, year, week, paragraph(g.rng, 3), paragraph(g.rng, 8), paragraph(g.rng, 4)))
		if w > 1 {
			h.WriteString("\n")
		}
		fmt.Fprintf(&h, "- [%s — Worklog S%02d (%s → %s)](archives/%s)\n", monday.Format("2006-01-02"), week,
			monday.Format("2006-01-02"), monday.AddDate(0, 0, 6).Format("2006-01-02"), name)
	}
	g.write(base+"history.md", h.String())
	g.write(base+"context.md", fmt.Sprintf("---\ndomain: worklogs\nslug: worklogs\nkind: domain\nzone: episodes\ntags:\n- domain/worklogs\n- zone/episodes\nphase: running\ndisplay: worklogs — context\n---\n# Worklogs — context\n\nWeekly worklogs; dernier relevé %s.\n", last))
}

// zones writes the index.md of the zones without atoms.
func (g *gen) zones() {
	for _, z := range []string{"00-inbox", "10-episodes", "30-procedures", "60-people", "70-cognition", "99-meta"} {
		g.write(z+"/index.md", fmt.Sprintf("---\nzone: %s\nkind: index\ndisplay: %s — index\n---\n# %s\n\n%s\n", z[3:], z[3:], title(z[3:]), paragraph(g.rng, 2)))
	}
}

// atomZones are the atom zones, their subfolders and kinds.
var atomZones = []struct{ zone, kind string }{{"20-knowledge", "knowledge"}, {"40-principles", "principle"}, {"50-goals", "goal"}}

var atomSubs = map[string][]string{
	"20-knowledge":  {"tech", "domain", "tools", "people", "methods"},
	"40-principles": {"work", "personal"},
	"50-goals":      {"short", "medium", "long"},
}

// atoms writes n atoms over the three atom zones (half knowledge, a
// quarter each principles and goals) and each zone's index.md listing
// them; the three indexes count in n.
func (g *gen) atoms(n int) {
	n -= len(atomZones)
	for zi, z := range atomZones {
		count := n / 4
		if zi == 0 {
			count = n - 2*(n/4)
		}
		var idx strings.Builder
		fmt.Fprintf(&idx, "---\nzone: %s\nkind: index\ndisplay: %s — index\n---\n# %s\n\n", z.zone[3:], z.zone[3:], title(z.zone[3:]))
		taken := map[string]bool{}
		for i := range count {
			fact := sentence(g.rng, 3+g.rng.IntN(5))
			name := kebab(fact)
			if taken[name] {
				name = fmt.Sprintf("%s-%d", name, i)
			}
			taken[name] = true
			sub := pick(g.rng, atomSubs[z.zone])
			created := lastSunday.AddDate(0, 0, -g.rng.IntN(spanDays)).Format("2006-01-02")
			g.write(fmt.Sprintf("%s/%s/%s.md", z.zone, sub, name), fmt.Sprintf("---\nslug: %s\nzone: %s\nkind: %s\nscope: %s\ntags:\n- zone/%s\n- kind/%s\ncreated_at: '%s'\ndisplay: %s\ntitle: %s\nsource: lived\n---\n\n# %s\n\n%s\n",
				name, z.zone[3:], z.kind, sub, z.zone[3:], z.kind, created, fact, fact, fact, paragraph(g.rng, 2+g.rng.IntN(4))))
			fmt.Fprintf(&idx, "- [[%s]]\n", name)
		}
		g.write(z.zone+"/index.md", idx.String())
	}
}

// loose writes n notes in the inbox, procedures, people and cognition.
func (g *gen) loose(n int) {
	zones := []string{"00-inbox", "30-procedures", "60-people", "70-cognition"}
	for i := range n {
		z := zones[i%len(zones)]
		t := sentence(g.rng, 2+g.rng.IntN(3))
		g.write(fmt.Sprintf("%s/%s-%d.md", z, kebab(t), i), fmt.Sprintf("---\nzone: %s\ndisplay: %s\n---\n# %s\n\n%s\n", z[3:], t, t, paragraph(g.rng, 3)))
	}
}

// memory writes the two files mem_context_hygiene reads: a session log of
// 60 blocks (its check fails: more than five) and the priorities.
func (g *gen) memory() {
	var b strings.Builder
	b.WriteString("# Session log\n\nNewest first.\n\n")
	for i := range 60 {
		d := lastSunday.AddDate(0, 0, -i).Format("2006-01-02")
		fmt.Fprintf(&b, "## %s — %s\n**Objective:** %s\n**Completed:** %s\n**Decisions:** %s\n**Open threads:** none\n**Next action:** %s\n\n",
			d, sentence(g.rng, 3), sentence(g.rng, 8), sentence(g.rng, 6), sentence(g.rng, 6), sentence(g.rng, 5))
	}
	g.write("memory/SESSION_LOG.md", b.String())
	g.write("memory/ACTIVE_PRIORITIES.md", "## Operating Mode: build\n\n## Tier 1\n- ship the benchmarks\n- keep the vault flat\n\nLast reviewed: 2026-11-20\n")
}

var phases = []string{"build", "review", "draft", "ship", "explore", "maintain"}

var words = strings.Fields(`parser cache ledger invoice proration webhook release schema index
queue backup deploy timeline review budget client server vault archive atom worklog session
planner sync mobile desktop search ranking stemmer summary journal lock plugin engine module
report export import migration refund payment tax audit metric alert dashboard tenant billing
calendar meeting roadmap hiring onboarding garden recipe travel reading running family budget
kitchen invoice contract supplier warehouse shipping printer network router firewall certificate`)

func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

// sentence is n words, the first capitalised.
func sentence(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = pick(r, words)
	}
	return title(strings.Join(w, " "))
}

// paragraph is n sentences.
func paragraph(r *rand.Rand, n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = sentence(r, 5+r.IntN(10)) + "."
	}
	return strings.Join(s, " ")
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func kebab(s string) string { return strings.ToLower(strings.ReplaceAll(s, " ", "-")) }

// TreeHash is a digest of every file under dir (its path and its bytes),
// dot-folders (.kessho, …) left out: two vaults with the same hash hold
// the same notes.
func TreeHash(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && p != dir {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(b))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil)), err
}
