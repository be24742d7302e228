//go:build linux

package vaultfs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"syscall"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// oneReadMax is the largest file readBeneath reads in one piece (a
// buffer of its size); a larger one, or one larger than the budget,
// streams through readCapped, which never holds bytes that are not UTF-8
// nor text past the budget.
const oneReadMax = 64 << 20

// readBeneath reads the file at p with one openat2 from the vault's
// handle (RESOLVE_BENEATH, RESOLVE_NO_SYMLINKS, RESOLVE_NO_MAGICLINKS: the
// kernel refuses any way out of the vault and any link, as scanNotes
// does), one fstat of the open file (it is what was opened, whatever
// happened to the path since) and, its size known, one read into a
// buffer of that size and one more to see its end: raw system calls on
// a descriptor the runtime's poller never registers. os.Root instead
// opens each folder on the path, then the file, and stats it twice.
//
// ok is false, and readRoot reads p, wherever readBeneath would have to
// decide what os.Root decides: a symbolic link on the path (os.Root
// follows one that stays in the vault, and says which lead out), a
// socket, a refused open (permissions, openat2 missing or filtered).
// The file is opened without blocking (O_NONBLOCK, which a regular file
// ignores), so that a named pipe, refused after the fstat, cannot stall
// the read.
func (a *answerer) readBeneath(p string, budget int64) (_ fileRead, ok bool) {
	if a.v.handle == nil {
		return fileRead{}, false
	}
	fd, err := openBeneathFile(int(a.v.handle.Fd()), p)
	switch err {
	case nil:
	case unix.ENOENT, unix.ENOTDIR:
		return fileRead{missing: true}, true
	default:
		return fileRead{}, false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := fstatRetry(fd, &st); err != nil {
		return fileRead{}, false
	}
	if err := wantFile(p, &statInfo{st: st}); err != nil {
		return fileRead{err: err}, true
	}
	r := fdReader(fd)
	size := st.Size
	if size > oneReadMax || budget >= 0 && size > budget {
		text, sum, isText, err := readCapped(r, budget)
		if err != nil {
			return fileRead{err: readErr(p, err)}, true
		}
		return fileRead{text: text, sum: sum, isText: isText}, true
	}
	// One byte more than the size: a read that fills it says the file
	// grew since the fstat, and the rest streams.
	buf := make([]byte, size+1)
	n, err := io.ReadFull(r, buf)
	switch err {
	case nil:
		text, sum, isText, err := readCapped(io.MultiReader(bytes.NewReader(buf), r), budget)
		if err != nil {
			return fileRead{err: readErr(p, err)}, true
		}
		return fileRead{text: text, sum: sum, isText: isText}, true
	case io.EOF, io.ErrUnexpectedEOF: // the whole file, or less if it shrank
	default:
		return fileRead{err: readErr(p, err)}, true
	}
	buf = buf[:n]
	sum := sha256.Sum256(buf)
	if !utf8.Valid(buf) {
		return fileRead{sum: hex.EncodeToString(sum[:])}, true
	}
	return fileRead{text: buf, sum: hex.EncodeToString(sum[:]), isText: true}, true
}

// openat2 is unix.Openat2; tests interrupt it.
var openat2 = unix.Openat2

// beneath opens p of the vault open as root with flags (and mode, for a
// file it creates), refusing any symbolic link on the way and any way out
// of the vault; made again while a signal interrupts it or a rename races
// it. Every open beneath the vault's handle is one.
func beneath(root int, p string, flags, mode uint64) (int, error) {
	how := &unix.OpenHow{
		Flags:   flags | unix.O_CLOEXEC | unix.O_NOFOLLOW,
		Mode:    mode,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	for {
		fd, err := openat2(root, p, how)
		if err != syscall.EINTR && err != unix.EAGAIN {
			return fd, err
		}
	}
}

// openBeneathFile opens the file p of the vault open as root for reading
// (beneath).
func openBeneathFile(root int, p string) (int, error) {
	return beneath(root, p, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
}

// fdReader reads the open file fd, a read made again while a signal
// interrupts it.
type fdReader int

// readHook, when set (by tests), is called before each read of a file
// readBeneath opened.
var readHook func()

func (r fdReader) Read(b []byte) (int, error) {
	if readHook != nil {
		readHook()
	}
	for {
		n, err := unix.Read(int(r), b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &os.PathError{Op: "read", Path: "", Err: err}
		case n == 0 && len(b) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// openDirBeneath opens the folder p with one openat2 beneath the vault's
// handle (openBeneath: no link, no way out, O_DIRECTORY), where os.Root
// would stat it, then open every folder on its path. ok is false where
// os.Root must decide: a link on the path, something that is not a
// folder at p or on the way (ENOTDIR: missing or refused, as os.Root
// tells), any other refusal.
func (v *Vault) openDirBeneath(p string) (_ *os.File, ok bool) {
	if v.handle == nil {
		return nil, false
	}
	fd, err := openBeneath(int(v.handle.Fd()), p)
	switch err {
	case nil:
		return os.NewFile(uintptr(fd), p), true
	case unix.ENOENT:
		return nil, true
	}
	return nil, false
}
