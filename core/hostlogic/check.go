// Package hostlogic holds the decisions both hosts make around a call,
// written once: the plan's precondition check (Check), the journal's
// format and recovery rules (Decode, Progress, Where, the conflict copy),
// and the words of the host's own refusals. It never touches a disk: a
// host hands it what it read. The Go host (host/vaultfs) calls it
// natively; the plugin reaches it through the wasm module's entries: Step
// (a need's answer, an apply, a recovery, replayed over the host's I/O
// results), Round (a whole round) and Handle (a refusal's words):
// docs/HOSTS.md is the contract.
package hostlogic

import (
	"path"
	"strings"

	"github.com/kessho/kessho/core/plan"
)

// Kind is what is at a path.
type Kind int

// Kinds of node.
const (
	Absent Kind = iota
	File
	Folder
	Other // a special file, or a symbolic link Kessho cannot follow
)

// Node is what a host found at a path.
type Node struct {
	Kind Kind
	Link bool // a symbolic link (Kind is what it leads to); only the Go host sees links
}

// Disk is what Check asks a host about the vault as it is now.
type Disk interface {
	// Stat returns what is at x.
	Stat(x string) (Node, error)
	// Hash returns "sha256:<hex>" of the bytes of the file at x.
	Hash(x string) (string, error)
}

// node is what will be at a path after some ops.
type node struct {
	Node
	hash string // "sha256:<hex>" for a file the plan writes
	disk string // for a file on disk: its path now (before moves), to hash it
}

// sim answers "what will be at this path after the first k ops", by
// walking the ops backwards and falling back to the disk. Plans are short;
// each question is O(len(plan)).
type sim struct {
	d    Disk
	p    plan.Plan
	disk map[string]node
}

// at returns what will be at x once ops [0,k) have run.
func (s *sim) at(x string, k int) (node, error) {
	for i := k - 1; i >= 0; i-- {
		op := s.p[i]
		switch op.Op {
		case plan.Write:
			if x == op.Path {
				return node{Node: Node{Kind: File}, hash: plan.HashString(*op.Text)}, nil
			}
			if under(op.Path, x) {
				return node{Node: Node{Kind: Folder}}, nil
			}
			if under(x, op.Path) {
				return node{}, nil
			}
		case plan.Delete:
			if x == op.Path || under(x, op.Path) {
				return node{}, nil
			}
		case plan.Move:
			if y, ok := BeforeMove(op, x); ok {
				x = y
				continue
			}
			if x == op.From || under(x, op.From) {
				return node{}, nil
			}
			if under(op.To, x) {
				return node{Node: Node{Kind: Folder}}, nil
			}
		}
	}
	return s.onDisk(x)
}

// BeforeMove returns where x was before move op ran, and true, when op
// moved it (x is op's target or under it).
func BeforeMove(op plan.Op, x string) (string, bool) {
	if x == op.To {
		return op.From, true
	}
	if rest, ok := strings.CutPrefix(x, op.To+"/"); ok {
		return op.From + "/" + rest, true
	}
	return x, false
}

// link reports whether x will be a symbolic link once ops [0,k) have
// run: a link on disk that no earlier op replaced (a write under it goes
// through it and leaves it a link).
func (s *sim) link(x string, k int) (bool, error) {
	for i := k - 1; i >= 0; i-- {
		op := s.p[i]
		switch op.Op {
		case plan.Write, plan.Delete:
			if x == op.Path || under(x, op.Path) {
				return false, nil
			}
		case plan.Move:
			if y, ok := BeforeMove(op, x); ok {
				x = y
				continue
			}
			if x == op.From || under(x, op.From) {
				return false, nil
			}
		}
	}
	n, err := s.onDisk(x)
	return n.Link, err
}

// onDisk returns what is at x now, asking the disk once per path.
func (s *sim) onDisk(x string) (node, error) {
	if n, ok := s.disk[x]; ok {
		return n, nil
	}
	st, err := s.d.Stat(x)
	if err != nil {
		return node{}, err
	}
	n := node{Node: st, disk: x}
	s.disk[x] = n
	return n, nil
}

// hashOf returns n's hash, asking the disk for a file the plan did not
// write.
func (s *sim) hashOf(n node) (string, error) {
	if n.hash != "" {
		return n.hash, nil
	}
	return s.d.Hash(n.disk)
}

// Check evaluates every op's precondition, in order, against the state
// the ops before it leave, asking d about the vault: "sha256:<hex>" must
// match the file's bytes, "absent" means nothing at all at that path, a
// move needs its source (a real file or folder, not a symbolic link), and
// no op may need a folder where a file is. The first that fails is the
// error: CONFLICT naming the path (Changed, Exists, FileInTheWay), or
// INVALID_ARGUMENT for a link moved (LinkMoved). An error of d's is
// returned as it is.
func Check(p plan.Plan, d Disk) error {
	s := &sim{d: d, p: p, disk: map[string]node{}}
	for k, op := range p {
		if err := s.check(k, op); err != nil {
			return err
		}
	}
	return nil
}

// check is Check of op, the k-th operation of the plan.
func (s *sim) check(k int, op plan.Op) error {
	switch op.Op {
	case plan.Write:
		if err := s.room(op.Path, k); err != nil {
			return err
		}
		return s.is(op.Path, k, op.Expect)
	case plan.Delete, plan.Check:
		return s.is(op.Path, k, op.Expect)
	case plan.Move:
		var n node
		var link bool
		var err error
		if link, err = s.link(op.From, k); err == nil && link {
			err = LinkMoved(op.From)
		} else if n, err = s.at(op.From, k); err == nil && n.Kind != File && n.Kind != Folder {
			err = Changed(op.From)
		}
		if err == nil {
			err = s.room(op.To, k)
		}
		if err == nil {
			err = s.is(op.To, k, plan.Absent)
		}
		return err
	}
	return nil
}

// is checks that x, before the k-th operation, is what want says: absent
// (plan.Absent), or a file of that hash.
func (s *sim) is(x string, k int, want string) error {
	n, err := s.at(x, k)
	if err != nil {
		return err
	}
	if want == plan.Absent {
		if n.Kind != Absent {
			return Exists(x)
		}
		return nil
	}
	if n.Kind != File {
		return Changed(x)
	}
	h, err := s.hashOf(n)
	if err != nil {
		return err
	}
	if h != want {
		return Changed(x)
	}
	return nil
}

// room checks that x's parents are folders or nothing: an op that
// makes them cannot go through a file.
func (s *sim) room(x string, k int) error {
	for d := path.Dir(x); d != "."; d = path.Dir(d) {
		n, err := s.at(d, k)
		if err != nil {
			return err
		}
		if n.Kind == File || n.Kind == Other {
			return FileInTheWay(d)
		}
	}
	return nil
}

// under reports whether p lies strictly inside folder dir.
func under(p, dir string) bool { return strings.HasPrefix(p, dir+"/") }
