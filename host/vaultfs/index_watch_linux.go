//go:build linux

package vaultfs

import (
	"path/filepath"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watchMask is every change to a folder's entries that may change a
// note's version or the listing: content, times, creation, removal,
// renames, and the folder itself going away.
const watchMask = unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE | unix.IN_CREATE | unix.IN_DELETE |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_ONLYDIR

// watcher is an inotify instance watching the vault's folders (its zero
// value: none yet).
type watcher struct {
	on      bool
	fd      int
	watched map[string]bool
	dirOf   map[int32]string // each watch's folder
}

// watch adds a watch on each folder (vault-relative) not watched yet,
// making the inotify instance on first use. A folder it could not watch
// (too many watches, a folder gone) stays unwatched: covers then says so,
// and the listing is not kept.
func (w *watcher) watch(root string, dirs []string) {
	if !w.on {
		fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
		if err != nil {
			return
		}
		w.on, w.fd, w.watched, w.dirOf = true, fd, map[string]bool{}, map[int32]string{}
	}
	for _, d := range dirs {
		if w.watched[d] {
			continue
		}
		if wd, err := unix.InotifyAddWatch(w.fd, filepath.Join(root, filepath.FromSlash(d)), watchMask); err == nil {
			w.watched[d] = true
			w.dirOf[int32(wd)] = d
		}
	}
}

// only reads every event that came since the last read, and reports
// whether each one is of an entry, not a folder, that mine accepts by
// its folder (vault-relative) and name: the events a Vault's own write
// made. An overflow of the queue, a folder made, removed or moved, a
// watch gone, or a read that fails are no one's.
func (w *watcher) only(mine func(dir, name string) bool) bool {
	if !w.on {
		return false
	}
	const other = unix.IN_Q_OVERFLOW | unix.IN_ISDIR | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_IGNORED | unix.IN_UNMOUNT
	var buf [4096]byte
	all := true
	for {
		n, err := unix.Read(w.fd, buf[:])
		switch {
		case err == unix.EAGAIN:
			return all
		case err != nil || n <= 0:
			return false
		}
		for b := buf[:n]; len(b) >= unix.SizeofInotifyEvent; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&b[0]))
			end := unix.SizeofInotifyEvent + int(ev.Len)
			if end > len(b) {
				return false
			}
			name, _, _ := strings.Cut(string(b[unix.SizeofInotifyEvent:end]), "\x00")
			dir, ok := w.dirOf[ev.Wd]
			all = all && ok && ev.Mask&other == 0 && mine(dir, name)
			b = b[end:]
		}
	}
}

// covers reports whether every folder of dirs is watched.
func (w *watcher) covers(dirs []string) bool {
	if !w.on {
		return false
	}
	for _, d := range dirs {
		if !w.watched[d] {
			return false
		}
	}
	return true
}

// changed reports whether any event (or an overflow of the queue) came
// since the last call, reading them all: only, of events no one made. A
// read that fails otherwise than "nothing yet" counts as a change.
func (w *watcher) changed() bool {
	return !w.only(func(string, string) bool { return false })
}

// reset drops every watch: after a change, folders may have been removed
// or replaced, and a watch names an inode, not a path.
func (w *watcher) reset() {
	if w.on {
		unix.Close(w.fd)
	}
	*w = watcher{}
}
