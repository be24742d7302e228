package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/kessho/kessho/core/atom"
	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/fold"
	"github.com/kessho/kessho/core/frontmatter"
	"github.com/kessho/kessho/core/history"
	"github.com/kessho/kessho/core/note"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/relocate"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/wikilink"
	"github.com/kessho/kessho/core/worklog"

	"gopkg.in/yaml.v3"
)

// archiveSpec is mem_archive in the catalogue.
var archiveSpec = tool[archiveResult](catalogText("archive.yaml"), "mem_archive", "archive slug", writes|destroys|idempotent, readsContext(fault.ContextEmpty, fault.DecisionsLost, fault.DerivedRequired, fault.AtomExists, fault.ArcheoInvalid), []catalog.Param{
	slugParam,
	{Name: "mode", Type: catalog.String, Enum: []string{"incremental", "full"}, Default: "incremental"},
	{Name: "phase", Type: catalog.String, MaxLength: intp(200), OneLine: true},
	{Name: "context_md", Type: catalog.String},
	{Name: "expect_decisions", Type: catalog.Array, Items: &catalog.Param{Type: catalog.String}},
	{Name: "archive_subject", Type: catalog.String, MaxLength: intp(200), OneLine: true},
	{Name: "archive_body_md", Type: catalog.String},
	{Name: "archive_aliases", Type: catalog.Array, Items: &catalog.Param{Type: catalog.String, OneLine: true}},
	{Name: "archive_extra_fm", Type: catalog.Object},
	{Name: "derive", Type: catalog.Array, Items: &catalog.Param{Type: catalog.Object, Props: []catalog.Param{
		{Name: "fact", Type: catalog.String, Required: true, MinLength: intp(1), MaxLength: intp(300), OneLine: true},
		{Name: "body", Type: catalog.String, Required: true},
		{Name: "kind", Type: catalog.String, Required: true, Enum: []string{"principle", "goal", "knowledge"}},
		{Name: "aliases", Type: catalog.Array, Items: &catalog.Param{Type: catalog.String, OneLine: true}},
	}}},
	{Name: "derived_atoms", Type: catalog.Array, Items: &catalog.Param{Type: catalog.String, OneLine: true}},
	{Name: "no_derived_because", Type: catalog.String, OneLine: true},
	{Name: "source_hint", Type: catalog.String, Enum: []string{"archeo-git"}},
})

type deriveItem struct {
	Fact    string   `json:"fact"`
	Body    string   `json:"body"`
	Kind    string   `json:"kind"`
	Aliases []string `json:"aliases"`
}

type archiveArgs struct {
	Slug             string          `json:"slug"`
	Mode             string          `json:"mode"`
	Phase            *string         `json:"phase"`
	ContextMD        *string         `json:"context_md"`
	ExpectDecisions  []string        `json:"expect_decisions"`
	ArchiveSubject   *string         `json:"archive_subject"`
	ArchiveBodyMD    *string         `json:"archive_body_md"`
	ArchiveAliases   []string        `json:"archive_aliases"`
	ArchiveExtraFM   json.RawMessage `json:"archive_extra_fm"`
	Derive           []deriveItem    `json:"derive"`
	DerivedAtoms     []string        `json:"derived_atoms"`
	NoDerivedBecause *string         `json:"no_derived_because"`
	SourceHint       *string         `json:"source_hint"`
}

// archiveResult is mem_archive's result.
type archiveResult struct {
	Slug         string         `json:"slug"`
	Kind         string         `json:"kind"`
	Mode         string         `json:"mode"`
	Archive      *string        `json:"archive"`
	HistoryLine  *string        `json:"history_line"`
	AtomsCreated []string       `json:"atoms_created"`
	DerivedAtoms []string       `json:"derived_atoms"`
	Context      contextChanges `json:"context"`
	Sigils       int            `json:"sigils_rewritten"`
	// AlreadyArchived is true when a full archive found this very session
	// archived already (a retry) and wrote nothing.
	AlreadyArchived bool `json:"already_archived"`
	Common
}

// archeoKeys must all be in an archeo-git archive's frontmatter.
var archeoKeys = strings.Fields(`source scope collective modality branch branch_base
branch_base_sha milestone_kind source_milestone commit_sha granularity
friction_detected derived_atoms content_hash previous_atom topology_snapshot_hash
repo_path`)

// archiveText is archive.yaml: mem_archive's catalogue texts and messages, parsed on first use.
var archiveText = loadText[struct {
	ContextEmpty, OneLine, NoAlnum, FullOnly, Subject, SubjectLine, Body fault.Msg
	Alias, DerivedName, FactName, FactBody, NoAtoms, ReasonWithAtoms     fault.Msg
	NotObject, NotYAML, Lost, AtomExists, Archeo, DeadLink, NoHistLine   fault.Msg
	DeadDerived                                                          fault.Msg
	Differ, Already, Updated, Archived                                   fault.Msg
}]("archive.yaml")

// archive is mem_archive: check the arguments (all of them before any
// read, so that a bad call is refused the same way whatever the vault
// holds), read context.md, make the new context, check the decisions kept;
// an incremental archive writes the context alone, a full one goes on in
// archiveFull.
//
// Choices where SPEC is silent: an empty or blank `phase` counts as not
// given (it never erases a phase by accident; mem_update_phase does that);
// a blank archive_subject or archive_body_md is refused like a missing one;
// a project folder without context.md (history and archives made by other
// tools) gets one when the call gives context_md (contextToCreate), and
// NO_CONTEXT saying so otherwise.
func archive(env *Env, a archiveArgs) (any, plan.Plan, error) {
	full := a.Mode == "full"
	if err := checkArchiveArgs(&a, full); err != nil {
		return nil, nil, err
	}
	c, err := readContext(env, a.Slug)
	if fault.CodeOf(err) == fault.NoContext && a.ContextMD != nil {
		c, err = contextToCreate(env, a.Slug)
	}
	if err != nil {
		return nil, nil, err
	}
	if err := refuseArchived(c.project); err != nil {
		return nil, nil, err
	}
	repoRoot, _ := c.doc.String("repo_path")
	res := &archiveResult{Slug: c.project.Slug, Kind: c.project.Type(), Mode: a.Mode,
		AtomsCreated: []string{}, DerivedAtoms: []string{}, Common: common()}
	ctxText, err := newContext(env, &a, c, res, repoRoot)
	if err != nil {
		return nil, nil, err
	}
	if err := checkDecisions(env, a.ExpectDecisions, ctxText); err != nil {
		return nil, nil, err
	}
	if full {
		return archiveFull(env, &a, c, res, ctxText, repoRoot)
	}
	res.SummaryMD = env.say(archiveText().Msg.Updated, res.Slug, *res.Context.LastSession.To)
	if a.ContextMD != nil {
		if err := warnLinks(env, res, []string{*a.ContextMD}, nil, nil); err != nil {
			return nil, nil, err
		}
	}
	return res, plan.Plan{plan.WriteOp(c.path, c.sha, ctxText)}, nil
}

// contextToCreate is the context.md of a project folder that has none (a
// vault made by other tools may hold history and archives before any
// context): the one mem_init_project writes, whose body newContext then
// replaces by context_md; its precondition is that no file is there yet.
func contextToCreate(env *Env, slug string) (*contextFile, error) {
	p, err := vault.Resolve(env.View, slug)
	if err != nil {
		return nil, err
	}
	text, err := newContextNote(env, contextNote{Slug: p.Slug, Kind: p.Type()})
	if err != nil {
		return nil, err
	}
	doc, err := env.docs().Parse(text)
	if err != nil {
		return nil, fault.Internalf("writing context.md: %v", err)
	}
	return &contextFile{project: p, path: p.Context(), text: text, sha: plan.Absent, doc: doc}, nil
}

// newContext returns context.md with the new body (its <repo>/… sigils
// rewritten), the new phase and last-session set, and says so in res.
func newContext(env *Env, a *archiveArgs, c *contextFile, res *archiveResult, repoRoot string) (string, error) {
	text := c.text
	var err error
	res.Context.Path = c.path
	if a.ContextMD != nil {
		body := *a.ContextMD
		if repoRoot != "" {
			var n int
			body, n = relocate.Rewrite(body, repoRoot)
			res.Sigils += n
		}
		if text, err = env.docs().SetBody(text, body); err != nil {
			return "", frontmatterError(c.path, err)
		}
		res.Context.BodyReplaced = true
	}
	if a.Phase != nil && strings.TrimSpace(*a.Phase) != "" {
		phase := strings.TrimSpace(*a.Phase)
		res.Context.Phase = &change{To: &phase}
		if prev, ok := c.doc.String("phase"); ok {
			res.Context.Phase.From = &prev
		}
		if text, err = env.docs().Set(text, "phase", phase); err != nil {
			return "", frontmatterError(c.path, err)
		}
	}
	now := env.Now.Format("2006-01-02T15:04:05Z07:00")
	if prev, ok := c.doc.String("last-session"); ok {
		res.Context.LastSession.From = &prev
		if dateOnly(prev) {
			now = env.Now.Format("2006-01-02")
		}
	} else if kit, err := kitVault(env); err != nil {
		return "", err
	} else if kit {
		now = env.Now.Format("2006-01-02") // the kit's form, date only
	}
	res.Context.LastSession.To = &now
	if text, err = env.docs().Set(text, "last-session", now); err != nil {
		return "", frontmatterError(c.path, err)
	}
	return text, nil
}

// fullOnly are the parameters of mode full alone, in the order they are
// refused without it.
var fullOnly = []string{"archive_subject", "archive_body_md", "archive_aliases", "archive_extra_fm", "derive", "derived_atoms", "no_derived_because", "source_hint"}

// checkArchiveArgs refuses what the arguments alone make wrong.
func checkArchiveArgs(a *archiveArgs, full bool) error {
	if err := vault.CheckSlug("slug", a.Slug); err != nil {
		return err
	}
	if a.ContextMD != nil && strings.TrimSpace(*a.ContextMD) == "" {
		return archiveText().Msg.ContextEmpty.Err(fault.ContextEmpty, map[string]any{"parameter": "context_md"})
	}
	if a.Phase != nil && strings.ContainsAny(*a.Phase, "\r\n\u2028\u2029") {
		return argument("phase", archiveText().Msg.OneLine)
	}
	for i, d := range a.ExpectDecisions {
		if fold.Alnum(d) == "" {
			return argument(fmt.Sprintf("expect_decisions[%d]", i), archiveText().Msg.NoAlnum)
		}
	}
	if full {
		return checkFullArgs(a)
	}
	given := map[string]bool{
		"archive_subject": a.ArchiveSubject != nil, "archive_body_md": a.ArchiveBodyMD != nil,
		"archive_aliases": a.ArchiveAliases != nil, "archive_extra_fm": a.ArchiveExtraFM != nil,
		"derive": a.Derive != nil, "derived_atoms": a.DerivedAtoms != nil,
		"no_derived_because": a.NoDerivedBecause != nil, "source_hint": a.SourceHint != nil,
	}
	for _, name := range fullOnly {
		if given[name] {
			return argument(name, archiveText().Msg.FullOnly)
		}
	}
	return nil
}

// checkFullArgs refuses what makes a full archive's arguments wrong: its
// subject and body, aliases, atoms, and the reason for none.
func checkFullArgs(a *archiveArgs) error {
	switch {
	case a.ArchiveSubject == nil || strings.TrimSpace(*a.ArchiveSubject) == "":
		return argument("archive_subject", archiveText().Msg.Subject)
	case strings.ContainsAny(*a.ArchiveSubject, "\r\n\u2028\u2029"):
		return argument("archive_subject", archiveText().Msg.SubjectLine)
	case a.ArchiveBodyMD == nil || strings.TrimSpace(*a.ArchiveBodyMD) == "":
		return argument("archive_body_md", archiveText().Msg.Body)
	}
	for i, al := range a.ArchiveAliases {
		if strings.TrimSpace(al) == "" || strings.ContainsAny(al, "\r\n") {
			return argument(fmt.Sprintf("archive_aliases[%d]", i), archiveText().Msg.Alias)
		}
	}
	for i, at := range a.DerivedAtoms {
		if atom.Name(at) == "" {
			return argument(fmt.Sprintf("derived_atoms[%d]", i), archiveText().Msg.DerivedName)
		}
	}
	for i, d := range a.Derive {
		if atom.FileName(d.Fact) == "" {
			return argument(fmt.Sprintf("derive[%d].fact", i), archiveText().Msg.FactName)
		}
		if strings.TrimSpace(d.Body) == "" {
			return argument(fmt.Sprintf("derive[%d].body", i), archiveText().Msg.FactBody)
		}
	}
	hasAtoms := len(a.Derive)+len(a.DerivedAtoms) > 0
	reason := a.NoDerivedBecause != nil && strings.TrimSpace(*a.NoDerivedBecause) != ""
	switch {
	case !hasAtoms && !reason:
		return archiveText().Msg.NoAtoms.Err(fault.DerivedRequired, map[string]any{"parameter": "no_derived_because"})
	case hasAtoms && a.NoDerivedBecause != nil:
		return archiveText().Msg.ReasonWithAtoms.Err(fault.DerivedRequired, map[string]any{"parameter": "no_derived_because"})
	}
	if a.ArchiveExtraFM != nil {
		if _, _, err := note.OrderedObject(a.ArchiveExtraFM); err != nil {
			return argument("archive_extra_fm", archiveText().Msg.NotObject)
		}
	}
	return nil
}

// checkDecisions refuses with DECISIONS_LOST when a decision is not in the
// body of the resulting context (letters and digits, accents folded).
func checkDecisions(env *Env, decisions []string, ctxText string) error {
	if len(decisions) == 0 {
		return nil
	}
	doc, err := env.docs().Parse(ctxText)
	if err != nil {
		return fault.Internalf("re-reading the new context: %v", err)
	}
	body := fold.Alnum(doc.Body())
	var lost []string
	for _, d := range decisions {
		if !strings.Contains(body, fold.Alnum(d)) {
			lost = append(lost, d)
		}
	}
	if len(lost) == 0 {
		return nil
	}
	q := make([]string, len(lost))
	for i, l := range lost {
		q[i] = fmt.Sprintf("%q", l)
	}
	return archiveText().Msg.Lost.Err(fault.DecisionsLost, map[string]any{"missing": lost}, len(lost), strings.Join(q, ", "))
}

// archiveReads reads, in one round, what a full archive needs: the
// listing of archives/ and history.md, and every note's name when the
// call derives atoms or its texts hold wikilinks (nil otherwise).
func archiveReads(env *Env, a *archiveArgs, c *contextFile) ([]string, *wikilink.Names, error) {
	v := env.View
	ask := vault.Need{Files: []string{c.project.History()}, Dirs: []string{c.project.Dir + "/archives", undoDir(c.project.Slug)}}
	for _, d := range a.Derive {
		ask.Files = append(ask.Files, zoneIndex(d.Kind))
	}
	needNames := len(a.Derive) > 0 || len(a.DerivedAtoms) > 0 || wikilink.Has(*a.ArchiveBodyMD) || a.ContextMD != nil && wikilink.Has(*a.ContextMD)
	if needNames {
		ask.Trees = []vault.Tree{{Root: "."}}
	}
	if err := v.Ask(ask); err != nil {
		return nil, nil, err
	}
	var names *wikilink.Names
	if needNames {
		files, err := v.Walk(".")
		if err != nil {
			return nil, nil, err
		}
		n := wikilink.NamesOf(files)
		names = &n
	}
	entries, err := v.List(c.project.Dir + "/archives")
	if err != nil && !errors.Is(err, vault.ErrNotExist) {
		return nil, nil, err
	}
	return entries, names, nil
}

// archiveFull writes, as one plan, the archive note (named by
// history.Stem), the atoms it derives, its history line, and the context
// (ctxText). A retry of the newest archive writes nothing
// (alreadyArchived); the atoms are checked first, so a refusal writes
// nothing.
func archiveFull(env *Env, a *archiveArgs, c *contextFile, res *archiveResult, ctxText, repoRoot string) (any, plan.Plan, error) {
	entries, names, err := archiveReads(env, a, c)
	if err != nil {
		return nil, nil, err
	}
	if done, err := alreadyArchived(env, a, c, res, entries, repoRoot); done || err != nil {
		if err != nil {
			return nil, nil, err
		}
		return res, nil, nil
	}
	date, hhmm := env.Now.Format("2006-01-02"), env.Now.Format("15h04")
	subject := strings.TrimSpace(*a.ArchiveSubject)
	stem := history.Stem(date, hhmm, c.project.Slug, subject, entries)
	atoms, inCall, err := deriveAtoms(env, a, names, date, stem)
	if err != nil {
		return nil, nil, err
	}
	links := archiveLinks(a, atoms)
	conv, err := archiveConventions(env, c.project, entries)
	if err != nil {
		return nil, nil, err
	}
	noteText, err := archiveNote(env, a, conv, subject, links, res, repoRoot)
	if err != nil {
		return nil, nil, err
	}
	line := history.Line(date, hhmm, subject, stem+".md")
	histOp, err := historyInsertOp(env, c.project, line)
	if err != nil {
		return nil, nil, err
	}
	creating := func(name string) bool { _, ok := inCall[strings.ToLower(name)]; return ok }
	if err := warnLinks(env, res, texts(a), names, creating); err != nil {
		return nil, nil, err
	}
	warnDerived(env, res, a.DerivedAtoms, names, creating)
	archivePath := c.project.Dir + "/archives/" + stem + ".md"
	p := plan.Plan{plan.WriteOp(archivePath, plan.Absent, noteText)}
	for _, at := range atoms {
		p = append(p, plan.WriteOp(at.path, plan.Absent, at.text))
		res.AtomsCreated = append(res.AtomsCreated, at.path)
	}
	indexOps, err := zoneIndexOps(env, atoms)
	if err != nil {
		return nil, nil, err
	}
	p = append(p, indexOps...)
	p = append(p, histOp, plan.WriteOp(c.path, c.sha, ctxText))
	undo, err := archiveUndo(env, c, stem, ctxText, atoms, indexOps)
	if err != nil {
		return nil, nil, err
	}
	p = append(p, undo...)
	res.Archive, res.HistoryLine, res.DerivedAtoms = &archivePath, &line, links
	res.SummaryMD = env.say(archiveText().Msg.Archived, c.project.Slug, stem, len(atoms))
	return res, p, nil
}

// archiveUndo is the ops that keep the undo record of the archive stem
// (undoOps): the context's text before and after it, the atoms it
// creates, the zone indexes it rewrites (indexOps, read in this call).
func archiveUndo(env *Env, c *contextFile, stem, ctxText string, atoms []newAtom, indexOps plan.Plan) (plan.Plan, error) {
	rec := undoRecord{Version: 1, Archive: stem + ".md", Context: undoText{Before: c.text, After: plan.HashString(ctxText)},
		Atoms: []undoFile{}, Indexes: []undoText{}}
	for _, at := range atoms {
		rec.Atoms = append(rec.Atoms, undoFile{Path: at.path, After: plan.HashString(at.text)})
	}
	for _, op := range indexOps {
		before, err := env.View.ReadText(op.Path) // read by zoneIndexOps
		if err != nil {
			return nil, err
		}
		rec.Indexes = append(rec.Indexes, undoText{Path: op.Path, Before: before.Text, After: plan.HashString(*op.Text)})
	}
	listing, err := env.View.List(undoDir(c.project.Slug))
	if err != nil && !errors.Is(err, vault.ErrNotExist) {
		return nil, err
	}
	return undoOps(env, c.project.Slug, stem, rec, listing)
}

// deriveAtoms renders the atoms of derive, each a note in its kind's zone
// whose source is the archive stem (renderAtom). A name used twice in the
// call, or already by a note of the vault, is ATOM_EXISTS. It also returns
// the index of each name in derive, by lowercase name.
func deriveAtoms(env *Env, a *archiveArgs, names *wikilink.Names, date, stem string) ([]newAtom, map[string]int, error) {
	var atoms []newAtom
	inCall := map[string]int{}
	for i, d := range a.Derive {
		name := atom.FileName(d.Fact)
		key := strings.ToLower(name)
		if j, twice := inCall[key]; twice {
			return nil, nil, atomExists(name, fmt.Sprintf("derive[%d]", j))
		}
		inCall[key] = i
		if p, ok := names.Taken(name); ok {
			return nil, nil, atomExists(name, p)
		}
		at, err := renderAtom(env, atomSpec{Kind: d.Kind, Name: name, Body: d.Body, Aliases: d.Aliases}, date, "[["+stem+"]]")
		if err != nil {
			return nil, nil, err
		}
		atoms = append(atoms, at)
	}
	return atoms, inCall, nil
}

// archiveLinks are the archive's derived_atoms: the existing atoms named,
// then the new ones, as [[name]], each once (case aside).
func archiveLinks(a *archiveArgs, atoms []newAtom) []string {
	links := []string{}
	seen := map[string]bool{}
	add := func(name string) {
		if !seen[strings.ToLower(name)] {
			seen[strings.ToLower(name)] = true
			links = append(links, "[["+name+"]]")
		}
	}
	for _, at := range a.DerivedAtoms {
		add(atom.Name(at))
	}
	for _, at := range atoms {
		add(at.name)
	}
	return links
}

// conventions is what a new archive of project takes from the project's
// newest archive (docs/CONVENTIONS.md): the `project:`/`domain:` key, the
// `project/<slug>`/`domain/<slug>` tag, and a flow-style tags list.
type conventions struct {
	project  vault.Project
	key, tag bool
	flow     bool
}

// archiveConventions reads the newest archive of listing (the project's
// archives/, names dated YYYY-MM-DD-… sort by time) and returns what it
// does: a project with no archive yet, or whose newest archive has no
// frontmatter Kessho can read, takes the key and the tag (memory-kit
// vaults have them, and Obsidian users filter by tag), block style. One
// file more is read, in one round.
func archiveConventions(env *Env, p vault.Project, listing []string) (conventions, error) {
	conv := conventions{project: p, key: true, tag: true}
	newest := ""
	for _, name := range listing {
		if _, ok := worklog.ParseName(name); ok && strings.HasSuffix(name, ".md") && name > newest {
			newest = name
		}
	}
	if newest == "" {
		return conv, nil
	}
	f, err := env.View.Read(p.Dir + "/archives/" + newest)
	if err != nil || !f.Exists || f.NotUTF8 {
		return conv, err
	}
	doc, err := env.docs().Parse(f.Text)
	if err != nil || !doc.HasFrontmatter() {
		return conv, nil
	}
	_, conv.key = doc.Lookup(p.Type())
	tags, _ := doc.Strings("tags")
	conv.tag = containsString(tags, conv.tagName())
	conv.flow = doc.Flow("tags")
	return conv, nil
}

// tagName is the project's tag, `project/<slug>` or `domain/<slug>`.
func (c conventions) tagName() string { return c.project.Type() + "/" + c.project.Slug }

// tags are a new archive's own tags.
func (c conventions) tags() []string {
	if c.tag {
		return []string{c.tagName(), "kind/archive", "zone/episodes"}
	}
	return []string{"kind/archive", "zone/episodes"}
}

// list is items as a YAML list in the project's archives' style.
func (c conventions) list(items []string) *yaml.Node {
	n := note.List(items)
	if c.flow {
		n.Style = yaml.FlowStyle
	}
	return n
}

// archiveNote renders the archive note: its frontmatter (archive_extra_fm
// merged, archeo-git keys checked) and its body, <repo>/… sigils
// rewritten.
func archiveNote(env *Env, a *archiveArgs, conv conventions, subject string, links []string, res *archiveResult, repoRoot string) (string, error) {
	slug := conv.project.Slug
	body := *a.ArchiveBodyMD
	if repoRoot != "" {
		var n int
		body, n = relocate.Rewrite(body, repoRoot)
		res.Sigils += n
	}
	date := env.Now.Format("2006-01-02")
	f := note.Fields{
		{Key: "slug", Node: note.Str(slug)}, {Key: "kind", Node: note.Str("archive")}, {Key: "zone", Node: note.Str("episodes")},
		{Key: "date", Node: note.Stamp(date)}, {Key: "time", Node: note.Quoted(env.Now.Format("15:04"))}, {Key: "subject", Node: note.Str(subject)},
		{Key: "display", Node: note.Str(slug + " — " + date + " " + subject)},
		{Key: "tags", Node: conv.list(conv.tags())},
	}
	if conv.key {
		f = append(note.Fields{{Key: conv.project.Type(), Node: note.Str(slug)}}, f...)
	}
	if len(a.ArchiveAliases) > 0 {
		var al []string
		for _, x := range a.ArchiveAliases {
			al = append(al, strings.TrimSpace(x))
		}
		f = append(f, note.Field{Key: "aliases", Node: note.List(al)})
	}
	if len(links) > 0 {
		f = append(f, note.Field{Key: "derived_atoms", Node: note.List(links)})
	} else {
		f = append(f, note.Field{Key: "no_derived_because", Node: note.Str(strings.TrimSpace(*a.NoDerivedBecause))})
	}
	if a.ArchiveExtraFM != nil {
		if err := mergeExtra(&f, a.ArchiveExtraFM); err != nil {
			return "", err
		}
	}
	if a.SourceHint != nil && *a.SourceHint == "archeo-git" {
		if err := checkArcheo(f); err != nil {
			return "", err
		}
	}
	text, err := f.Render(body)
	if err != nil {
		return "", fault.Internalf("writing the archive: %v", err)
	}
	return text, nil
}

// historyInsertOp puts line before the first entry of p's history.md (a
// new one gets a title).
func historyInsertOp(env *Env, p vault.Project, line string) (plan.Op, error) {
	hist, err := env.View.ReadText(p.History())
	if err != nil {
		return plan.Op{}, err
	}
	if !hist.Exists {
		hist.Text = history.Title(p.Slug)
	}
	return plan.WriteOp(p.History(), hist.Expect, history.Insert(hist.Text, line)), nil
}

// alreadyArchived reports whether this full archive is a retry of the
// newest archive of the project, and then fills res with that archive and
// says so. A retry is a call with the same subject and the same body as
// the newest archive file (see newestArchives; any of several made in the
// same minute), made less than 24 hours from the minute its name dates it
// (in the vault's zone, either way, so a host whose clock lags is
// covered):
//
//   - same subject: the archive's frontmatter `subject` is the one this call
//     would write (archive_subject, or archive_extra_fm's subject); and its
//     file name is the one this subject gives, up to the -2, -3… suffix
//     (so only a likely retry costs a read);
//   - same body: the archive's body is the one this call would write,
//     <repo>/… sigils rewritten, line endings aside.
//
// Nothing is written then, not even context.md: the archive is the
// identity of a session, and its first call already set the context. A
// context_md, phase or atom list that differs from what the vault holds
// now is not applied (it would overwrite what changed since) but named in
// a warning, so the caller can send it as an incremental archive.
func alreadyArchived(env *Env, a *archiveArgs, c *contextFile, res *archiveResult, listing []string, repoRoot string) (bool, error) {
	subject := strings.TrimSpace(*a.ArchiveSubject)
	candidates := retryCandidates(env.Now, c.project.Slug+"-"+fold.Slug(subject, 60, "session"), listing)
	if len(candidates) == 0 {
		return false, nil
	}
	paths := history.ArchivePaths(c.project, candidates)
	if err := env.View.Ask(vault.Need{Files: paths}); err != nil {
		return false, err
	}
	// What this call would write.
	sf := note.Fields{{Key: "subject", Node: note.Str(subject)}}
	if a.ArchiveExtraFM != nil {
		_ = mergeExtra(&sf, a.ArchiveExtraFM)
	}
	wantSubject := sf[sf.Index("subject")].Node.Value
	body := *a.ArchiveBodyMD
	if repoRoot != "" {
		body, _ = relocate.Rewrite(body, repoRoot)
	}
	if !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	body = lf(body)
	for i, p := range paths {
		found, err := env.View.Read(p)
		if err != nil {
			return false, err
		}
		if !found.Exists || found.NotUTF8 {
			continue // not this call's archive
		}
		doc, err := env.docs().Parse(found.Text)
		if err != nil {
			continue
		}
		if got, ok := doc.String("subject"); !ok || got != wantSubject || lf(doc.Body()) != body {
			continue
		}
		fillAlreadyArchived(env, a, c, res, p, candidates[i], doc)
		return true, nil
	}
	return false, nil
}

// retryCandidates are the newest archives of listing that a call at now
// whose name would end in rest (slug and subject) may retry: named by that
// rest (up to a -2, -3… suffix), less than 24 hours from now either way.
func retryCandidates(now time.Time, rest string, listing []string) []string {
	var out []string
	for _, name := range history.Newest(listing) {
		stamp, ok := worklog.ParseName(name)
		if !ok || stamp.Time == "" {
			continue
		}
		r := strings.TrimSuffix(stamp.Rest, ".md")
		if n, ok := strings.CutPrefix(r, rest+"-"); r != rest && (!ok || n == "" || strings.Trim(n, "0123456789") != "") {
			continue
		}
		at, err := time.ParseInLocation("2006-01-02 15:04", stamp.Date.String()+" "+stamp.Time, now.Location())
		if d := now.Sub(at); err != nil || d >= 24*time.Hour || d <= -24*time.Hour {
			continue
		}
		out = append(out, name)
	}
	return out
}

// fillAlreadyArchived makes res the answer of a retry: the existing
// archive, its history line, its atoms, nothing changed, and a warning
// naming what the retry asks that the vault does not hold now.
func fillAlreadyArchived(env *Env, a *archiveArgs, c *contextFile, res *archiveResult, archivePath, name string, doc *frontmatter.Doc) {
	res.AlreadyArchived = true
	res.Archive = &archivePath
	res.Sigils = 0
	res.Context = contextChanges{Path: c.path}
	if prev, ok := c.doc.String("last-session"); ok {
		res.Context.LastSession = change{From: &prev, To: &prev}
	}
	if hist, err := env.View.Read(c.project.History()); err == nil {
		if e, ok := history.Find(hist.Text, name); ok {
			res.HistoryLine = &e.Line
		}
	}
	if res.HistoryLine == nil {
		res.Warnings = append(res.Warnings, env.say(archiveText().Msg.NoHistLine, c.project.History(), archivePath))
	}
	if atoms, ok := doc.Strings("derived_atoms"); ok {
		res.DerivedAtoms = atoms
	}
	if differs := retryDiffers(env, a, c, res.DerivedAtoms); len(differs) > 0 {
		res.Warnings = append(res.Warnings, env.say(archiveText().Msg.Differ, strings.Join(differs, ", ")))
	}
	hhmm := strings.Replace(name[11:16], "H", "h", 1)
	res.SummaryMD = env.say(archiveText().Msg.Already, c.project.Slug, strings.TrimSuffix(name, ".md"), hhmm)
}

// retryDiffers names what a retry asks that the vault does not hold now
// (have: the archive's derived atoms): not applied.
func retryDiffers(env *Env, a *archiveArgs, c *contextFile, have []string) []string {
	var differs []string
	if a.ContextMD != nil {
		body := *a.ContextMD
		if root, ok := c.doc.String("repo_path"); ok && root != "" {
			body, _ = relocate.Rewrite(body, root)
		}
		if t, err := env.docs().SetBody(c.text, body); err != nil || t != c.text {
			differs = append(differs, "context_md")
		}
	}
	if a.Phase != nil && strings.TrimSpace(*a.Phase) != "" {
		if prev, ok := c.doc.String("phase"); !ok || prev != strings.TrimSpace(*a.Phase) {
			differs = append(differs, "phase")
		}
	}
	var want, got []string
	for _, at := range a.DerivedAtoms {
		want = append(want, strings.ToLower(atom.Name(at)))
	}
	for _, d := range a.Derive {
		want = append(want, strings.ToLower(atom.FileName(d.Fact)))
	}
	for _, at := range have {
		got = append(got, strings.ToLower(atom.Name(at)))
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		differs = append(differs, "derive/derived_atoms")
	}
	return differs
}

// lf returns s with every line ending as "\n".
func lf(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// warnDerived warns of each derived_atoms entry that names no note of
// the vault and no atom the call derives: the archive would list a link
// that leads nowhere (the entry is kept as given: the atom may be written
// next). names holds every note (archiveReads walks the vault when
// derived_atoms is given).
func warnDerived(env *Env, res *archiveResult, derived []string, names *wikilink.Names, creating func(string) bool) {
	if len(derived) == 0 {
		return
	}
	targets := make([]string, len(derived))
	for i, d := range derived {
		targets[i] = atom.Name(d)
	}
	for _, t := range wikilink.Unresolved(targets, *names, creating) {
		res.Warnings = append(res.Warnings, env.say(archiveText().Msg.DeadDerived, t))
	}
}

func texts(a *archiveArgs) []string {
	out := []string{*a.ArchiveBodyMD}
	if a.ContextMD != nil {
		out = append(out, *a.ContextMD)
	}
	for _, d := range a.Derive {
		out = append(out, d.Body)
	}
	return out
}

func atomExists(name, where string) error {
	return archiveText().Msg.AtomExists.Err(fault.AtomExists, map[string]any{"atom": name, "taken_by": where}, name, where)
}

// mergeExtra merges archive_extra_fm: tags are added to the archive's own
// (no duplicates, order kept); any other key replaces the generated one in
// place, or comes last when new.
func mergeExtra(f *note.Fields, raw json.RawMessage) error {
	keys, vals, err := note.OrderedObject(raw)
	if err != nil {
		return argument("archive_extra_fm", archiveText().Msg.NotObject)
	}
	for _, k := range keys {
		v := vals[k]
		if k == "tags" {
			tagsNode := note.List(nil)
			if i := f.Index("tags"); i >= 0 {
				tagsNode = (*f)[i].Node
			}
			var tags []string
			for _, t := range tagsNode.Content {
				tags = append(tags, t.Value)
			}
			var extra []any
			switch x := v.(type) {
			case []any:
				extra = x
			case nil:
			default:
				extra = []any{x}
			}
			for _, t := range extra {
				s := fmt.Sprint(t)
				if !containsString(tags, s) {
					tags = append(tags, s)
				}
			}
			merged := note.List(tags)
			merged.Style = tagsNode.Style
			f.Set("tags", merged)
			continue
		}
		n, err := note.Value(v)
		if err != nil {
			return argument("archive_extra_fm."+k, archiveText().Msg.NotYAML, err.Error())
		}
		f.Set(k, n)
	}
	return nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkArcheo refuses an archeo-git archive whose frontmatter lacks a key
// (absent or null) or whose source is not archeo-git.
func checkArcheo(f note.Fields) error {
	var missing []string
	for _, k := range archeoKeys {
		i := f.Index(k)
		if i < 0 || f[i].Node.Tag == "!!null" {
			missing = append(missing, k)
			continue
		}
		if k == "source" && (f[i].Node.Kind != 8 /* yaml.ScalarNode */ || f[i].Node.Value != "archeo-git") {
			missing = append(missing, "source (must be archeo-git)")
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return archiveText().Msg.Archeo.Err(fault.ArcheoInvalid, map[string]any{"missing": missing}, strings.Join(missing, ", "))
}

// warnLinks adds a warning for each wikilink of texts that resolves to no
// note of the vault (names; read now when nil) nor to an atom this call
// creates (creating; nil for none).
func warnLinks(env *Env, res *archiveResult, texts []string, names *wikilink.Names, creating func(string) bool) error {
	targets := wikilink.Targets(texts)
	if len(targets) == 0 {
		return nil
	}
	if names == nil {
		files, err := env.View.Walk(".")
		if err != nil {
			return err
		}
		n := wikilink.NamesOf(files)
		names = &n
	}
	for _, t := range wikilink.Unresolved(targets, *names, creating) {
		res.Warnings = append(res.Warnings, env.say(archiveText().Msg.DeadLink, t))
	}
	return nil
}
