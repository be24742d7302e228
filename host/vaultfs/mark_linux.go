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
// which l holds open until Unlock (Lock.mark), for unmark. ok is false
// where the mark cannot be kept so (no openat2, a link or anything but a
// regular file at its name, an error): the caller then marks tmp with a
// file of its own. The file is not synced, as no mark is (markTemp).
func (v *Vault) keepMark(l *Lock, tmp string) (fd int, ok bool) {
	if l.mark > 0 {
		fd = l.mark - 1
	} else if fd, _, ok = v.regularBeneath(markFile, unix.O_WRONLY|unix.O_CREAT, 0o644); !ok {
		return -1, false
	}
	line := []byte(tmp + "\n")
	if n, err := pwriteRetry(fd, line); err != nil || n != len(line) {
		if l.mark == 0 {
			unix.Close(fd)
		}
		return -1, false
	}
	l.mark = fd + 1
	return fd, true
}

// unmark clears the mark file open at fd (keepMark): the temporary file
// it named is gone. A newline over its first byte makes its first line
// empty; truncating it would free its page, which the next write makes
// again, several times the cost.
func unmark(fd int) error {
	_, err := pwriteRetry(fd, []byte{'\n'})
	return err
}

// closeMark closes the mark file l holds open, if it holds it.
func closeMark(l *Lock) {
	if l.mark > 0 {
		unix.Close(l.mark - 1)
		l.mark = 0
	}
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
// one (a process that died between keepMark and unmark), and clears it;
// l, the hold it recovers under, keeps it open for its writes (keepMark).
// A link, or anything but a regular file, at its name is never opened.
func (v *Vault) dropMark(l *Lock) {
	fd, size, ok := v.regularBeneath(markFile, unix.O_RDWR, 0)
	if !ok {
		return // none yet, or not Kessho's
	}
	closeMark(l) // a second recovery under the hold
	l.mark = fd + 1
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
