//go:build linux

package vaultfs

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// createBeneath creates the file p of the vault (flags: os.O_WRONLY with
// os.O_CREATE and os.O_EXCL or os.O_TRUNC) with one openat2 beneath the
// vault's handle, refusing any symbolic link on the way and any way out
// of the vault, where os.Root opens every folder on the path, then the
// file, and registers it with the runtime's poller. ok is false where
// os.Root must decide (a link on the path, a refusal, openat2 missing):
// the caller then creates p through os.Root.
func (v *Vault) createBeneath(p string, flags int, perm os.FileMode) (_ *os.File, ok bool, _ error) {
	if v.handle == nil {
		return nil, false, nil
	}
	fd, err := beneath(int(v.handle.Fd()), p, uint64(flags|unix.O_NOCTTY), uint64(perm.Perm()))
	switch err {
	case nil:
		return os.NewFile(uintptr(fd), p), true, nil
	case unix.EEXIST, unix.ENOSPC, unix.EDQUOT:
		// What os.Root would answer too: the caller's to handle.
		return nil, true, &os.PathError{Op: "open", Path: p, Err: err}
	}
	return nil, false, nil
}

// lstatBeneath is the lstat of p with one openat2 (O_PATH) beneath the
// vault's handle and one fstat, where os.Root opens every folder on the
// path first. ok is false where os.Root must decide: a symbolic link on
// the path or at p (os.Root follows those that stay in the vault), a
// missing path, a refusal; the caller then asks os.Root.
func (v *Vault) lstatBeneath(p string) (_ fs.FileMode, ok bool) {
	if v.handle == nil {
		return 0, false
	}
	fd, err := beneath(int(v.handle.Fd()), p, unix.O_PATH, 0)
	if err != nil {
		return 0, false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := fstatRetry(fd, &st); err != nil {
		return 0, false
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		return fs.FileMode(st.Mode & 0o777), true
	case unix.S_IFDIR:
		return fs.ModeDir | fs.FileMode(st.Mode&0o777), true
	}
	return 0, false // a link, or a special file: os.Root's to classify
}

// openBeneathRead opens the file p for reading with one openat2 beneath
// the vault's handle (openBeneathFile); ok is false where os.Root must
// decide (a link on the path, a missing path, a refusal).
func (v *Vault) openBeneathRead(p string) (_ *os.File, ok bool) {
	if v.handle == nil {
		return nil, false
	}
	fd, err := openBeneathFile(int(v.handle.Fd()), p)
	if err != nil {
		return nil, false
	}
	return os.NewFile(uintptr(fd), p), true
}

// openLockBeneath opens the vault's existing lock file for its flock with
// one openat2 beneath the vault's handle, where Lock otherwise looks at
// .kessho, tries to make the file, looks at it and opens it (openLock):
// no link anywhere on the path, and only a regular file (opened without
// blocking, so a pipe there never hangs). ok is false where openLock must
// decide (a missing lock or folder, a link, anything but a regular file,
// openat2 missing).
func (v *Vault) openLockBeneath() (_ *os.File, ok bool) {
	fd, _, ok := v.regularBeneath(lockFile, unix.O_RDONLY, 0)
	if !ok {
		return nil, false
	}
	return os.NewFile(uintptr(fd), lockFile), true
}

// regularBeneath opens p with flags (O_NONBLOCK and O_NOCTTY added, so a
// pipe there never hangs) with one openat2 beneath the vault's handle,
// no link anywhere on the way, and keeps it only when it is a regular
// file: its descriptor and size. ok is false otherwise (nothing there, a
// link, anything but a regular file, openat2 missing), the descriptor
// closed.
func (v *Vault) regularBeneath(p string, flags, perm uint64) (fd int, size int64, ok bool) {
	if v.handle == nil {
		return -1, 0, false
	}
	fd, err := beneath(int(v.handle.Fd()), p, flags|unix.O_NONBLOCK|unix.O_NOCTTY, perm)
	if err != nil {
		return -1, 0, false
	}
	var st unix.Stat_t
	if fstatRetry(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return -1, 0, false
	}
	return fd, st.Size, true
}

// absentBeneath reports whether one openat2 beneath the vault's handle
// finds nothing at p (ENOENT, with no link on the way): false whenever
// anything is there, or os.Root must decide.
func (v *Vault) absentBeneath(p string) bool {
	if v.handle == nil {
		return false
	}
	fd, err := beneath(int(v.handle.Fd()), p, unix.O_PATH, 0)
	if err == nil {
		unix.Close(fd)
	}
	return err == unix.ENOENT
}
