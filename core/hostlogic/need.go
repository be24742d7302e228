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
// first refusal or failure ends the need (needBatch); a listing the host
// read and sent back is shown as wire.Shown shows it and put into the
// snapshot (a put foreseen to succeed, asked with the next ops); one the
// host holds raw (V "raw", foreseen for a folder or a match) the core
// shows when it reads the request. It returns the tree
// walk's listings, by needOp.tree.
func (m *machine) needAll(ops []needOp) (map[int][]string, error) {
	rs, err := m.needBatch(ops)
	if err != nil {
		return nil, err
	}
	names := map[int][]string{}
	for i, o := range ops {
		r := rs[i]
		if o.io.Op != wire.IONeedList || r.V == "absent" || r.V == "raw" {
			continue
		}
		// A listing the snapshot held already ("had") may be raw: shown
		// again, the same; a new one is put as shown.
		shown := wire.Shown(r.List, o.patterns)
		if r.V != "had" {
			if _, err := m.try(wire.IO{Op: wire.IONeedPut, Path: o.io.Path, To: o.io.To, List: shown}, succeeds()); err != nil {
				return nil, err
			}
		}
		if o.tree > 0 {
			names[o.tree] = shown
		}
	}
	return names, nil
}

// needBatch is the results of ops: the host's, read in order until the
// first refusal or failure (nothing after it asked again), then the rest
// asked together, a file's or a head's foreseen read. Like machine.all,
// it stops the replay when it asked one whose result it cannot foresee.
func (m *machine) needBatch(ops []needOp) ([]wire.IOResult, error) {
	rs := make([]wire.IOResult, 0, len(ops))
	asked := false
	for _, o := range ops {
		if m.pos < len(m.st.Results) {
			r := m.st.Results[m.pos]
			m.pos++
			if r.Err != nil {
				return nil, &ioFail{*r.Err}
			}
			if err := refused(o.io, r); err != nil {
				return nil, err
			}
			rs = append(rs, r)
			continue
		}
		io := o.io
		switch io.Op {
		case wire.IONeedFile:
			io.Expect, io.Or = foresee("text"), []string{"not_utf8", "absent", "had"}
		case wire.IONeedHead:
			io.Expect, io.Or = foresee("head"), []string{"absent", "had"}
		case wire.IONeedList:
			// A folder's or a match's listing (not a tree walk's, whose
			// names the walk reads): a host may hold a small one raw.
			if o.tree == 0 {
				io.Expect, io.Or = foresee("raw"), []string{"absent", "had"}
			}
		}
		m.out = append(m.out, io)
		m.pos++
		if io.Expect == nil {
			asked = true
			continue
		}
		rs = append(rs, wire.IOResult{V: *io.Expect})
	}
	if asked {
		panic(pending{})
	}
	return rs, nil
}

// refused is the refusal a need's op's result says, or nil.
func refused(io wire.IO, r wire.IOResult) error {
	switch {
	case r.V == "folder" && io.Op != wire.IONeedList:
		return FolderNotFile(io.Path)
	case r.V == "file" && io.Op == wire.IONeedList:
		return FileNotFolder(io.Path)
	case r.V == "too_much":
		return TooMuchText(io.Path, r.Max)
	}
	return nil
}
