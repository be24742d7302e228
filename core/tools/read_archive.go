package tools

import (
	"errors"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/frontmatter"
	"github.com/kessho/kessho/core/history"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/worklog"
)

// readsArchives returns the codes of a tool that reads a project's
// archives (withArchives) besides own and catalog.Shared: those of
// resolving the slug and reading history.md.
func readsArchives(own ...fault.Code) []fault.Code {
	return append(own, fault.SlugConflict, fault.FileNotUTF8)
}

// readArchiveSpec is mem_read_archive in the catalogue.
var readArchiveSpec = tool[ReadArchiveResult](catalogText("read_archive.yaml"), "mem_read_archive", "read-archive slug archive", reads, readsArchives(fault.UnknownArchive), []catalog.Param{
	slugParam,
	{Name: "archive", Type: catalog.String, Default: "latest", MinLength: intp(1), MaxLength: intp(1000), OneLine: true},
})

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

// readArchiveText is read_archive.yaml: mem_read_archive's messages,
// parsed on first use.
var readArchiveText = loadText[struct {
	None, Unknown, DidYouMean, ListThem, OutOfRange, Gone, BadFrontmatter fault.Msg
}]("read_archive.yaml")

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
	inDir := make(map[string]bool, len(listing))
	for _, n := range listing {
		inDir[n] = true
	}
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
		refs = append(refs, archiveRef{Path: vp, Name: name, Entry: &e, Exists: name != "" && inDir[name]})
	}
	type stamped struct{ name, stamp string }
	var rest []stamped
	for _, n := range listing {
		if strings.HasSuffix(n, ".md") && !named[n] {
			st, _ := history.Stamp(n)
			rest = append(rest, stamped{n, st})
		}
	}
	slices.SortFunc(rest, func(a, b stamped) int {
		if c := strings.Compare(b.stamp, a.stamp); c != 0 {
			return c
		}
		return strings.Compare(b.name, a.name)
	})
	for _, n := range rest {
		refs = append(refs, archiveRef{Path: archDir + "/" + n.name, Name: n.name, Exists: true})
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
// whole text, with a warning added to warnings (noteDoc).
func splitNote(env *Env, p, text string, warnings *[]string) (map[string]any, string) {
	doc := noteDoc(env, p, text, warnings)
	if doc == nil {
		return nil, text
	}
	return fmMap(doc), doc.Body()
}

// noteDoc parses the note at p; when its frontmatter is not valid YAML, it
// returns nil and adds a warning to warnings saying where the YAML breaks.
func noteDoc(env *Env, p, text string, warnings *[]string) *frontmatter.Doc {
	doc, err := frontmatter.Parse(text)
	if err != nil {
		var fe *frontmatter.Error
		if errors.As(err, &fe) {
			*warnings = append(*warnings, env.Say(readArchiveText().Msg.BadFrontmatter, p, fe.Line, fe.Reason))
		}
		return nil
	}
	return doc
}

// fmMap returns doc's frontmatter as an object ({} when it has no key).
func fmMap(doc *frontmatter.Doc) map[string]any {
	fm := map[string]any{}
	for _, k := range doc.Keys() {
		fm[k], _ = doc.Lookup(k)
	}
	return fm
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
		return 0, readArchiveText().Msg.None.Err(fault.UnknownArchive, unknownArchiveDetails(p, archive, nil), p.Slug)
	}
	i := -1
	switch {
	case archive == "latest":
		i = 0
	case strings.Trim(archive, "+-.0123456789") == "":
		n, err := strconv.Atoi(archive)
		if err != nil || n < 0 || n >= len(refs) || strings.Trim(archive, "0123456789") != "" {
			return 0, readArchiveText().Msg.OutOfRange.Err(fault.UnknownArchive, unknownArchiveDetails(p, archive, nil),
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
	m := readArchiveText().Msg
	en, fr := m.ListThem.En, m.ListThem.Fr
	if len(near) > 0 {
		en, fr = m.DidYouMean.In("en", strings.Join(near, ", ")), m.DidYouMean.In("fr", strings.Join(near, ", "))
	}
	details := unknownArchiveDetails(p, archive, near)
	if i >= 0 {
		return 0, fault.New(fault.UnknownArchive, details,
			m.Gone.In("en", p.Slug, refs[i].Path, en), m.Gone.In("fr", p.Slug, refs[i].Path, fr))
	}
	return 0, fault.New(fault.UnknownArchive, details,
		m.Unknown.In("en", p.Slug, archive, en), m.Unknown.In("fr", p.Slug, archive, fr))
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
