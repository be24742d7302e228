//go:build !linux

package vaultfs

import "os"

// swapInto renames tmp over p: without renameat2, the window between the
// re-check and the rename remains (see RATIONALE.md).
// No folder is returned: syncFolder syncs it by name.
func (v *Vault) swapInto(tmp, p, want string, seen *os.File, leased bool) (*os.File, error) {
	return nil, v.root.Rename(tmp, p)
}

// lease: no leases here; the re-check alone is the guard.
func lease(f *os.File) (leased, writer bool) { return false, false }
