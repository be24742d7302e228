//go:build linux

package vaultfs

import (
	"path/filepath"

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
		w.on, w.fd, w.watched = true, fd, map[string]bool{}
	}
	for _, d := range dirs {
		if w.watched[d] {
			continue
		}
		if _, err := unix.InotifyAddWatch(w.fd, filepath.Join(root, filepath.FromSlash(d)), watchMask); err == nil {
			w.watched[d] = true
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
// since the last call, reading them all. A read that fails otherwise than
// "nothing yet" counts as a change.
func (w *watcher) changed() bool {
	if !w.on {
		return true
	}
	var buf [4096]byte
	any := false
	for {
		n, err := unix.Read(w.fd, buf[:])
		switch {
		case err == unix.EAGAIN:
			return any
		case err != nil:
			return true
		case n <= 0:
			return any
		}
		any = true
	}
}

// reset drops every watch: after a change, folders may have been removed
// or replaced, and a watch names an inode, not a path.
func (w *watcher) reset() {
	if w.on {
		unix.Close(w.fd)
	}
	*w = watcher{}
}
