//go:build !linux

package vaultfs

// keepMark is Linux's kept mark; elsewhere each write marks its
// temporary file with a file of its own (markTemp).
func (v *Vault) keepMark(*Lock, string) (int, bool) { return -1, false }

// unmark is Linux's.
func unmark(int) error { return nil }

// dropMark is Linux's: elsewhere there is no kept mark to look at.
func (v *Vault) dropMark(*Lock) {}

// closeMark is Linux's.
func closeMark(*Lock) {}
