//go:build !linux

package vaultfs

import (
	"io/fs"
	"os"
)

// createBeneath is Linux's one-openat2 creation of a file; elsewhere files
// are created through os.Root.
func (v *Vault) createBeneath(string, int, os.FileMode) (*os.File, bool, error) {
	return nil, false, nil
}

// lstatBeneath is Linux's one-openat2 lstat; elsewhere os.Root's.
func (v *Vault) lstatBeneath(string) (fs.FileMode, bool) { return 0, false }

// openBeneathRead is Linux's one-openat2 open; elsewhere os.Root's.
func (v *Vault) openBeneathRead(string) (*os.File, bool) { return nil, false }

// openLockBeneath is Linux's one-openat2 open of the lock; elsewhere
// openLock's.
func (v *Vault) openLockBeneath() (*os.File, bool) { return nil, false }

// absentBeneath is Linux's one-openat2 look; elsewhere os.Root's.
func (v *Vault) absentBeneath(string) bool { return false }
