package history

import (
	"path"
	"slices"
	"strings"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
)

// Archive is one archive of a project, in the order of Archives.
type Archive struct {
	Path   string // vault path
	Name   string // file name in archives/; "" when the entry points deeper
	Entry  *Entry // the history.md entry naming it, or nil
	Exists bool   // the file is in archives/
}

// Archives returns project p's archives, newest first, from the text of
// its history.md and the listing of its archives/ folder (nil when the
// folder is missing): history.md's entries in its order (the entries
// whose link stays inside archives/, their files there or gone), then the
// .md files of archives/ that no entry names (a vault written by other
// tools, a note added by hand), newest first by the date and minute their
// names give (Stamp; undated names last), then by name, descending.
func Archives(p vault.Project, historyText string, listing []string) []Archive {
	archDir := p.Dir + "/archives"
	var refs []Archive
	inDir := make(map[string]bool, len(listing))
	for _, n := range listing {
		inDir[n] = true
	}
	named := map[string]bool{}
	for _, e := range Parse(historyText) {
		vp, ok := EntryPath(p, e.Target)
		if !ok {
			continue
		}
		name := strings.TrimPrefix(vp, archDir+"/")
		if strings.Contains(name, "/") {
			name = ""
		}
		named[name] = true
		refs = append(refs, Archive{Path: vp, Name: name, Entry: &e, Exists: name != "" && inDir[name]})
	}
	type stamped struct{ name, stamp string }
	var rest []stamped
	for _, n := range listing {
		if strings.HasSuffix(n, ".md") && !named[n] {
			st, _ := Stamp(n)
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
		refs = append(refs, Archive{Path: archDir + "/" + n.name, Name: n.name, Exists: true})
	}
	return refs
}

// EntryPath is the vault path an entry's target names, relative to
// project p's folder, and whether it stays inside p's archives/.
func EntryPath(p vault.Project, target string) (string, bool) {
	vp := path.Clean(p.Dir + "/" + target)
	return vp, plan.CheckPath(vp) == nil && strings.HasPrefix(vp, p.Dir+"/archives/")
}

// ArchivePaths returns the vault paths of names in p's archives/.
func ArchivePaths(p vault.Project, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = p.Dir + "/archives/" + n
	}
	return out
}

// ArchiveName reads s, naming one of p's archives, as a file name of p's
// archives/: a base name (".md" optional) or a vault path into the
// archives/ of p's folder under any of its kinds (active, archived,
// domain: wherever mem_historize put it). ok is false for a path outside
// them.
func ArchiveName(p vault.Project, s string) (name string, ok bool) {
	if dir, base := path.Split(s); dir != "" {
		dir = strings.TrimSuffix(dir, "/")
		ok := false
		for _, k := range []string{vault.KindProject, vault.KindArchived, vault.KindDomain} {
			ok = ok || dir == vault.Dir(k, p.Slug)+"/archives"
		}
		if !ok || base == "" {
			return "", false
		}
		s = base
	}
	if !strings.HasSuffix(s, ".md") {
		s += ".md"
	}
	return s, true
}
