package vaultfs

import (
	"io/fs"
	"strings"

	"kessho/core/plan"
)

// undoSafe refuses a need or a plan op that names p, a path under the
// undo records' folder (plan.UndoDir), when .kessho, the folders under
// it on the way to p, or p itself is a symbolic link, or something in
// the way is not what it must be (a folder, then a regular file, or a
// folder when dir: a dirs need): the
// records are Kessho's files, and a link planted there (git and sync
// clients carry links) must never make a write land in a note, or a
// read take a note for a record. os.Root would follow a link that stays
// in the vault. What does not exist yet is fine: the plan makes it.
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
			return conflict(p,
				at+" is a symbolic link or not a real "+kindOf(file)+"; Kessho keeps its undo records only in real folders under .kessho, and never writes through a link: remove "+at+" (Kessho makes the folder again) and run the call again",
				at+" est un lien symbolique ou n'est pas un vrai "+kindOfFr(file)+" ; Kessho ne garde ses traces d'annulation que dans de vrais dossiers sous .kessho, et n'écrit jamais à travers un lien : supprimez "+at+" (Kessho refait le dossier) et relancez l'appel")
		}
	}
	return nil
}

func kindOf(file bool) string {
	if file {
		return "file"
	}
	return "folder"
}

func kindOfFr(file bool) string {
	if file {
		return "fichier"
	}
	return "dossier"
}
