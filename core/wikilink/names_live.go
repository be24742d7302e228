package wikilink

import (
	"path"
	"slices"
	"strings"
)

// Resolver is what a link target is looked up in: Names, made once of a
// listing, or LiveNames, kept up to date note by note.
type Resolver interface {
	Taken(name string) (string, bool)
	Note(target string) (string, bool)
}

// LiveNames resolves link targets as Names of the same files does, and is
// kept up to date one file at a time (Add, Remove): a name shared by
// several files names the last of them by path, as in NamesOf.
type LiveNames struct {
	byStem map[string][]string // lowercased stem → the files of that stem, sorted
}

// NewLiveNames returns the names of files.
func NewLiveNames(files []string) *LiveNames {
	n := &LiveNames{byStem: map[string][]string{}}
	for _, f := range files {
		n.Add(f)
	}
	return n
}

// Add adds the file at p (vault path).
func (n *LiveNames) Add(p string) {
	s := strings.ToLower(Stem(p))
	l := n.byStem[s]
	if i, found := slices.BinarySearch(l, p); !found {
		n.byStem[s] = slices.Insert(l, i, p)
	}
}

// Remove removes the file at p.
func (n *LiveNames) Remove(p string) {
	s := strings.ToLower(Stem(p))
	l := n.byStem[s]
	if i, found := slices.BinarySearch(l, p); found {
		if l = slices.Delete(l, i, i+1); len(l) == 0 {
			delete(n.byStem, s)
		} else {
			n.byStem[s] = l
		}
	}
}

// Taken returns the path of the file whose stem is name (any case).
func (n *LiveNames) Taken(name string) (string, bool) {
	l := n.byStem[strings.ToLower(name)]
	if len(l) == 0 {
		return "", false
	}
	return l[len(l)-1], true
}

// Note returns the path of the file a link target names: by its stem
// when it holds no "/", or by its path (Names.Note).
func (n *LiveNames) Note(target string) (string, bool) {
	if !strings.Contains(target, "/") {
		return n.Taken(Stem(target))
	}
	k := Key(target)
	p, ok := n.Taken(path.Base(k))
	if !ok || strings.ToLower(strings.TrimSuffix(p, ".md")) != k {
		return "", false
	}
	return p, true
}
