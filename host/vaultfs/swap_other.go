//go:build !linux

package vaultfs

import "os"

// swapInto renames tmp over p: without renameat2, the window between the
// re-check and the rename remains (see RATIONALE.md).
func (v *Vault) swapInto(tmp, p, want string, seen *os.File) error {
	return v.root.Rename(tmp, p)
}
