package tools

import (
	"errors"
	"path"
	"slices"
	"strconv"
	"strings"

	"kessho/core/catalog"
	"kessho/core/fault"
	"kessho/core/frontmatter"
	"kessho/core/history"
	"kessho/core/plan"
	"kessho/core/vault"
	"kessho/core/worklog"
)

// readErrors are the codes the tools that read a project's archives
// (withArchives) may raise: the shared ones, and those of resolving the
// slug and reading history.md.
var readErrors = append([]fault.Code{fault.SlugConflict, fault.FileNotUTF8}, catalog.Shared...)

// readArchiveSpec is mem_read_archive in the catalogue.
var readArchiveSpec = &catalog.Tool{
	Name:  "mem_read_archive",
	Title: catalog.Text{En: "Read an archive", Fr: "Lire une archive"},
	Description: catalog.Text{
		En: "Returns one archived session of a project or domain: its path, its frontmatter as an object and its body. Name it by file name, by `latest`, or by its index from the newest (\"0\" is the newest, \"1\" the one before: the order of mem_read_history). Use it to restore a context after a rollback or to read a past session in full. Read-only.",
		Fr: "Renvoie une session archivée d'un projet ou domaine : son chemin, son frontmatter en objet et son corps. Nommez-la par son nom de fichier, par `latest`, ou par son rang depuis la plus récente (« 0 » la plus récente, « 1 » la précédente : l'ordre de mem_read_history). Sert à restaurer un contexte après une annulation ou à relire une session passée en entier. Lecture seule.",
	},
	Params: []catalog.Param{
		slugParam,
		{Name: "archive", Type: catalog.String, Default: "latest", MinLength: intp(1), MaxLength: intp(1000), OneLine: true,
			Description: catalog.Text{
				En: "Which archive: its file name (\".md\" optional) or the path mem_archive returned; `latest` (the default) for the newest; or its index from the newest as a string of digits (\"0\" = newest, \"2\" = third newest).",
				Fr: "Quelle archive : son nom de fichier (« .md » facultatif) ou le chemin renvoyé par mem_archive ; `latest` (par défaut) pour la plus récente ; ou son rang depuis la plus récente, en chiffres (« 0 » = la plus récente, « 2 » = la troisième).",
			}},
	},
	Errors: append([]fault.Code{fault.UnknownArchive}, readErrors...),
	CLI:    catalog.CLI{Command: "read-archive", Args: []string{"slug", "archive"}},
}

// ReadArchiveResult is mem_read_archive's result.
type ReadArchiveResult struct {
	Slug        string         `json:"slug"`
	Kind        string         `json:"kind"`
	Archived    bool           `json:"archived"`
	Path        string         `json:"path"`
	Index       int            `json:"index"`
	HistoryLine *string        `json:"history_line"`
	Frontmatter map[string]any `json:"frontmatter"`
	Body        string         `json:"body"`
	Common
}

// readArchiveMsg is mem_read_archive's messages.
var readArchiveMsg = struct {
	none, unknown, didYouMean, listThem, outOfRange, gone, badFrontmatter fault.Msg
}{
	none: fault.Msg{En: "%s has no archive yet; mem_archive mode=full makes one",
		Fr: "%s n'a encore aucune archive ; mem_archive mode=full en crée une"},
	unknown: fault.Msg{En: "%s has no archive named %q%s", Fr: "%s n'a pas d'archive nommée %q%s"},
	didYouMean: fault.Msg{En: "; did you mean %s?",
		Fr: " ; vouliez-vous dire %s ?"},
	listThem: fault.Msg{En: "; mem_read_history lists them",
		Fr: " ; mem_read_history les liste"},
	outOfRange: fault.Msg{En: "%s has %d archive(s): index %s is out of range, give 0 (the newest) to %d",
		Fr: "%s a %d archive(s) : le rang %s est hors limites, donnez 0 (la plus récente) à %d"},
	gone: fault.Msg{En: "history.md of %s names %s, but that file is gone%s",
		Fr: "history.md de %s nomme %s, mais ce fichier n'existe plus%s"},
	badFrontmatter: fault.Msg{En: "%s line %d: the frontmatter is not valid YAML (%s); it is returned as part of the body",
		Fr: "%s ligne %d : le frontmatter n'est pas du YAML valide (%s) ; il est renvoyé dans le corps"},
}

// archiveRef is one archive of a project, in the order of
// projectArchives.
type archiveRef struct {
	Path   string         // vault path
	Name   string         // file name in archives/; "" when the entry points deeper
	Entry  *history.Entry // the history.md entry naming it, or nil
	Exists bool           // the file is in archives/
}

// projectArchives is a project's archives, newest first: history.md's
// entries in its order (the entries whose link stays inside archives/,
// their files there or gone), then the .md files of archives/ that no
// entry names (a vault written by other tools, a note added by hand),
// newest first by the date and minute their names give (history.Stamp;
// undated names last), then by name, descending. mem_read_archive's
// index and `latest` and mem_recall's last archives follow this order; its
// first part is mem_read_history's. It also returns history.md as read and
// the listing of archives/ (nil when the folder is missing).
func projectArchives(env *Env, slug string) (*archives, error) {
	p, err := vault.Resolve(env.View, slug)
	if err != nil {
		return nil, err
	}
	archDir := p.Dir + "/archives"
	if err := env.View.Ask(vault.Need{Files: []string{p.History()}, Dirs: []string{archDir}}); err != nil {
		return nil, err
	}
	hist, err := env.View.ReadText(p.History())
	if err != nil {
		return nil, err
	}
	listing, err := env.View.List(archDir)
	if err != nil && !errors.Is(err, vault.ErrNotExist) {
		return nil, err
	}
	var refs []archiveRef
	named := map[string]bool{}
	for _, e := range history.Parse(hist.Text) {
		vp, ok := entryPath(p, e.Target)
		if !ok {
			continue
		}
		name := strings.TrimPrefix(vp, archDir+"/")
		if strings.Contains(name, "/") {
			name = ""
		}
		named[name] = true
		refs = append(refs, archiveRef{Path: vp, Name: name, Entry: &e, Exists: name != "" && slices.Contains(listing, name)})
	}
	var rest []string
	for _, n := range listing {
		if strings.HasSuffix(n, ".md") && !named[n] {
			rest = append(rest, n)
		}
	}
	slices.SortFunc(rest, func(a, b string) int {
		sa, _ := history.Stamp(a)
		sb, _ := history.Stamp(b)
		if c := strings.Compare(sb, sa); c != 0 {
			return c
		}
		return strings.Compare(b, a)
	})
	for _, n := range rest {
		refs = append(refs, archiveRef{Path: archDir + "/" + n, Name: n, Exists: true})
	}
	return &archives{p: p, refs: refs, hist: hist, listing: listing}, nil
}

// slugArg is the slug argument of the tools withArchives runs.
type slugArg struct {
	Slug string `json:"slug"`
}

func (s *slugArg) slug() string { return s.Slug }

// slugged is a pointer to a tool's arguments that hold a slug.
type slugged[A any] interface {
	*A
	slug() string
}

// withArchives makes a read-only tool of run, which reads a project's
// archives: it decodes the arguments (A, embedding slugArg), resolves the
// project and reads its archives (projectArchives) before run.
func withArchives[A any, P slugged[A]](run func(env *Env, ar *archives, a *A) (any, error)) Func {
	return typed(func(env *Env, a A) (any, plan.Plan, error) {
		ar, err := projectArchives(env, P(&a).slug())
		if err != nil {
			return nil, nil, err
		}
		res, err := run(env, ar, &a)
		return res, nil, err
	})
}

// archives is a project's archives as projectArchives read them.
type archives struct {
	p       vault.Project
	refs    []archiveRef
	hist    vault.Content // history.md
	listing []string      // archives/
}

// entryPath is the vault path an entry's target names, relative to
// project p's folder, and whether it stays inside p's archives/.
func entryPath(p vault.Project, target string) (string, bool) {
	vp := path.Clean(p.Dir + "/" + target)
	return vp, plan.CheckPath(vp) == nil && strings.HasPrefix(vp, p.Dir+"/archives/")
}

// readArchiveTool is mem_read_archive: one archive of a project, found by
// `archive` (see pickArchive), read whole. A frontmatter that is not valid
// YAML does not refuse the read: the frontmatter is then null, the body
// the whole text, and a warning says where the YAML breaks. A file that
// is not UTF-8 is FILE_NOT_UTF8 (its bytes cannot travel as JSON text).
func readArchiveTool(env *Env, ar *archives, a *readArchiveArgs) (any, error) {
	p, refs := ar.p, ar.refs
	i, err := pickArchive(p, refs, ar.listing, strings.TrimSpace(a.Archive))
	if err != nil {
		return nil, err
	}
	c, err := env.View.ReadText(refs[i].Path)
	if err != nil {
		return nil, err
	}
	res := ReadArchiveResult{Slug: p.Slug, Kind: p.Type(), Archived: p.Archived(), Path: refs[i].Path, Index: i, Common: common()}
	if e := refs[i].Entry; e != nil {
		res.HistoryLine = &e.Line
	}
	res.Frontmatter, res.Body = splitNote(env, c.Path, c.Text, &res.Warnings)
	res.SummaryMD = res.Body
	return res, nil
}

// readArchiveArgs is mem_read_archive's arguments.
type readArchiveArgs struct {
	slugArg
	Archive string `json:"archive"`
}

// splitNote returns a note's frontmatter as an object ({} when it has
// none) and its body; when its frontmatter is not valid YAML, nil and the
// whole text, with a warning added to warnings.
func splitNote(env *Env, p, text string, warnings *[]string) (map[string]any, string) {
	doc, err := frontmatter.Parse(text)
	if err != nil {
		var fe *frontmatter.Error
		if errors.As(err, &fe) {
			*warnings = append(*warnings, env.Say(readArchiveMsg.badFrontmatter, p, fe.Line, fe.Reason))
		}
		return nil, text
	}
	fm := map[string]any{}
	for _, k := range doc.Keys() {
		fm[k], _ = doc.Lookup(k)
	}
	return fm, doc.Body()
}

// pickArchive finds the archive `archive` names among refs: "latest"
// (the first), an index from the newest written in digits, or a file name
// of archives/ (".md" optional) or its vault path (read as
// mem_rollback_archive reads its `archive`), matched exactly, else
// ignoring case when that names one file. A number that is no index
// of refs ("-1", "1.5", "9" of 4) is UNKNOWN_ARCHIVE saying the range;
// any other unknown name is UNKNOWN_ARCHIVE with the closest names (see
// closestArchives); so is an entry whose file is gone.
func pickArchive(p vault.Project, refs []archiveRef, listing []string, archive string) (int, error) {
	if len(refs) == 0 {
		return 0, readArchiveMsg.none.Err(fault.UnknownArchive, unknownArchiveDetails(p, archive, nil), p.Slug)
	}
	i := -1
	switch {
	case archive == "latest":
		i = 0
	case strings.Trim(archive, "+-.0123456789") == "":
		n, err := strconv.Atoi(archive)
		if err != nil || n < 0 || n >= len(refs) || strings.Trim(archive, "0123456789") != "" {
			return 0, readArchiveMsg.outOfRange.Err(fault.UnknownArchive, unknownArchiveDetails(p, archive, nil),
				p.Slug, len(refs), archive, len(refs)-1)
		}
		i = n
	default:
		name, err := expectedArchive(p, archive)
		if err != nil {
			return 0, err
		}
		i = slices.IndexFunc(refs, func(r archiveRef) bool { return r.Name == name })
		if i < 0 {
			i = onlyFold(refs, name)
		}
	}
	if i >= 0 && refs[i].Exists {
		return i, nil
	}
	sought := path.Base(archive)
	if i >= 0 {
		sought = path.Base(refs[i].Path)
	}
	near := closestArchives(p, strings.TrimSuffix(sought, ".md"), listing)
	tail := readArchiveMsg.listThem
	if len(near) > 0 {
		tail = fault.Msg{En: readArchiveMsg.didYouMean.In("en", strings.Join(near, ", ")), Fr: readArchiveMsg.didYouMean.In("fr", strings.Join(near, ", "))}
	}
	details := unknownArchiveDetails(p, archive, near)
	if i >= 0 {
		return 0, fault.New(fault.UnknownArchive, details,
			readArchiveMsg.gone.In("en", p.Slug, refs[i].Path, tail.En), readArchiveMsg.gone.In("fr", p.Slug, refs[i].Path, tail.Fr))
	}
	return 0, fault.New(fault.UnknownArchive, details,
		readArchiveMsg.unknown.In("en", p.Slug, archive, tail.En), readArchiveMsg.unknown.In("fr", p.Slug, archive, tail.Fr))
}

// closestArchives returns up to five stems of the .md files of listing
// closest to name (vault.Closest), compared whole and by their subject
// part (what follows `<date>-<HH>h<MM>-<slug>-`), so that a subject
// alone, misspelt, still finds its archive.
func closestArchives(p vault.Project, name string, listing []string) []string {
	var keys []string
	stemOf := map[string]string{}
	for _, n := range listing {
		stem, ok := strings.CutSuffix(n, ".md")
		if !ok {
			continue
		}
		keys = append(keys, stem)
		stemOf[stem] = stem
		if s, ok := worklog.ParseName(n); ok {
			subject := strings.TrimSuffix(strings.TrimPrefix(s.Rest, p.Slug+"-"), ".md")
			if _, taken := stemOf[subject]; !taken && subject != "" {
				keys = append(keys, subject)
				stemOf[subject] = stem
			}
		}
	}
	var out []string
	for _, k := range vault.Closest(name, keys, len(keys)) {
		if st := stemOf[k]; !slices.Contains(out, st) && len(out) < 5 {
			out = append(out, st)
		}
	}
	return out
}

// onlyFold returns the index of the one ref named name ignoring case, or
// -1 when none or several are.
func onlyFold(refs []archiveRef, name string) int {
	found := -1
	for i, r := range refs {
		if r.Name != "" && strings.EqualFold(r.Name, name) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// unknownArchiveDetails is UNKNOWN_ARCHIVE's details.
func unknownArchiveDetails(p vault.Project, archive string, near []string) map[string]any {
	if near == nil {
		near = []string{}
	}
	return map[string]any{"slug": p.Slug, "archive": archive, "close_matches": near}
}
