//go:build linux

package vaultfs

import (
	"context"
	"io/fs"
	"runtime"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/search"
)

// scanNotes lists every note's version in one pass, what a fresh
// `kessho search` spends most of its time on: each folder opened once,
// from the vault's handle with openat2 (RESOLVE_BENEATH and
// RESOLVE_NO_SYMLINKS: the kernel refuses any way out of the vault, as
// os.Root does, without opening every folder on the path again), listed
// with getdents (the entries' types from d_type, no stat), its notes
// stat'ed with fstatat on that handle (statAt), folders spread over a
// few workers. The tree walk instead lists every folder, then opens each
// again to stat its notes, each open walking the path from the vault's
// root.
//
// It lists exactly what walkTree lists: entries whose name starts with a
// dot or that plan.CheckPath refuses left out, notes the .md regular
// files. ok is false, and walkTree does the work, where the scan would
// have to decide as the tree walk does and could not do it alike without
// its order: a symbolic link (to a note or a folder), a folder met twice
// (a bind mount), and where openat2 is missing (Linux before 5.6, or a
// seccomp filter) or any folder cannot be read.
func (v *Vault) scanNotes(ctx context.Context) (notes map[string]string, listing string, dirs []string, ok bool) {
	root, err := v.root.Open(".")
	if err != nil {
		return nil, "", nil, false
	}
	defer root.Close()
	s := &scan{ctx: ctx, root: int(root.Fd()), todo: []string{"."}, seen: map[dirID]bool{}}
	s.cond.L = &s.mu
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), 4) {
		wg.Go(s.work)
	}
	wg.Wait()
	if s.failed {
		return nil, "", nil, false
	}
	n := 0
	for _, f := range s.found {
		n += len(f)
	}
	all := make([]noteVersion, 0, n)
	for _, f := range s.found {
		all = append(all, f...)
	}
	notes, listing = digest(all)
	return notes, listing, s.dirs, true
}

// scan is the state scanNotes's workers share: the folders left to list
// (todo), how many are being listed (busy), and what was found.
type scan struct {
	ctx    context.Context
	root   int
	mu     sync.Mutex
	cond   sync.Cond
	todo   []string
	busy   int
	failed bool
	seen   map[dirID]bool
	dirs   []string
	found  [][]noteVersion
}

// work lists folders until none is left, or until one makes the scan
// give up.
func (s *scan) work() {
	buf := make([]byte, 32<<10)
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		for len(s.todo) == 0 && s.busy > 0 && !s.failed {
			s.cond.Wait()
		}
		if len(s.todo) == 0 || s.failed {
			s.cond.Broadcast()
			return
		}
		p := s.todo[len(s.todo)-1]
		s.todo = s.todo[:len(s.todo)-1]
		s.busy++
		s.mu.Unlock()
		f, ok := s.folder(p, buf)
		s.mu.Lock()
		s.busy--
		switch {
		case !ok || s.ctx.Err() != nil || f.listed && s.seen[f.id]:
			s.failed = true
		case f.listed:
			s.seen[f.id] = true
			s.dirs = append(s.dirs, p)
			s.found = append(s.found, f.notes)
			s.todo = append(s.todo, f.subdirs...)
		}
		s.cond.Broadcast()
	}
}

// scanned is what listing one folder found. listed is false for a folder
// removed since its parent was listed (the tree walk leaves it out too).
type scanned struct {
	listed  bool
	id      dirID
	notes   []noteVersion
	subdirs []string
}

// folder lists the folder p: its notes' versions and its sub-folders. ok
// is false where the scan must give up (see scanNotes).
func (s *scan) folder(p string, buf []byte) (f scanned, ok bool) {
	fd, err := openBeneath(s.root, p)
	if err == unix.ENOENT || err == unix.ENOTDIR {
		return f, true
	}
	if err != nil {
		return f, false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := fstatRetry(fd, &st); err != nil {
		return f, false
	}
	f.listed, f.id = true, dirID{dev: uint64(st.Dev), ino: uint64(st.Ino)}
	entries, err := direntsOf(fd, buf, nil)
	if err != nil {
		return f, false
	}
	for _, e := range entries {
		if strings.HasPrefix(e.name, ".") || plan.CheckPath(e.name) != nil {
			continue
		}
		full := join(p, e.name)
		typ, isNote := e.typ, search.IsNote(full)
		if typ == ^fs.FileMode(0) || typ.IsRegular() && isNote {
			// The type unknown, or a note, whose version a stat gives.
			if st, err = statAt(fd, e.name, unix.AT_SYMLINK_NOFOLLOW); absentErr(err) {
				continue // gone since the listing
			} else if err != nil {
				return f, false
			}
			typ = (&statInfo{st: st}).Mode().Type()
		}
		switch {
		case typ&fs.ModeSymlink != 0:
			return f, false
		case typ.IsDir():
			f.subdirs = append(f.subdirs, full)
		case typ.IsRegular() && isNote:
			nv, _ := regularNote(full, &st)
			f.notes = append(f.notes, nv)
		}
	}
	return f, true
}

// openBeneath opens the folder p of the vault open as root (beneath).
func openBeneath(root int, p string) (int, error) {
	return beneath(root, p, unix.O_RDONLY|unix.O_DIRECTORY, 0)
}

// fstatRetry is fstat of fd, made again while a signal interrupts it.
func fstatRetry(fd int, st *unix.Stat_t) error {
	for {
		if err := unix.Fstat(fd, st); err != syscall.EINTR {
			return err
		}
	}
}
