package hostlogic

import (
	"path"

	"kessho/core/plan"
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
//   - "move": move From back to Path (a move).
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
