//go:build unix

package vaultfs

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an exclusive flock on f without waiting; false means
// another open file holds it.
func tryLock(f *os.File) (bool, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return false, err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) {
		ferr = syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB)
	}); err != nil {
		return false, err
	}
	if errors.Is(ferr, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return ferr == nil, ferr
}

// unlock releases f's flock (closing f would too).
func unlock(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = syscall.Flock(int(fd), syscall.LOCK_UN) }); err != nil {
		return err
	}
	return ferr
}

// syncDir fsyncs folder dir, so that the names just made, renamed or
// removed in it survive a power loss.
func (v *Vault) syncDir(dir string) error {
	f, err := v.openFolder(dir)
	if err != nil {
		return err
	}
	err = fsync(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// waitLock takes an exclusive flock on f, waiting for it in the kernel: a
// waiter is woken the moment the holder lets go, so a process that waits
// is not starved by another that takes the lock again and again.
func waitLock(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) {
		for {
			ferr = syscall.Flock(int(fd), syscall.LOCK_EX)
			if !errors.Is(ferr, syscall.EINTR) {
				return
			}
		}
	}); err != nil {
		return err
	}
	return ferr
}
