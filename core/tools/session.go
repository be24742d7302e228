package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"kessho/core/fault"
	"kessho/core/frontmatter"
	"kessho/core/plan"
	"kessho/core/vault"
)

func init() {
	Registry["mem_rollback_archive"] = rollback
	Registry["mem_historize"] = historize
	Registry["mem_init_project"] = initProject
	Registry["mem_list"] = list_
	Registry["mem_read_context"] = readContextTool
}

// RollbackResult is mem_rollback_archive's result.
type RollbackResult struct {
	Slug        string   `json:"slug"`
	Kind        string   `json:"kind"`
	Archived    bool     `json:"archived"`
	Archive     string   `json:"archive"`
	HistoryLine string   `json:"history_line"`
	AtomsKept   []string `json:"atoms_kept"`
	ContextKept bool     `json:"context_kept"`
	Common
}

// rollback is mem_rollback_archive: it deletes the archive of the newest
// history entry and removes exactly that line. Works on every kind.
//
// It deletes only an archive it can show is the newest, so that a broken
// or hand-edited history.md never makes it delete an older one:
//
//   - The newest archive file is, among the files directly in the
//     project's archives/, the one whose name dates it latest
//     (`<YYYY-MM-DD>-<HH>h<MM>-….md`: that minute; a worklog
//     `<YYYY>-W<WW>-worklog.md`: Sunday 23:59 of that week; any other name
//     dates nothing and is never the newest). Archives made in the same
//     minute tie: each of them is "the newest".
//   - The first history entry (a list item whose link points into
//     archives/) is read by its link target only. Its file must be one of
//     the newest (any of the tied ones is fine: within one minute names
//     cannot tell which came last, and history.md's order decides);
//     otherwise HISTORY_MISMATCH, nothing written. An entry whose file is
//     not in archives/ any more is NOTHING_TO_ROLL_BACK, as before.
//   - `archive` (optional) names the file the caller expects to remove:
//     its base name, its stem, or its vault path as mem_archive returned it
//     (the path may name the project's folder before or after
//     mem_historize moved it). When it is not the newest archive, or not
//     the one the first entry names, ARCHIVE_MISMATCH names both and
//     nothing is written: a retried rollback never deletes a second
//     archive.
func rollback(env *Env, raw json.RawMessage) (any, plan.Plan, error) {
	var a struct {
		Slug    string  `json:"slug"`
		Archive *string `json:"archive"`
	}
	if err := decode(raw, &a); err != nil {
		return nil, nil, err
	}
	var expected string
	if a.Archive != nil {
		expected = strings.TrimSpace(*a.Archive)
		if expected == "" || strings.ContainsAny(expected, "\\\r\n") {
			return nil, nil, fault.Argument("archive", "must name one archive file: its name (as in archives/) or the path mem_archive returned",
				"doit nommer un fichier d'archive : son nom (comme dans archives/) ou le chemin renvoyé par mem_archive")
		}
	}
	p, err := vault.Resolve(env.View, a.Slug)
	if err != nil {
		return nil, nil, err
	}
	if expected != "" {
		if expected, err = expectedArchive(p, expected); err != nil {
			return nil, nil, err
		}
	}
	hist := p.History()
	archDir := p.Dir + "/archives"
	if err := env.View.Prefetch([]string{hist}, []string{archDir}); err != nil {
		return nil, nil, err
	}
	text, sha, err := env.View.Read(hist)
	nothing := func(why, pourquoi string) error {
		return fault.New(fault.NothingToRollBack, map[string]any{"slug": p.Slug, "history": hist},
			fmt.Sprintf("nothing to roll back for %s: %s", p.Slug, why),
			fmt.Sprintf("rien à annuler pour %s : %s", p.Slug, pourquoi))
	}
	if errors.Is(err, vault.ErrNotExist) {
		return nil, nil, nothing("it has no history.md", "il n'a pas de history.md")
	}
	if err != nil {
		return nil, nil, err
	}
	entries := historyEntries(text)
	if len(entries) == 0 {
		return nil, nil, nothing("history.md holds no entry", "history.md ne contient aucune entrée")
	}
	e := entries[0]
	archivePath := path.Clean(p.Dir + "/" + entryTarget(e.Dest))
	if plan.CheckPath(archivePath) != nil || !strings.HasPrefix(archivePath, archDir+"/") {
		return nil, nil, nothing(fmt.Sprintf("the newest entry points outside archives/ (%s)", e.Dest),
			fmt.Sprintf("l'entrée la plus récente pointe hors de archives/ (%s)", e.Dest))
	}
	listing, err := env.View.List(archDir)
	if err != nil && !errors.Is(err, vault.ErrNotExist) {
		return nil, nil, err
	}
	name := strings.TrimPrefix(archivePath, archDir+"/")
	gone := func() error {
		return nothing(fmt.Sprintf("the newest entry's archive %s is gone; remove its line from history.md by hand if it is stale", archivePath),
			fmt.Sprintf("l'archive de l'entrée la plus récente, %s, n'existe plus ; retirez sa ligne de history.md à la main si elle est périmée", archivePath))
	}
	if !strings.Contains(name, "/") && !slices.Contains(listing, name) {
		return nil, nil, gone()
	}
	newest := newestArchives(listing)
	if expected != "" && !slices.Contains(newest, expected) {
		return nil, nil, archiveMismatch(p, expected, newest, "")
	}
	if !slices.Contains(newest, name) {
		return nil, nil, historyMismatch(p, e.Line, archivePath, newest)
	}
	if expected != "" && expected != name {
		return nil, nil, archiveMismatch(p, expected, nil, name)
	}
	archText, archSHA, err := env.View.Read(archivePath)
	if errors.Is(err, vault.ErrNotExist) {
		return nil, nil, gone()
	}
	if err != nil && fault.CodeOf(err) != fault.FileNotUTF8 {
		return nil, nil, err
	}
	res := RollbackResult{Slug: p.Slug, Kind: p.Type(), Archived: p.Archived(), Archive: archivePath, HistoryLine: e.Line, AtomsKept: []string{},
		ContextKept: true, Common: Common{Warnings: []string{}}}
	if err == nil {
		if doc, perr := frontmatter.Parse(archText); perr == nil {
			if atoms, ok := doc.Strings("derived_atoms"); ok {
				res.AtomsKept = atoms
			}
		}
	} else {
		archSHA = notUTF8SHA(env, archivePath)
	}
	if len(res.AtomsKept) > 0 {
		res.Warnings = append(res.Warnings, env.T(
			"atoms derived by this archive are kept: "+strings.Join(res.AtomsKept, ", "),
			"les atomes dérivés de cette archive sont gardés : "+strings.Join(res.AtomsKept, ", ")))
	}
	res.Warnings = append(res.Warnings, env.T("context.md is not restored", "context.md n'est pas restauré"))
	newHist := text[:e.Start] + text[e.End:]
	res.SummaryMD = env.T(fmt.Sprintf("Rolled back **%s**: deleted %s and its history line.", p.Slug, archivePath),
		fmt.Sprintf("Dernière archive de **%s** annulée : %s et sa ligne d'historique supprimées.", p.Slug, archivePath))
	return res, plan.Plan{
		plan.WriteOp(hist, sha, newHist),
		{Op: plan.Delete, Path: archivePath, Expect: archSHA},
	}, nil
}

// expectedArchive reads rollback's `archive` argument as a file name of
// p's archives/: a base name (".md" optional) or a vault path into the
// archives/ of p's folder, wherever mem_historize put it.
func expectedArchive(p vault.Project, s string) (string, error) {
	if dir, base := path.Split(s); dir != "" {
		dir = strings.TrimSuffix(dir, "/")
		ok := false
		for _, k := range []string{vault.KindProject, vault.KindArchived, vault.KindDomain} {
			ok = ok || dir == vault.Dir(k, p.Slug)+"/archives"
		}
		if !ok || base == "" {
			return "", fault.Argument("archive", fmt.Sprintf("names a file outside the archives/ of %s (%s): give the archive's file name", p.Slug, s),
				fmt.Sprintf("nomme un fichier hors de archives/ de %s (%s) : donnez le nom du fichier d'archive", p.Slug, s))
		}
		s = base
	}
	if !strings.HasSuffix(s, ".md") {
		s += ".md"
	}
	return s, nil
}

// archivePaths returns the vault paths of names in p's archives/.
func archivePaths(p vault.Project, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = p.Dir + "/archives/" + n
	}
	return out
}

// historyMismatch is HISTORY_MISMATCH: history.md's first entry does not
// name the newest archive file.
func historyMismatch(p vault.Project, line, entryPath string, newest []string) error {
	paths := archivePaths(p, newest)
	details := map[string]any{"slug": p.Slug, "history": p.History(), "entry": line, "entry_archive": entryPath, "newest": paths}
	if len(newest) == 0 {
		return fault.New(fault.HistoryMismatch, details,
			fmt.Sprintf("the newest entry of %s names %s, but no file of its archives/ is named like an archive (<date>-<HH>h<MM>-…); nothing was deleted: delete the archive and its line by hand if it is what you want to undo", p.History(), entryPath),
			fmt.Sprintf("l'entrée la plus récente de %s nomme %s, mais aucun fichier de son archives/ n'est nommé comme une archive (<date>-<HH>h<MM>-…) ; rien n'a été supprimé : supprimez l'archive et sa ligne à la main si c'est ce que vous voulez annuler", p.History(), entryPath))
	}
	return fault.New(fault.HistoryMismatch, details,
		fmt.Sprintf("history.md and archives/ of %s disagree: the newest entry names %s but the newest archive is %s; nothing was deleted: put the newest archive's line first in %s (or delete the archive by hand)", p.Slug, entryPath, strings.Join(paths, " or "), p.History()),
		fmt.Sprintf("history.md et archives/ de %s divergent : l'entrée la plus récente nomme %s mais l'archive la plus récente est %s ; rien n'a été supprimé : mettez la ligne de l'archive la plus récente en tête de %s (ou supprimez l'archive à la main)", p.Slug, entryPath, strings.Join(paths, " ou "), p.History()))
}

// archiveMismatch is ARCHIVE_MISMATCH: the archive the caller expects to
// remove is not the one a rollback would remove: not among the newest
// files of archives/ (newest), or, among archives of the same minute, not
// the one history.md's first entry names (entry).
func archiveMismatch(p vault.Project, expected string, newest []string, entry string) error {
	want := p.Dir + "/archives/" + expected
	if entry != "" {
		other := p.Dir + "/archives/" + entry
		return fault.New(fault.ArchiveMismatch, map[string]any{"slug": p.Slug, "expected": want, "newest": []string{other}},
			fmt.Sprintf("%s is not the archive a rollback of %s would remove: it was made in the same minute as %s, which history.md's newest entry names; nothing was deleted; call again naming %s if that is the one to undo", want, p.Slug, other, other),
			fmt.Sprintf("%s n'est pas l'archive qu'un retour en arrière supprimerait pour %s : elle date de la même minute que %s, que nomme l'entrée la plus récente de history.md ; rien n'a été supprimé ; rappelez en nommant %s si c'est elle qu'il faut annuler", want, p.Slug, other, other))
	}
	paths := archivePaths(p, newest)
	is := strings.Join(paths, " or ")
	est := strings.Join(paths, " ou ")
	if len(paths) == 0 {
		is, est = "none (no file of archives/ is named like an archive)", "aucune (aucun fichier de archives/ n'est nommé comme une archive)"
	}
	return fault.New(fault.ArchiveMismatch, map[string]any{"slug": p.Slug, "expected": want, "newest": paths},
		fmt.Sprintf("%s is not the archive a rollback of %s would remove: the newest is %s; nothing was deleted (it may be rolled back already); call again naming the newest archive if that is the one to undo", want, p.Slug, is),
		fmt.Sprintf("%s n'est pas l'archive qu'un retour en arrière supprimerait pour %s : la plus récente est %s ; rien n'a été supprimé (elle est peut-être déjà annulée) ; rappelez en nommant l'archive la plus récente si c'est elle qu'il faut annuler", want, p.Slug, est))
}

// notUTF8SHA returns the precondition of a file the host sent without text.
func notUTF8SHA(env *Env, p string) string {
	return "sha256:" + env.View.SHA256(p)
}

// HistorizeResult is mem_historize's result.
type HistorizeResult struct {
	Slug    string `json:"slug"`
	From    string `json:"from"`
	To      string `json:"to"`
	Revive  bool   `json:"revive"`
	Changed bool   `json:"changed"`
	Phase   Change `json:"phase"`
	Common
}

// displayCreatedKey marks, in an archived project's context.md, a display
// that mem_historize created (there was none): revive removes such a
// display, and only such a one.
const displayCreatedKey = "display_created_on_archive"

// historize is mem_historize: one plan of a context edit and a folder move.
// The edit is made in place first, then the folder moves, so the journal
// can finish either half.
//
// The display: historize appends " [archived]" to the one there is, or,
// when there is none, creates `<slug> — context [archived]` and records
// that it did with `display_created_on_archive: true`. Revive removes the
// suffix and keeps the key; it removes the key only when that mark is
// there and the value is still the one created (a display the user
// rewrote while archived is theirs: only its suffix goes). The value alone
// never decides: another tool's `legacy-app — context [archived]` stays
// `legacy-app — context`. The mark is removed on revive, so historize then
// revive gives back context.md byte for byte.
func historize(env *Env, raw json.RawMessage) (any, plan.Plan, error) {
	var a struct {
		Slug   string `json:"slug"`
		Revive bool   `json:"revive"`
	}
	if err := decode(raw, &a); err != nil {
		return nil, nil, err
	}
	p, err := vault.Resolve(env.View, a.Slug)
	if err != nil {
		return nil, nil, err
	}
	if p.Kind == vault.KindDomain {
		return nil, nil, fault.New(fault.NotAProject, map[string]any{"slug": p.Slug, "path": p.Dir},
			fmt.Sprintf("%s is a domain (%s); only projects are archived", p.Slug, p.Dir),
			fmt.Sprintf("%s est un domaine (%s) ; seuls les projets s'archivent", p.Slug, p.Dir))
	}
	target := vault.KindArchived
	if a.Revive {
		target = vault.KindProject
	}
	res := HistorizeResult{Slug: p.Slug, From: p.Dir, To: vault.Dir(target, p.Slug), Revive: a.Revive, Common: Common{Warnings: []string{}}}
	if p.Kind == target {
		res.From = p.Dir
		res.Warnings = append(res.Warnings, env.T(
			fmt.Sprintf("%s is already in %s; nothing written", p.Slug, p.Dir),
			fmt.Sprintf("%s est déjà dans %s ; rien n'a été écrit", p.Slug, p.Dir)))
		res.SummaryMD = res.Warnings[0]
		return res, nil, nil
	}
	c, err := readContext(env, a.Slug)
	if err != nil {
		return nil, nil, err
	}
	text := c.text
	prev, hadPhase := c.doc.String("phase")
	if hadPhase {
		res.Phase.From = &prev
	}
	display, hasDisplay := c.doc.String("display")
	var errs []error
	set := func(k string, v any) {
		t, err := frontmatter.Set(text, k, v)
		errs = append(errs, err)
		if err == nil {
			text = t
		}
	}
	remove := func(k string) {
		t, err := frontmatter.Remove(text, k)
		errs = append(errs, err)
		if err == nil {
			text = t
		}
	}
	const suffix = " [archived]"
	created := p.Slug + " — context" + suffix
	if !a.Revive {
		archived := "archived"
		res.Phase.To = &archived
		set("phase", "archived")
		if hadPhase && prev != "archived" {
			set("phase_before_archive", prev)
		}
		set("archived_at", env.Now.Format("2006-01-02"))
		switch {
		case !hasDisplay:
			set("display", created)
			set(displayCreatedKey, true)
		case !strings.HasSuffix(display, suffix):
			set("display", display+suffix)
		}
	} else {
		before, ok := c.doc.String("phase_before_archive")
		if ok {
			res.Phase.To = &before
			set("phase", before)
			remove("phase_before_archive")
		} else {
			remove("phase")
		}
		remove("archived_at")
		madeByUs, marked := c.doc.Lookup(displayCreatedKey)
		if marked {
			remove(displayCreatedKey)
		}
		switch {
		case hasDisplay && madeByUs == true && display == created:
			remove("display")
		case hasDisplay && strings.HasSuffix(display, suffix):
			set("display", strings.TrimSuffix(display, suffix))
		}
	}
	for _, err := range errs {
		if err != nil {
			return nil, nil, frontmatterError(c.path, err)
		}
	}
	res.Changed = true
	verb := env.T("Historized", "Historisé")
	if a.Revive {
		verb = env.T("Revived", "Ravivé")
	}
	res.SummaryMD = fmt.Sprintf("%s **%s**: %s → %s.", verb, p.Slug, res.From, res.To)
	pl := plan.Plan{{Op: plan.Move, From: p.Dir, To: res.To, Expect: plan.Absent}}
	if text != c.text {
		pl = append(plan.Plan{plan.WriteOp(c.path, c.sha, text)}, pl...)
	}
	return res, pl, nil
}

// InitResult is mem_init_project's result.
type InitResult struct {
	Slug    string `json:"slug"`
	Kind    string `json:"kind"`
	Context string `json:"context"`
	History string `json:"history"`
	Common
}

// initProject is mem_init_project. The new context.md holds kind, created,
// and summary and repo_path when given; its body is a title and the three
// headings a context usually has; history.md a title.
func initProject(env *Env, raw json.RawMessage) (any, plan.Plan, error) {
	var a struct {
		Slug     string  `json:"slug"`
		Kind     string  `json:"kind"`
		Summary  *string `json:"summary"`
		RepoPath *string `json:"repo_path"`
	}
	if err := decode(raw, &a); err != nil {
		return nil, nil, err
	}
	if err := vault.CheckSlug("slug", a.Slug); err != nil {
		return nil, nil, err
	}
	var summary string
	if a.Summary != nil {
		summary = NormalizeSummary(*a.Summary)
		if err := checkSummaryLength(summary); err != nil {
			return nil, nil, err
		}
	}
	if a.RepoPath != nil && strings.ContainsAny(*a.RepoPath, "\r\n") {
		return nil, nil, fault.Argument("repo_path", "must be one line", "doit tenir sur une ligne")
	}
	_, err := vault.Resolve(env.View, a.Slug)
	switch fault.CodeOf(err) {
	case fault.UnknownSlug:
	case "":
		if err != nil {
			return nil, nil, err // a need
		}
		fallthrough
	case fault.SlugConflict:
		return nil, nil, fault.New(fault.SlugExists, map[string]any{"slug": a.Slug},
			fmt.Sprintf("%s exists already; pick another slug, or revive it with mem_historize if it is archived", a.Slug),
			fmt.Sprintf("%s existe déjà ; choisissez un autre slug, ou ravivez-le avec mem_historize s'il est archivé", a.Slug))
	default:
		return nil, nil, err
	}
	kind := vault.KindProject
	if a.Kind == "domain" {
		kind = vault.KindDomain
	}
	dir := vault.Dir(kind, a.Slug)
	f := fields{{"slug", str(a.Slug)}, {"kind", str(a.Kind)}, {"created", stamp(env.Now.Format("2006-01-02"))}}
	if summary != "" {
		f = append(f, field{"summary", str(summary)})
	}
	if a.RepoPath != nil && strings.TrimSpace(*a.RepoPath) != "" {
		f = append(f, field{"repo_path", str(strings.TrimSpace(*a.RepoPath))})
	}
	ctx, err := f.note(fmt.Sprintf("# %s\n\n## Where we are\n\n## Decisions\n\n## Next\n", a.Slug))
	if err != nil {
		return nil, nil, fault.Internalf("writing context.md: %v", err)
	}
	res := InitResult{Slug: a.Slug, Kind: a.Kind, Context: dir + "/context.md", History: dir + "/history.md", Common: Common{Warnings: []string{}}}
	fr := map[string]string{"project": "Projet", "domain": "Domaine"}[a.Kind]
	res.SummaryMD = env.T(fmt.Sprintf("Created %s **%s** in %s.", a.Kind, a.Slug, dir), fmt.Sprintf("%s **%s** créé dans %s.", fr, a.Slug, dir))
	return res, plan.Plan{
		plan.WriteOp(res.Context, plan.Absent, ctx),
		plan.WriteOp(res.History, plan.Absent, fmt.Sprintf("# History — %s\n", a.Slug)),
	}, nil
}

// ListEntry is one project or domain of mem_list.
type ListEntry struct {
	Slug        string  `json:"slug"`
	Kind        string  `json:"kind"`
	Path        string  `json:"path"`
	Archived    bool    `json:"archived"`
	Phase       *string `json:"phase"`
	Summary     *string `json:"summary"`
	LastSession *string `json:"last_session"`
	Problem     *string `json:"problem,omitempty"`
}

// ListResult is mem_list's result.
type ListResult struct {
	Projects []ListEntry `json:"projects"`
	Common
}

// list_ is mem_list: every project and domain, sorted by kind then slug.
// A folder whose context.md is missing or unreadable is listed with the
// problem instead of failing the whole list.
func list_(env *Env, raw json.RawMessage) (any, plan.Plan, error) {
	var a struct {
		IncludeArchived bool `json:"include_archived"`
	}
	if err := decode(raw, &a); err != nil {
		return nil, nil, err
	}
	kinds := []string{vault.KindProject, vault.KindDomain}
	if a.IncludeArchived {
		kinds = append(kinds, vault.KindArchived)
	}
	found, err := vault.Folders(env.View, nil, kinds...)
	if err != nil {
		return nil, nil, err
	}
	var files []string
	for _, p := range found {
		files = append(files, p.Context())
	}
	if err := env.View.Prefetch(files, nil); err != nil {
		return nil, nil, err
	}
	res := ListResult{Projects: []ListEntry{}, Common: Common{Warnings: []string{}}}
	for _, p := range found {
		e := ListEntry{Slug: p.Slug, Kind: p.Type(), Path: p.Context(), Archived: p.Archived()}
		text, _, err := env.View.Read(p.Context())
		var doc *frontmatter.Doc
		if err == nil {
			doc, err = frontmatter.Parse(text)
		}
		if err != nil {
			msg := env.T("no context.md", "pas de context.md")
			if !errors.Is(err, vault.ErrNotExist) {
				msg = err.Error()
			}
			e.Problem = &msg
			res.Projects = append(res.Projects, e)
			continue
		}
		get := func(k string) *string {
			if s, ok := doc.String(k); ok {
				return &s
			}
			return nil
		}
		e.Phase, e.Summary, e.LastSession = get("phase"), get("summary"), get("last-session")
		res.Projects = append(res.Projects, e)
	}
	sort.SliceStable(res.Projects, func(i, j int) bool {
		a, b := res.Projects[i], res.Projects[j]
		if a.Archived != b.Archived {
			return !a.Archived
		}
		return a.Slug < b.Slug
	})
	var md strings.Builder
	for _, e := range res.Projects {
		fmt.Fprintf(&md, "- **%s** (%s", e.Slug, e.Kind)
		if e.Archived {
			md.WriteString(env.T(", archived", ", archivé"))
		}
		if e.Phase != nil && !(e.Archived && *e.Phase == "archived") {
			fmt.Fprintf(&md, ", %s", *e.Phase)
		}
		md.WriteString(")")
		switch {
		case e.Problem != nil:
			fmt.Fprintf(&md, " — %s", *e.Problem)
		case e.Summary != nil:
			fmt.Fprintf(&md, ": %s", *e.Summary)
		}
		md.WriteString("\n")
	}
	if md.Len() == 0 {
		md.WriteString(env.T("No project yet.", "Aucun projet pour l'instant."))
	}
	res.SummaryMD = strings.TrimSuffix(md.String(), "\n")
	return res, nil, nil
}

// ContextResult is mem_read_context's result.
type ContextResult struct {
	Slug        string         `json:"slug"`
	Kind        string         `json:"kind"`
	Archived    bool           `json:"archived"`
	Path        string         `json:"path"`
	Frontmatter map[string]any `json:"frontmatter"`
	Body        string         `json:"body"`
	Common
}

func readContextTool(env *Env, raw json.RawMessage) (any, plan.Plan, error) {
	var a struct {
		Slug string `json:"slug"`
	}
	if err := decode(raw, &a); err != nil {
		return nil, nil, err
	}
	c, err := readContext(env, a.Slug)
	if err != nil {
		return nil, nil, err
	}
	fm := map[string]any{}
	for _, k := range c.doc.Keys() {
		v, _ := c.doc.Lookup(k)
		fm[k] = v
	}
	res := ContextResult{Slug: c.project.Slug, Kind: c.project.Type(), Archived: c.project.Archived(),
		Path: c.path, Frontmatter: fm, Body: c.doc.Body(), Common: Common{Warnings: []string{}}}
	res.SummaryMD = c.doc.Body()
	return res, nil, nil
}
