//go:build linux

package vaultfs

import (
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// markFile is the mark a one-file write keeps on Linux: one regular file,
// made once and kept, that names the write's temporary file while it may
// exist ("<path>\n" at its start) and starts with a newline (or is empty)
// otherwise; what follows the first newline is left from longer paths and
// means nothing. Writing into it
// allocates no inode, where a mark of its own (a new file, then its
// removal) costs two of the filesystem's slowest operations on every
// write; hostlogic.Sweep leaves it alone (it is outside the journal
// folder).
const markFile = stateDir + "/mark"

// keepMark writes tmp's path, and a newline, at the start of the vault's
// mark file (markFile), making it if need be, and returns its descriptor,
// open, for unmark. ok is false where the mark cannot be kept so (no
// openat2, a link or anything but a regular file at its name, an error):
// the caller then marks tmp with a file of its own. The file is not
// synced, as no mark is (markTemp).
func (v *Vault) keepMark(tmp string) (fd int, ok bool) {
	fd, _, ok = v.regularBeneath(markFile, unix.O_WRONLY|unix.O_CREAT, 0o644)
	if !ok {
		return -1, false
	}
	line := []byte(tmp + "\n")
	if n, err := pwriteRetry(fd, line); err != nil || n != len(line) {
		unix.Close(fd)
		return -1, false
	}
	return fd, true
}

// unmark clears the mark file open at fd (keepMark) and closes it: the
// temporary file it named is gone. A newline over its first byte makes
// its first line empty; truncating it would free its page, which the
// next write makes again, several times the cost.
func unmark(fd int) error {
	_, err := pwriteRetry(fd, []byte{'\n'})
	if cerr := unix.Close(fd); err == nil {
		err = cerr
	}
	return err
}

// pwriteRetry writes b at the start of fd.
func pwriteRetry(fd int, b []byte) (int, error) {
	for {
		n, err := unix.Pwrite(fd, b, 0)
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// dropMark removes the temporary file the mark file names, if it names
// one (a process that died between keepMark and unmark), and clears it.
// A link, or anything but a regular file, at its name is never opened.
func (v *Vault) dropMark() {
	fd, size, ok := v.regularBeneath(markFile, unix.O_RDWR, 0)
	if !ok {
		return // none yet, or not Kessho's
	}
	defer unix.Close(fd)
	if size == 0 {
		return
	}
	b := make([]byte, min(size, 1<<16))
	n, err := unix.Pread(fd, b, 0)
	if err != nil || n <= 0 || b[0] == '\n' {
		return
	}
	tmp, _, _ := strings.Cut(string(b[:n]), "\n")
	if markable(tmp) {
		v.root.Remove(tmp)
	}
	pwriteRetry(fd, []byte{'\n'})
}
