package hostlogic

import (
	"path"
	"slices"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
)

// Undo is how a host puts back what one landed op changed, when a later
// op's re-check fails (docs/HOSTS.md, "Applying a plan"). Do is:
//
//   - "none": nothing to put back (a check), or the target no longer holds
//     what the op left (someone edited Kessho's fresh file: theirs is kept);
//   - "remove": remove the file at Path (a write that created it);
//   - "restore": write back, at Path, the bytes the host read at the op's
//     re-check, re-checking at the last instant that Path still holds
//     Expect (a write that replaced a file: its hash; a delete: absent),
//     and leaving it as it is when not;
//   - "move": move From back to Path (a move);
//   - "keep": leave the file at Path, which the op made: another landed
//     op's file was edited since and may name it (UndoPlan).
//
// The folders the host made for the op are removed afterwards, each only
// when empty: they are the host's own bookkeeping, not the op's.
type Undo struct {
	Do     string `json:"do"`
	Path   string `json:"path,omitempty"`
	From   string `json:"from,omitempty"`
	Expect string `json:"expect,omitempty"`
}

// UndoOf returns how to undo op, from what is at the paths Looks(op)
// names (state reads them as for Where): only an op whose target holds
// its after-state is undone.
func UndoOf(op plan.Op, state func(x string) string) Undo {
	st := StateOf(op)
	if op.Op == plan.Check || Where(op, st, state) != AtAfter {
		return Undo{Do: "none"}
	}
	switch {
	case op.Op == plan.Move:
		return Undo{Do: "move", Path: op.From, From: op.To}
	case op.Op == plan.Write && op.Expect == plan.Absent:
		return Undo{Do: "remove", Path: op.Path}
	}
	return Undo{Do: "restore", Path: op.Path, Expect: st.After}
}

// TempDirs returns the folders where a host may have left temporary
// files for ops' writes (a crash between a temporary file and its
// rename), each once, in the order of the ops: recovery empties them of
// such files before it rolls the plan forward.
func TempDirs(ops plan.Plan) []string {
	seen := map[string]bool{}
	dirs := []string{}
	for _, op := range ops {
		if d := path.Dir(op.Path); op.Op == plan.Write && !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// Undoing is how a host undoes a live apply that stopped at an op (its
// re-check no longer held, or the disk was full): the Undo of each op that
// landed before it, and what stays as it is.
//
// The rule, which both hosts share: when some landed op's target no
// longer holds what the op left (someone edited Kessho's fresh file; theirs
// is kept as they left it), every file the plan made is kept too (Do
// "keep"), for the edited file may name it: an editor that re-saved
// history.md keeping Kessho's new line names the archive the plan made,
// and removing the archive would leave the line naming nothing
// (RATIONALE.md, "Why does an undo keep the files a plan made when a file
// it wrote was edited since?"). The other undos happen as UndoOf says.
type Undoing struct {
	Undos  []Undo   `json:"undos"`  // the landed ops' undos, in plan order: the host runs them last first
	Edited []string `json:"edited"` // targets that changed since their op landed, kept as they are
	Kept   []string `json:"kept"`   // files the plan made, kept because Edited is not empty
}

// UndoPlan returns how to undo ops, the ops of a live apply that landed
// (in plan order), from what is at the paths their Looks name (state, as
// for Where). edited and kept are what the host already knows stays: when
// a restore finds its file changed at the last instant (it is kept), the
// host asks again for the ops it has not undone yet, with that file added
// to edited, and the files they made are kept in turn.
func UndoPlan(ops plan.Plan, state func(x string) string, edited, kept []string) Undoing {
	u := Undoing{Undos: make([]Undo, len(ops)), Edited: slices.Clone(edited), Kept: slices.Clone(kept)}
	for i, op := range ops {
		u.Undos[i] = UndoOf(op, state)
		if op.Op != plan.Check && u.Undos[i].Do == "none" {
			u.Edited = addOnce(u.Edited, left(op))
		}
	}
	if len(u.Edited) == 0 {
		return u
	}
	for i, d := range u.Undos {
		if d.Do == "remove" {
			u.Undos[i] = Undo{Do: "keep", Path: d.Path}
			u.Kept = addOnce(u.Kept, d.Path)
		}
	}
	return u
}

// UndoLooks returns the paths UndoPlan(ops, …) reads, each once (hashed
// when any op needs its hash).
func UndoLooks(ops plan.Plan) []Look {
	var out []Look
	for _, op := range ops {
		for _, l := range Looks(op) {
			i := slices.IndexFunc(out, func(o Look) bool { return o.Path == l.Path })
			if i < 0 {
				out = append(out, l)
			} else {
				out[i].Hash = out[i].Hash || l.Hash
			}
		}
	}
	return out
}

// left is the path op leaves changed: a move's target, any other op's
// path.
func left(op plan.Op) string {
	if op.Op == plan.Move {
		return op.To
	}
	return op.Path
}

func addOnce(s []string, x string) []string {
	if slices.Contains(s, x) {
		return s
	}
	return append(s, x)
}

// Stop is the refusal that ends the apply, once undone: failed (the
// refusal of the op that stopped it, naming its path: a CONFLICT, or
// DISK_FULL) when every landed op was undone; otherwise the same code
// saying what stayed and why (StoppedPartway), for "nothing was written"
// would not be true.
func (u Undoing) Stop(failed *fault.Error) *fault.Error {
	if len(u.Edited) == 0 {
		return failed
	}
	p, _ := failed.Details["path"].(string)
	return StoppedPartway(failed.Code, p, u.Edited, u.Kept)
}
