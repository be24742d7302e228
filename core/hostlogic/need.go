package hostlogic

import (
	"path"
	"strings"

	"github.com/kessho/kessho/core/wire"
)

// Answering a round's need (docs/HOSTS.md, "Answering needs") as steps:
// the need checked, the undo records' ways refused, then what it asks
// read into the host's snapshot, which stays the host's (it is the bulk
// of the next round's request): files, heads, folders' listings shown as
// List shows them, trees walked a depth at a time, the listings of one
// depth asked together.

// maxDepth is the deepest folder a tree walk enters (Obsidian follows
// symbolic links; a loop must end).
const maxDepth = 64

// answerNeed answers n into the host's snapshot.
func (m *machine) answerNeed(n wire.Need) error {
	if err := CheckNeed(n); err != nil {
		return err
	}
	for _, p := range n.Files {
		if err := m.undoSafe(p, false); err != nil {
			return err
		}
	}
	for _, p := range n.Dirs {
		if err := m.undoSafe(p, true); err != nil {
			return err
		}
	}
	var ops []needOp
	for _, p := range n.Files {
		ops = append(ops, needOp{io: wire.IO{Op: wire.IONeedFile, Path: p}})
	}
	for _, p := range n.Heads {
		ops = append(ops, needOp{io: wire.IO{Op: wire.IONeedHead, Path: p}})
	}
	for _, p := range n.Dirs {
		ops = append(ops, needOp{io: wire.IO{Op: wire.IONeedList, Path: p}})
	}
	level := make([]dirAt, len(n.Trees))
	for i, t := range n.Trees {
		level[i] = dirAt{path: t.Root, content: t.Content}
		ops = append(ops, needOp{io: wire.IO{Op: wire.IONeedList, Path: t.Root}, tree: i + 1})
	}
	for _, x := range n.Matches {
		ops = append(ops, needOp{io: wire.IO{Op: wire.IONeedList, Path: x.Dir, To: x.Key()}, patterns: x.Patterns})
	}
	names, err := m.needAll(ops)
	if err != nil {
		return err
	}
	return m.walk(level, names)
}

// needOp is one op of a need, with what reading its result takes: a
// match's patterns; tree, 1 + the index of the tree walk's folder (in
// its level) whose listing it is, or 0.
type needOp struct {
	io       wire.IO
	patterns []string
	tree     int
}

// dirAt is a folder a tree walk enters.
type dirAt struct {
	path    string
	content bool
	depth   int
}

// walk walks the trees from level, whose listings names holds (by
// needOp.tree), one depth a crossing: the files of a level and the
// listings of the next are asked together.
func (m *machine) walk(level []dirAt, names map[int][]string) error {
	for len(level) > 0 {
		var ops []needOp
		var next []dirAt
		for i, d := range level {
			for _, e := range names[i+1] {
				bare, folder := strings.CutSuffix(e, "/")
				switch {
				case !folder && d.content:
					ops = append(ops, needOp{io: wire.IO{Op: wire.IONeedFile, Path: join(d.path, e)}})
				case folder && d.depth < maxDepth:
					next = append(next, dirAt{path: join(d.path, bare), content: d.content, depth: d.depth + 1})
				}
			}
		}
		for i, d := range next {
			ops = append(ops, needOp{io: wire.IO{Op: wire.IONeedList, Path: d.path}, tree: i + 1})
		}
		var err error
		if names, err = m.needAll(ops); err != nil {
			return err
		}
		level = next
	}
	return nil
}

// join is name in folder dir ("." the vault's root).
func join(dir, name string) string {
	if dir == "." {
		return name
	}
	return path.Join(dir, name)
}

// needAll asks ops together, then reads their results in order: the
// first refusal or failure ends the need; a listing the host read is
// shown as List shows it and put into the snapshot (a put foreseen to
// succeed, asked with the next ops). It returns the tree walk's
// listings, by needOp.tree.
func (m *machine) needAll(ops []needOp) (map[int][]string, error) {
	ios := make([]wire.IO, len(ops))
	for i, o := range ops {
		ios[i] = o.io
		switch o.io.Op {
		case wire.IONeedFile:
			ios[i].Or = []string{"not_utf8", "absent", "had"}
		case wire.IONeedHead:
			ios[i].Or = []string{"absent", "had"}
		}
	}
	rs, failed := m.all(ios, func(i int) *string {
		switch ops[i].io.Op {
		case wire.IONeedFile:
			return foresee("text")
		case wire.IONeedHead:
			return foresee("head")
		}
		return nil
	})
	names := map[int][]string{}
	for i, r := range rs {
		shown, err := m.needResult(ops[i], r)
		if err != nil {
			return nil, err
		}
		if ops[i].tree > 0 {
			names[ops[i].tree] = shown
		}
	}
	return names, failed
}

// needResult reads one op's result: a refusal, or a listing as shown.
func (m *machine) needResult(o needOp, r wire.IOResult) ([]string, error) {
	p := o.io.Path
	switch {
	case r.V == "folder" && o.io.Op != wire.IONeedList:
		return nil, FolderNotFile(p)
	case r.V == "file" && o.io.Op == wire.IONeedList:
		return nil, FileNotFolder(p)
	case r.V == "too_much":
		return nil, TooMuchText(p, r.Max)
	case o.io.Op != wire.IONeedList || r.V == "absent":
		return nil, nil
	case r.V == "had":
		return r.List, nil
	}
	shown := List(r.List, o.patterns)
	if _, err := m.try(wire.IO{Op: wire.IONeedPut, Path: p, To: o.io.To, List: shown}, succeeds()); err != nil {
		return nil, err
	}
	return shown, nil
}
