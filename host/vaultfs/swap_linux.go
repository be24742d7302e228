//go:build linux

package vaultfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"

	"golang.org/x/sys/unix"

	"github.com/kessho/kessho/core/hostlogic"
	"github.com/kessho/kessho/core/plan"
)

// swapInto renames the temporary file tmp over p, a file in the same
// folder that held want ("absent" or "sha256:<hex>") at the re-check
// (seen is that file, open, for a hash), so that no other program's
// write made since the re-check is lost:
//
//   - want "absent": renameat2(RENAME_NOREPLACE), which fails if
//     anything appeared at p;
//   - a hash: renameat2(RENAME_EXCHANGE), then a look at the file that
//     was at p, now at tmp: when it is not seen, or seen's bytes changed
//     (an in-place write), the exchange is undone and the other program's
//     file is back at p. Otherwise that old file is removed.
//
// Either way, a change is a *mismatch and tmp is left for the caller to
// remove. A file system without renameat2 gets a plain rename (the
// window is then the re-check's: see RATIONALE.md); a symbolic link at p
// too (the rename replaces the link, as it always has).
//
// Once tmp is in place, swapInto returns p's folder, open, for the caller
// to fsync and close (syncFolder): the same folder syncDir opens.
func (v *Vault) swapInto(tmp, p, want string, seen *os.File, leased bool) (*os.File, error) {
	d, err := v.openFolder(path.Dir(p))
	if err != nil {
		return nil, err
	}
	if err := v.swapIn(int(d.Fd()), tmp, p, want, seen, leased); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// swapIn is swapInto's work, in p's folder open as fd.
func (v *Vault) swapIn(fd int, tmp, p, want string, seen *os.File, leased bool) error {
	dir := path.Dir(p)
	tb, pb := path.Base(tmp), path.Base(p)
	if want == plan.Absent {
		err := unix.Renameat2(fd, tb, fd, pb, unix.RENAME_NOREPLACE)
		switch {
		case errors.Is(err, unix.EEXIST):
			return &mismatch{hostlogic.Exists(p)}
		case unsupported(err):
			return v.root.Rename(tmp, p)
		}
		return err
	}
	if st, err := lstatAt(fd, pb); err == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return v.root.Rename(tmp, p)
	}
	ours, err := lstatAt(fd, tb)
	if err != nil {
		return &fs.PathError{Op: "lstat", Path: tmp, Err: err}
	}
	err = unix.Renameat2(fd, tb, fd, pb, unix.RENAME_EXCHANGE)
	switch {
	case errors.Is(err, unix.ENOENT):
		return &mismatch{hostlogic.Changed(p)} // p was removed since the re-check
	case unsupported(err):
		return v.root.Rename(tmp, p)
	case err != nil:
		return err
	}
	step("swap %s: exchanged", p)
	same, err := unchanged(fd, tmp, seen, leased, want)
	if err != nil {
		return err
	}
	if same {
		if err := unix.Unlinkat(fd, tb, 0); err != nil && err != unix.ENOENT {
			return &fs.PathError{Op: "remove", Path: tmp, Err: err}
		}
		return nil
	}
	// Another program wrote p since the re-check: give its file back.
	if now, err := lstatAt(fd, pb); err == nil && now.Dev == ours.Dev && now.Ino == ours.Ino {
		if err := unix.Renameat2(fd, tb, fd, pb, unix.RENAME_EXCHANGE); err != nil {
			return err
		}
	} else {
		// p was replaced yet again: keep the file that was there under a
		// fresh temporary name rather than remove it.
		v.root.Rename(tmp, path.Join(dir, randomName()))
	}
	return &mismatch{hostlogic.Changed(p)}
}

// unchanged reports whether the file now at tmp in the folder open as dir
// (the one at p before the exchange) is seen, the file the re-check read,
// its lease unbroken when leased, and its bytes still hash to want.
func unchanged(dir int, tmp string, seen *os.File, leased bool, want string) (bool, error) {
	was, err := lstatAt(dir, path.Base(tmp))
	if err != nil {
		return false, &fs.PathError{Op: "lstat", Path: tmp, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(seen.Fd()), &st); err != nil {
		return false, &fs.PathError{Op: "stat", Path: seen.Name(), Err: err}
	}
	if was.Dev != st.Dev || was.Ino != st.Ino || leased && leaseBroken(seen) {
		return false, nil
	}
	if _, err := seen.Seek(0, io.SeekStart); err != nil {
		return false, err
	}
	b, err := readSized(seen, st.Size)
	if err != nil {
		return false, err
	}
	return plan.Hash(b) == want, nil
}

// lstatAt is the lstat of name in the folder open as dir (no link
// followed), made again while a signal interrupts it.
func lstatAt(dir int, name string) (unix.Stat_t, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			return st, err
		}
	}
}

// unsupported reports whether renameat2 or its flag is not available.
func unsupported(err error) bool {
	return errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EOPNOTSUPP)
}

// lease asks the kernel for a read lease on f's file. Linux refuses it
// with EAGAIN exactly when another program holds the file open for
// writing (an editor that truncated it and has not written it yet: its
// bytes now are not what that program means to save), which lease reports
// as writer. A lease granted stays until f is closed and makes a later
// open of the file for writing wait until Kessho lets go (see
// leaseBroken). A file system or an owner that allows no lease (EINVAL,
// EACCES) gives neither: the re-check alone is then the guard.
func lease(f *os.File) (leased, writer bool) {
	_, err := unix.FcntlInt(f.Fd(), unix.F_SETLEASE, unix.F_RDLCK)
	return err == nil, errors.Is(err, unix.EAGAIN)
}

// leaseBroken reports whether another program asked to open f's file for
// writing since lease took the lease: the kernel is breaking it, so it is
// no longer a read lease. That program looked the path up before
// Kessho's exchange, so its write would go to the old file: the exchange
// is undone, and once Kessho lets go it writes where it meant to.
func leaseBroken(f *os.File) bool {
	t, err := unix.FcntlInt(f.Fd(), unix.F_GETLEASE, 0)
	return err == nil && t != unix.F_RDLCK
}
