//go:build !linux

package vaultfs

// statNotes records the version of each note names in folder dir.
func (v *Vault) statNotes(dir string, names []string, into []noteVersion) ([]noteVersion, bool) {
	return v.statNotesAt(dir, names, into)
}
