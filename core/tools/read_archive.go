package tools

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kessho/kessho/core/catalog"
	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/history"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/core/worklog"
)

// readArchiveSpec is mem_read_archive in the catalogue.
// The memory-kit's procedures name the archive `filename` (kitAccepts).
var readArchiveSpec = kitAccepts(tool[readArchiveResult](catalogText("read_archive.yaml"), "mem_read_archive", "read-archive slug archive", reads, readsArchives(fault.UnknownArchive), []catalog.Param{
	slugParam,
	{Name: "archive", Type: catalog.String, Default: "latest", MinLength: intp(1), MaxLength: intp(1000), OneLine: true},
}), catalog.Param{Name: "filename", Type: catalog.String, SynonymOf: "archive"})

// readArchiveResult is mem_read_archive's result.
type readArchiveResult struct {
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
	None, Unknown, DidYouMean, ListThem, OutOfRange, Gone fault.Msg
}]("read_archive.yaml")

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
	res := readArchiveResult{Slug: p.Slug, Kind: p.Type(), Archived: p.Archived(), Path: refs[i].Path, Index: i, Common: common()}
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

// pickArchive finds the archive `archive` names among refs: "latest"
// (the first), an index from the newest written in digits, or a file name
// of archives/ (".md" optional) or its vault path (read as
// mem_rollback_archive reads its `archive`), matched exactly, else
// ignoring case when that names one file. A number that is no index
// of refs ("-1", "1.5", "9" of 4) is UNKNOWN_ARCHIVE saying the range;
// any other unknown name is UNKNOWN_ARCHIVE with the closest names (see
// closestArchives); so is an entry whose file is gone.
func pickArchive(p vault.Project, refs []history.Archive, listing []string, archive string) (int, error) {
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
		name, err := archiveName(p, archive)
		if err != nil {
			return 0, err
		}
		i = slices.IndexFunc(refs, func(r history.Archive) bool { return r.Name == name })
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
func onlyFold(refs []history.Archive, name string) int {
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
