package vaultfs

import (
	"io/fs"
	"strings"

	"github.com/kessho/kessho/core/hostlogic"
	"github.com/kessho/kessho/core/plan"
)

// undoSafe refuses a need or a plan op that names p, a path under the
// undo records' folder (plan.UndoDir), when .kessho, the folders under
// it on the way to p, or p itself is a symbolic link, or something in
// the way is not what it must be (a folder, then a regular file, or a
// folder when dir: a dirs need), with hostlogic.NotOurs naming that
// place. The records are Kessho's files, and a link planted there (git
// and sync clients carry links) must never make a write land in a note,
// or a read take a note for a record; os.Root would follow a link that
// stays in the vault. What does not exist yet is fine: the plan makes it.
func (v *Vault) undoSafe(p string, dir bool) error {
	if !plan.IsUndo(p) {
		return nil
	}
	segs := strings.Split(p, "/")
	for i := range segs {
		at := strings.Join(segs[:i+1], "/")
		info, err := v.root.Lstat(at)
		if absentErr(err) {
			return nil
		}
		if err != nil {
			return readErr(at, err)
		}
		file := i == len(segs)-1 && !dir
		if info.Mode()&fs.ModeSymlink != 0 || !file && !info.IsDir() || file && !info.Mode().IsRegular() {
			return hostlogic.NotOurs(at, !file)
		}
	}
	return nil
}
