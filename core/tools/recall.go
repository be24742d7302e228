package tools

import (
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kessho/kessho/core/atom"
	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/frontmatter"
	"github.com/kessho/kessho/core/history"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/search"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/wikilink"
	"github.com/kessho/kessho/core/worklog"
)

// recallSpec is mem_recall in the catalogue. Without a slug it answers
// the vault-wide briefing (recall_vault.go).
var recallSpec = tool[either[recallResult, recallVaultResult]](catalogText("recall.yaml"), "mem_recall", "recall slug", reads, readsArchives(), []catalog.Param{
	recallSlug,
	{Name: "archives", Type: catalog.Integer, Default: 3, Minimum: floatp(0), Maximum: floatp(20)},
	{Name: "max_chars", Type: catalog.Integer, Default: 12000, Minimum: floatp(1000), Maximum: floatp(200000)},
})

// recallArgs is recall's arguments.
type recallArgs struct {
	slugArg
	Archives int `json:"archives"`
	MaxChars int `json:"max_chars"`
}

// recallText is recall.yaml: mem_recall's messages, parsed on first use.
// Links says why a note is in the briefing, by its recallNote.Link.
var recallText = loadText[struct {
	Title, Context, NoContext, NotText, Gone, AtomsTitle, LinkedTitle, AtomMissing, Cut fault.Msg
	Links                                                                               map[string]fault.Msg
}]("recall.yaml")

// recallContext is the project's context.md in a recall.
type recallContext struct {
	Path        string         `json:"path"`
	Frontmatter map[string]any `json:"frontmatter"`
	Body        string         `json:"body"`
}

// recallArchive is one archived session in a recall.
type recallArchive struct {
	Path     string            `json:"path"`
	Date     *string           `json:"date"`
	Time     *string           `json:"time"`
	Subject  string            `json:"subject"`
	Sections []history.Section `json:"sections"`
}

// recallNote is an atom, principle or goal in a recall. Link says why it
// is there: "derived" (an archive of the recall derived it), "links_here"
// (it links to the project), "linked" (the project links to it), "both".
type recallNote struct {
	Path string `json:"path"`
	Name string `json:"name"`
	Kind string `json:"kind"`
	Link string `json:"link"`
	Text string `json:"text"`
}

// recallCut is one part mem_recall cut to fit max_chars: the file, which
// part of it, and how many of its characters were kept (0: left out).
type recallCut struct {
	Path string `json:"path"`
	Part string `json:"part"`
	Kept int    `json:"kept"`
	Of   int    `json:"of"`
}

// recallLeftOut counts the parts mem_recall left out to fit max_chars,
// by the list they would be in: what to read otherwise (mem_read_history,
// mem_search) when they matter.
type recallLeftOut struct {
	Archives int `json:"archives"`
	Atoms    int `json:"atoms"`
	Linked   int `json:"linked"`
}

// recallResult is mem_recall's result.
type recallResult struct {
	Slug      string          `json:"slug"`
	Kind      string          `json:"kind"`
	Archived  bool            `json:"archived"`
	Context   *recallContext  `json:"context"`
	Archives  []recallArchive `json:"archives"`
	Atoms     []recallNote    `json:"atoms"`
	Linked    []recallNote    `json:"linked"`
	Truncated []recallCut     `json:"truncated"`
	LeftOut   recallLeftOut   `json:"left_out"`
	Chars     int             `json:"chars"`
	Common
}

// atomDirs are the zones where mem_archive writes atoms; linkDirs the
// ones whose notes a recall lists when they link to the project.
var (
	atomDirs = []string{atom.Zones["knowledge"].Dir, atom.Zones["principle"].Dir, atom.Zones["goal"].Dir}
	linkDirs = []string{atom.Zones["principle"].Dir, atom.Zones["goal"].Dir}
)

// recall is mem_recall. What it gathers, in order of importance (the
// order of the briefing, and the order in which the budget keeps parts):
//
//  1. context.md: its frontmatter fields and its body (none when the
//     project has no context.md: a vault made by other tools still
//     recalls from its history and archives);
//  2. the last `archives` archives, newest first, in mem_read_archive's
//     order (history.md's entries, then the files no entry names): each
//     one's decisions and next-steps sections, or its first paragraphs
//     (history.Sections);
//  3. the atoms those archives derived (their `derived_atoms`, found by
//     name in 20-knowledge, 40-principles and 50-goals): each one's body;
//  4. the principles and goals (40-principles, 50-goals) that link to the
//     project — a wikilink, anywhere in the note, frontmatter included,
//     to its slug, to a path in its folder, or to one of its archives (so
//     every atom its sessions derived, through `source`) — or that
//     context.md or the recalled archives link to; principles first, by
//     path.
//
// The budget, max_chars, bounds in characters (runes) the answer a model
// reads — the result's JSON without summary_md, `chars` — and with it
// summary_md. The briefing is fitted to a budget (max_chars at first):
// every part's heading line (its path; context.md's fields), then each
// part's text in the order above, a text that does not fit cut on a line
// or word boundary ("…"), left out when under 40 characters would remain.
// While a text is fitted, room is kept for the heading lines of the
// parts after it, up to a quarter of the budget: past that quarter the
// context's body outranks the headings of the least important parts.
// Atoms' and linked notes' texts are cut at 800 characters first. A part
// whose very heading does not fit is left out, from the least important:
// it leaves the result too (counted in `left_out`), and so does an
// archive's section cut to nothing (listed in `truncated`). Then the result is measured:
// when it overruns max_chars, the briefing's budget is lowered by as much
// and the parts fitted again (brief). Every cut is listed in `truncated`;
// the result's texts are the ones the briefing holds.
func recall(env *Env, idx *search.Index, ar *archives, a *recallArgs) (any, error) {
	p, listing := ar.p, ar.listing
	refs := ar.refs[:min(a.Archives, len(ar.refs))]
	g := &gathered{env: env, idx: idx, p: p, res: recallResult{Slug: p.Slug, Kind: p.Type(), Archived: p.Archived(),
		Archives: []recallArchive{}, Atoms: []recallNote{}, Linked: []recallNote{}, Truncated: []recallCut{}, Common: common()}}
	if err := g.ask(refs); err != nil {
		return nil, err
	}
	if err := g.context(); err != nil {
		return nil, err
	}
	derived := g.archives(refs)
	if err := g.atoms(derived); err != nil {
		return nil, err
	}
	if err := g.linked(listing); err != nil {
		return nil, err
	}
	g.brief(a.MaxChars)
	if idx != nil {
		g.res.Warnings = append(g.res.Warnings, indexWarnings(env, idx)...)
	}
	return g.res, nil
}

// recallTool is mem_recall (recall): the index first, when the host
// keeps one — a build in batches makes the host start each batch afresh
// (search.Carry), and the project's own reads would be asked for again
// after every batch — then the project and its archives
// (projectArchives).
var recallTool = typed(func(env *Env, a recallArgs) (any, plan.Plan, error) {
	warm, unlock := env.holdWarm()
	defer unlock()
	idx, err := recallIndex(env, warm)
	if err != nil {
		return nil, nil, err
	}
	ar, err := projectArchives(env, a.Slug)
	if err != nil {
		return nil, nil, err
	}
	res, err := recall(env, idx, ar, &a)
	if err == nil && idx != nil {
		warm.settle(env, idx)
	}
	return res, nil, err
})

// recallIndex is the search index brought up to date with the vault
// (upToDate) when the host keeps one (it sent a search.Carry), else nil:
// the core then lists the atom zones and reads every principle and goal
// itself. With the index, a recall reads the notes it shows and nothing
// else of the vault: the principles and goals that link to the project
// are found among the links the index keeps (search.Note.Links), and
// derived atoms by name among its paths.
func recallIndex(env *Env, warm *warmIndex) (*search.Index, error) {
	if c := env.Search; c == nil || c.Listing == "" && !c.Full {
		return nil, nil
	}
	return warm.upToDate(env)
}

// gathered is what a recall has read so far.
type gathered struct {
	env    *Env
	idx    *search.Index // nil: the host keeps no index
	p      vault.Project
	res    recallResult
	texts  []string          // context.md and the recalled archives, for the links they make
	derive []derivedAtom     // atoms the archives derived, in order
	notes  wikilink.Resolver // the notes of atomDirs
	seen   map[string]bool
	gone   map[string]bool // the archives and notes the briefing leaves out
}

// derivedAtom is an atom name an archive derived.
type derivedAtom struct{ archive, name string }

// ask asks, in one round, for context.md, the archives to recall and,
// without an index, the listings of atomDirs and the content of linkDirs.
func (g *gathered) ask(refs []history.Archive) error {
	files := []string{g.p.Context()}
	for _, r := range refs {
		if r.Exists {
			files = append(files, r.Path)
		}
	}
	var trees []vault.Tree
	if g.idx == nil {
		trees = []vault.Tree{{Root: atom.Zones["knowledge"].Dir}}
		for _, d := range linkDirs {
			trees = append(trees, vault.Tree{Root: d, Content: true})
		}
	}
	need := g.need(files)
	need.Trees = trees
	return g.env.View.Ask(need)
}

// need asks for the files at paths: by their heads those the index holds
// cut (search.Index.IsCut), which a recall reads no more of than the
// index did (a briefing shows a few hundred characters of a note; the
// whole of a 200 MB export would not fit in a request).
func (g *gathered) need(paths []string) vault.Need {
	var n vault.Need
	for _, p := range paths {
		if g.idx != nil && g.idx.IsCut(p) {
			n.Heads = append(n.Heads, p)
		} else {
			n.Files = append(n.Files, p)
		}
	}
	return n
}

// read reads p as need asked for it: its head when the index holds it
// cut, else the whole file.
func (g *gathered) read(p string) (vault.Content, error) {
	if g.idx != nil && g.idx.IsCut(p) {
		c, _, err := g.env.View.ReadHead(p)
		return c, err
	}
	return g.env.View.Read(p)
}

// readNote reads p as a note: its frontmatter (nil when it has none or it
// is not valid YAML), its body (the whole text then, with a warning), and
// whether it could be read as text (a warning says why not).
func (g *gathered) readNote(p string) (*frontmatter.Doc, string, bool, error) {
	c, err := g.read(p)
	if err != nil || !c.Exists {
		return nil, "", false, err
	}
	if c.NotUTF8 {
		g.res.Warnings = append(g.res.Warnings, g.env.say(recallText().Msg.NotText, p))
		return nil, "", false, nil
	}
	doc := noteDoc(g.env, p, c.Text, &g.res.Warnings)
	if doc == nil {
		return nil, c.Text, true, nil
	}
	return doc, doc.Body(), true, nil
}

// context reads context.md.
func (g *gathered) context() error {
	p := g.p.Context()
	doc, body, ok, err := g.readNote(p)
	if err != nil {
		return err
	}
	if !ok {
		if c, _ := g.read(p); !c.Exists {
			g.res.Warnings = append(g.res.Warnings, g.env.say(recallText().Msg.NoContext, g.p.Slug, p))
		}
		return nil
	}
	ctx := &recallContext{Path: p, Body: body}
	if doc != nil {
		ctx.Frontmatter = fmMap(doc)
	}
	g.res.Context = ctx
	g.texts = append(g.texts, body)
	return nil
}

// archives reads the archives to recall: their sections, and the atoms
// they derived.
func (g *gathered) archives(refs []history.Archive) []derivedAtom {
	for _, r := range refs {
		ra := recallArchive{Path: r.Path, Sections: []history.Section{}}
		if e := r.Entry; e != nil {
			ra.Date, ra.Time, ra.Subject = optional(e.Date+e.Week), optional(e.Time), e.Subject
		} else if s, ok := worklog.ParseName(r.Name); ok {
			ra.Date, ra.Time = optional(s.Date.String()), optional(s.Time)
		}
		if !r.Exists {
			g.res.Warnings = append(g.res.Warnings, g.env.say(recallText().Msg.Gone, r.Path))
			g.res.Archives = append(g.res.Archives, ra)
			continue
		}
		doc, body, ok, _ := g.readNote(r.Path) // asked for: no need can remain
		if doc != nil {
			if s, _ := doc.String("subject"); ra.Subject == "" {
				ra.Subject = strings.TrimSpace(s)
			}
			if names, ok := doc.Strings("derived_atoms"); ok {
				for _, n := range names {
					if n = atom.Name(n); n != "" {
						g.derive = append(g.derive, derivedAtom{r.Path, n})
					}
				}
			}
		}
		if ra.Subject == "" {
			ra.Subject = strings.TrimSuffix(path.Base(r.Path), ".md")
		}
		if ok {
			ra.Sections = append(ra.Sections, history.Sections(body)...)
			g.texts = append(g.texts, body)
		}
		g.res.Archives = append(g.res.Archives, ra)
	}
	return g.derive
}

// atoms finds and reads the atoms the archives derived.
func (g *gathered) atoms(derived []derivedAtom) error {
	names, err := g.atomNames()
	if err != nil {
		return err
	}
	g.notes = names
	g.seen = map[string]bool{}
	var paths []string
	for _, d := range derived {
		p, ok := g.notes.Taken(d.name)
		if !ok {
			g.res.Warnings = append(g.res.Warnings, g.env.say(recallText().Msg.AtomMissing, d.archive, "[["+d.name+"]]"))
			continue
		}
		if !g.seen[p] {
			g.seen[p] = true
			paths = append(paths, p)
		}
	}
	if err := g.env.View.Ask(g.need(paths)); err != nil {
		return err
	}
	for _, p := range paths {
		_, body, _, err := g.readNote(p)
		if err != nil {
			return err
		}
		g.res.Atoms = append(g.res.Atoms, recallNote{Path: p, Name: wikilink.Stem(p), Kind: kindOfZone(p), Link: "derived", Text: strings.TrimSpace(body)})
	}
	return nil
}

// atomNames is every note of atomDirs as a wikilink names it: from the
// index's paths (made once for a warm index, then kept up to date note by
// note: atomNamesOf), else from the zones' listings.
func (g *gathered) atomNames() (wikilink.Resolver, error) {
	if g.idx != nil {
		return g.idx.Follow("recall.names", func() search.Follower {
			return atomNamesOf(g.idx)
		}).(*liveAtoms), nil
	}
	var files []string
	for _, d := range atomDirs {
		f, err := g.env.View.Walk(d)
		if err != nil {
			return wikilink.Names{}, err
		}
		files = append(files, f...)
	}
	return wikilink.NamesOf(files), nil
}

// liveAtoms is the names of the index's notes of atomDirs, followed
// through its changes (search.Index.Follow).
type liveAtoms struct{ *wikilink.LiveNames }

func atomNamesOf(idx *search.Index) *liveAtoms {
	return &liveAtoms{wikilink.NewLiveNames(slices.DeleteFunc(idx.Paths(), func(p string) bool { return !under(p, atomDirs) }))}
}

func (a *liveAtoms) Put(m *search.Meta, _ []string) {
	if under(m.Path, atomDirs) {
		a.Add(m.Path)
	}
}

func (a *liveAtoms) Remove(m *search.Meta, _ []string) {
	if under(m.Path, atomDirs) {
		a.LiveNames.Remove(m.Path)
	}
}

// under reports whether p is in one of dirs.
func under(p string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// kindOfZone is the atom kind of a note by its zone folder.
func kindOfZone(p string) string {
	for kind, z := range atom.Zones {
		if strings.HasPrefix(p, z.Dir+"/") {
			return kind
		}
	}
	return ""
}

// linked finds the principles and goals linked to the project either
// way (listing: its archives/ folder).
func (g *gathered) linked(listing []string) error {
	linkedTo := map[string]bool{}
	for _, t := range wikilink.Targets(g.texts) {
		if p, ok := g.notes.Note(t); ok {
			linkedTo[p] = true
		}
	}
	here, probes := g.pointsHere(listing)
	files, linksHere, err := g.linkDirNotes(here, probes, linkedTo)
	if err != nil {
		return err
	}
	for _, f := range files {
		if g.seen[f] || !strings.HasSuffix(f, ".md") {
			continue
		}
		c, err := g.read(f)
		if err != nil {
			return err
		}
		link := ""
		switch in, out := linksHere(f, c), linkedTo[f]; {
		case in && out:
			link = "both"
		case in:
			link = "links_here"
		case out:
			link = "linked"
		default:
			continue // warnings only for the notes the briefing shows
		}
		_, body, _, err := g.readNote(f)
		if err != nil {
			return err
		}
		g.res.Linked = append(g.res.Linked, recallNote{Path: f, Name: wikilink.Stem(f), Kind: kindOfZone(f), Link: link, Text: strings.TrimSpace(body)})
	}
	return nil
}

// linkDirNotes returns the notes of linkDirs a recall looks at, sorted,
// and the test of whether one links to the project (here, on a link's
// wikilink.Key). Without an index: every note of linkDirs (asked for with
// its content by ask), each one's text tested. With one: only the notes
// linkedTo names and those whose indexed links match here — found by
// looking up probes (the key prefixes here may accept) in the index's
// links sorted by key, made once per state of a warm index — asked for
// now.
func (g *gathered) linkDirNotes(here func(string) bool, probes []string, linkedTo map[string]bool) ([]string, func(string, vault.Content) bool, error) {
	if g.idx == nil {
		var files []string
		for _, d := range linkDirs {
			f, err := g.env.View.Walk(d)
			if err != nil {
				return nil, nil, err
			}
			files = append(files, f...)
		}
		return files, func(_ string, c vault.Content) bool {
			return !c.NotUTF8 && wikilink.Any(c.Text, func(t string) bool { return here(wikilink.Key(t)) })
		}, nil
	}
	table := g.idx.Follow("recall.links", func() search.Follower { return linkTableOf(g.idx) }).(*linkTable).keys
	in := map[string]bool{}
	for _, pr := range probes {
		i, _ := slices.BinarySearchFunc(table, pr, func(l linkKey, k string) int { return strings.Compare(l.key, k) })
		for ; i < len(table) && strings.HasPrefix(table[i].key, pr); i++ {
			if here(table[i].key) {
				in[table[i].path] = true
			}
		}
	}
	files := slices.Collect(maps.Keys(in))
	for p := range linkedTo {
		if under(p, linkDirs) && !in[p] {
			files = append(files, p)
		}
	}
	slices.Sort(files)
	if err := g.env.View.Ask(g.need(files)); err != nil {
		return nil, nil, err
	}
	return files, func(f string, _ vault.Content) bool { return in[f] }, nil
}

// linkKey is one link of a note of linkDirs: its wikilink.Key and the
// note's path.
type linkKey struct{ key, path string }

// linkTable is the links of the index's notes of linkDirs, sorted by key
// then path, made once for a warm index and followed through its changes
// (search.Index.Follow): a change costs the links of the notes changed.
type linkTable struct{ keys []linkKey }

func linkTableOf(idx *search.Index) *linkTable {
	t := &linkTable{}
	idx.Links(func(p string, keys []string) {
		if under(p, linkDirs) {
			for _, k := range keys {
				t.keys = append(t.keys, linkKey{k, p})
			}
		}
	})
	slices.SortFunc(t.keys, compareLinks)
	t.keys = slices.Compact(t.keys)
	return t
}

func compareLinks(a, b linkKey) int {
	if c := strings.Compare(a.key, b.key); c != 0 {
		return c
	}
	return strings.Compare(a.path, b.path)
}

func (t *linkTable) Put(m *search.Meta, links []string) {
	if !under(m.Path, linkDirs) {
		return
	}
	for _, k := range links {
		if i, found := slices.BinarySearchFunc(t.keys, linkKey{k, m.Path}, compareLinks); !found {
			t.keys = slices.Insert(t.keys, i, linkKey{k, m.Path})
		}
	}
}

func (t *linkTable) Remove(m *search.Meta, links []string) {
	for _, k := range links {
		if i, found := slices.BinarySearchFunc(t.keys, linkKey{k, m.Path}, compareLinks); found {
			t.keys = slices.Delete(t.keys, i, i+1)
		}
	}
}

// pointsHere returns a test of whether a wikilink target, as its
// wikilink.Key, names the project: its slug, a path in its folder
// (wherever mem_historize put it), or one of its archives by name; and
// the probes, prefixes of which every key it accepts has one (the
// folders, the slug, the archives' names).
func (g *gathered) pointsHere(listing []string) (func(string) bool, []string) {
	stems := map[string]bool{strings.ToLower(g.p.Slug): true}
	for _, n := range listing {
		if s, ok := strings.CutSuffix(n, ".md"); ok {
			stems[strings.ToLower(s)] = true
		}
	}
	var dirs []string
	for _, k := range []string{vault.KindProject, vault.KindDomain, vault.KindArchived} {
		dirs = append(dirs, strings.ToLower(vault.Dir(k, g.p.Slug)))
	}
	probes := append(slices.Collect(maps.Keys(stems)), dirs...)
	return func(t string) bool {
		for _, dir := range dirs {
			if t == dir || strings.HasPrefix(t, dir+"/") {
				return true
			}
		}
		return !strings.Contains(t, "/") && stems[t]
	}, probes
}

// fieldText writes a frontmatter value on one line: a list as its items
// joined by ", ", anything else as JSON would but strings bare.
func fieldText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		parts := make([]string, len(x))
		for i, it := range x {
			parts[i] = fieldText(it)
		}
		return strings.Join(parts, ", ")
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// noteHead is an atom's or linked note's heading line in the briefing.
func (g *gathered) noteHead(n recallNote) string {
	return fmt.Sprintf("### %s (%s, %s) — `%s`", n.Name, n.Kind, g.env.say(recallText().Msg.Links[n.Link]), n.Path)
}

// piece is one part of the briefing: its heading lines and its text (a
// field of the result, cut in place to what the briefing holds).
type piece struct {
	head       string
	text       *string
	path, part string
	cap        int    // the most characters the text may keep before the budget; 0: no cap
	list       string // the note's list: "atoms" or "linked"
}

// noteCap is the most characters an atom's or linked note's text keeps.
const noteCap = 800

// pieces lists the briefing's parts in order of importance.
func (g *gathered) pieces() []piece {
	var ps []piece
	if c := g.res.Context; c != nil {
		head := g.env.say(recallText().Msg.Context, c.Path)
		for _, k := range slices.Sorted(maps.Keys(c.Frontmatter)) {
			head += "\n- " + k + ": " + cutText(fieldText(c.Frontmatter[k]), 200)
		}
		ps = append(ps, piece{head: head, text: &c.Body, path: c.Path, part: "body"})
	}
	for i := range g.res.Archives {
		a := &g.res.Archives[i]
		when := strings.TrimSpace(deref(a.Date) + " " + deref(a.Time))
		if when != "" {
			when += " — "
		}
		ps = append(ps, piece{head: fmt.Sprintf("## %s%s — `%s`", when, a.Subject, a.Path), path: a.Path, part: "whole"})
		for j := range a.Sections {
			sec := &a.Sections[j]
			head := ""
			if sec.Heading != "" {
				head = "### " + sec.Heading
			}
			ps = append(ps, piece{head: head, text: &sec.Text, path: a.Path, part: sec.Kind})
		}
	}
	for _, group := range []struct {
		title fault.Msg
		notes []recallNote
		list  string
	}{{recallText().Msg.AtomsTitle, g.res.Atoms, "atoms"}, {recallText().Msg.LinkedTitle, g.res.Linked, "linked"}} {
		if len(group.notes) > 0 {
			ps = append(ps, piece{head: g.env.say(group.title), part: "title"})
		}
		for i := range group.notes {
			n := &group.notes[i]
			ps = append(ps, piece{head: g.noteHead(*n), text: &n.Text, path: n.Path, part: "text", cap: noteCap, list: group.list})
		}
	}
	return ps
}

// footRoom is kept free in the budget for the line saying what was cut.
const footRoom = 100

// briefRounds bounds the rounds of brief.
const briefRounds = 10

// brief fits the parts into max characters of the answer (see recall):
// the briefing (summary_md) is fitted to a budget, then the result
// without summary_md — what a model reads of the answer — is measured,
// and the budget lowered by what it overran, from the gathered parts
// again, until the result fits.
func (g *gathered) brief(max int) {
	orig := g.res
	orig.Context, orig.Archives, orig.Atoms, orig.Linked = g.copyParts()
	run := func(budget int) {
		g.res = orig
		g.res.Context, g.res.Archives, g.res.Atoms, g.res.Linked = g.copyParts()
		g.res.Truncated, g.gone = []recallCut{}, map[string]bool{}
		g.briefWithin(max, budget)
		g.prune()
		g.res.Chars = viewChars(&g.res)
	}
	// lo: the largest budget seen to fit, hi: the smallest seen to overrun.
	lo, hi, budget := -1, -1, max
	last := budget
	for round := 1; round <= briefRounds; round++ {
		run(budget)
		last = budget
		if g.res.Chars <= max {
			lo = budget
		} else {
			hi = budget
		}
		switch {
		case hi < 0 || lo >= 0 && hi-lo <= 20:
			if budget != lo {
				run(lo)
			}
			return
		case lo < 0 && budget == 0: // nothing less to try
			return
		case lo < 0: // by what it overran, or in proportion if that is more,
			// from what the briefing used of its budget
			used := min(budget, runes(g.res.SummaryMD)+footRoom)
			hi = used
			budget = min(used-(g.res.Chars-max)-10, used*max/g.res.Chars)
			if budget < 0 {
				budget = 0
			}
		default:
			budget = (lo + hi) / 2
		}
	}
	switch {
	case lo >= 0 && last != lo:
		run(lo)
	case lo < 0: // the least the briefing can be: the context's heading
		run(0)
	}
}

// copyParts is a deep copy of the result's parts whose texts brief cuts.
func (g *gathered) copyParts() (*recallContext, []recallArchive, []recallNote, []recallNote) {
	var c *recallContext
	if g.res.Context != nil {
		cc := *g.res.Context
		c = &cc
	}
	as := slices.Clone(g.res.Archives)
	for i := range as {
		as[i].Sections = slices.Clone(as[i].Sections)
	}
	return c, as, slices.Clone(g.res.Atoms), slices.Clone(g.res.Linked)
}

// prune takes out of the result the parts the briefing leaves out (an
// archive or note counted in left_out) and an archive's sections cut to
// nothing (listed in truncated).
func (g *gathered) prune() {
	gone, emptied := g.gone, map[[2]string]bool{}
	for _, c := range g.res.Truncated {
		if c.Kept == 0 {
			emptied[[2]string{c.Path, c.Part}] = true
		}
	}
	g.res.Archives = slices.DeleteFunc(g.res.Archives, func(a recallArchive) bool { return gone[a.Path] })
	for i := range g.res.Archives {
		a := &g.res.Archives[i]
		a.Sections = slices.DeleteFunc(a.Sections, func(s history.Section) bool { return s.Text == "" && emptied[[2]string{a.Path, s.Kind}] })
	}
	left := func(n recallNote) bool { return gone[n.Path] }
	g.res.Atoms = slices.DeleteFunc(g.res.Atoms, left)
	g.res.Linked = slices.DeleteFunc(g.res.Linked, left)
}

// viewChars is the characters of r's JSON without summary_md: what a
// model reads of the answer (host/mcp's model view writes no more).
func viewChars(r *recallResult) int {
	v := *r
	v.SummaryMD, v.Chars = "", 0
	for {
		b, _ := json.Marshal(v) // a result of strings, numbers and maps of them
		n := utf8.RuneCount(b) - len(`,"summary_md":""`)
		if n == v.Chars { // chars counts its own digits
			return n
		}
		v.Chars = n
	}
}

// briefWithin fits the pieces into budget characters of the briefing
// (see recall) and writes summary_md; max is the budget it reports.
func (g *gathered) briefWithin(max, budget int) {
	title := g.env.say(recallText().Msg.Title, g.p.Slug, g.p.Type()) + "\n\n"
	budget -= runes(title) + footRoom
	ps := g.pieces()
	heads := make([]int, len(ps)+1) // heads[i]: the heading lines of ps[i:]
	for i := len(ps) - 1; i >= 0; i-- {
		heads[i] = heads[i+1]
		if ps[i].head != "" {
			heads[i] += runes(ps[i].head) + 2
		}
	}
	used, fits := 0, len(ps)
	for i := range ps {
		pc := &ps[i]
		if h := heads[i] - heads[i+1]; fits == len(ps) && used+h <= budget {
			used += h
		} else if fits == len(ps) {
			fits = i
		}
		switch {
		case i >= fits && pc.part == "whole":
			g.gone[pc.path] = true
			g.res.LeftOut.Archives++
			continue
		case i >= fits && pc.part == "text": // a note left out
			g.gone[pc.path] = true
			if pc.list == "atoms" {
				g.res.LeftOut.Atoms++
			} else {
				g.res.LeftOut.Linked++
			}
			*pc.text = ""
			continue
		case i >= fits && pc.text != nil: // a section of an archive left out
			*pc.text = ""
			continue
		case pc.text == nil:
			continue
		}
		used += g.fit(pc, true, budget-used-min(heads[i+1], budget/4)-2)
	}
	var b strings.Builder
	b.WriteString(title)
	for _, pc := range ps[:fits] {
		if pc.head != "" {
			b.WriteString(pc.head + "\n\n")
		}
		if pc.text != nil && strings.TrimSpace(*pc.text) != "" {
			b.WriteString(strings.TrimRightFunc(*pc.text, unicode.IsSpace) + "\n\n")
		}
	}
	left := g.res.LeftOut.Archives + g.res.LeftOut.Atoms + g.res.LeftOut.Linked
	if n := len(g.res.Truncated); n+left > 0 {
		b.WriteString(g.env.say(recallText().Msg.Cut, max, n, left) + "\n")
	}
	g.res.SummaryMD = strings.TrimRightFunc(b.String(), unicode.IsSpace) + "\n"
}

// fit cuts pc's text to room characters (after its cap), or to nothing
// when it is not shown or under 40 characters would remain, records the
// cut, and returns what the text costs in the briefing.
func (g *gathered) fit(pc *piece, shown bool, room int) int {
	full := runes(*pc.text)
	keep := *pc.text
	if pc.cap > 0 {
		keep = cutText(keep, pc.cap)
	}
	switch n := runes(keep); {
	case !shown || n > room && room < 40:
		keep = ""
	case n > room:
		keep = cutText(keep, room)
	}
	if keep != *pc.text {
		g.cut(pc.path, pc.part, runes(keep), full)
		*pc.text = keep
	}
	if keep == "" {
		return 0
	}
	return runes(keep) + 2
}

// cut records a part cut to fit the budget.
func (g *gathered) cut(p, part string, kept, of int) {
	g.res.Truncated = append(g.res.Truncated, recallCut{Path: p, Part: part, Kept: kept, Of: of})
}

func runes(s string) int { return utf8.RuneCountInString(s) }

// cutText returns s cut to at most n characters, "…" included: at the
// last line break or space of its last quarter when there is one.
func cutText(s string, n int) string {
	if runes(s) <= n {
		return s
	}
	rs := []rune(s)[:max(n-1, 0)]
	cut := len(rs)
	for i := len(rs) - 1; i > len(rs)*3/4; i-- {
		if rs[i] == '\n' || rs[i] == ' ' {
			cut = i
			break
		}
	}
	return strings.TrimRightFunc(string(rs[:cut]), unicode.IsSpace) + "…"
}
