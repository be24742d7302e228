//go:build !linux

package vaultfs

import "os"

// readBeneath is Linux's one-openat2 read; elsewhere every read goes
// through os.Root (readRoot).
func (a *answerer) readBeneath(string, int64) (fileRead, bool) { return fileRead{}, false }

// openDirBeneath is Linux's one-openat2 open of a folder; elsewhere
// folders are opened through os.Root.
func (v *Vault) openDirBeneath(string) (*os.File, bool) { return nil, false }
