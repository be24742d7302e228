//go:build !unix

package vaultfs

import (
	"errors"
	"os"
	"runtime"
)

// tryLock fails: this platform has no flock, and Kessho does not write a
// vault it cannot lock against other processes. (Windows would use
// LockFileEx; nobody has needed it yet.)
func tryLock(*os.File) (bool, error) {
	return false, errors.New("the vault's writer lock is not supported on " + runtime.GOOS)
}

func unlock(*os.File) error { return nil }

// syncDir does nothing: folders cannot be fsynced here.
func (v *Vault) syncDir(string) error { return nil }

func waitLock(f *os.File) error { _, err := tryLock(f); return err }
