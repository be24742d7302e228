package vaultfs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"kessho/core/search"
	"kessho/core/vault"
)

// Where mem_search's index is kept: a cache the core rebuilds whenever it
// is missing, stale, foreign or damaged (its encoding is versioned and
// checksummed), never a note, never journalled. search.id holds the id
// the core gave the stored index.
const (
	indexDir    = ".kessho/index"
	indexFile   = ".kessho/index/search.idx"
	indexIDFile = ".kessho/index/search.id"
)

// SearchNotes returns every note's version, "size:mtime" (nanoseconds),
// from one walk of the vault that lists folders as a tree need does
// (dot-folders left out, links to folders followed once), and the digest
// of that listing (search.Carry.Listing). ok is false when the vault
// cannot be walked: the core then asks for the notes itself.
//
// A Vault that searches more than once (the MCP server's) keeps the
// listing between searches while nothing changed: see listingCache.
func (v *Vault) SearchNotes(ctx context.Context) (notes map[string]string, listing string, ok bool) {
	c := &v.notes
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.valid && !c.w.changed() {
		return c.notes, c.listing, true
	}
	c.valid = false
	if c.walks > 0 {
		// From the second search on, every folder is watched before the
		// walk that lists it, and whatever changes after shows as an event.
		c.w.reset()
		c.w.watch(v.dir, c.dirs)
	}
	c.w.changed() // the walk below sees what came before
	notes, listing, dirs, links, ok := v.walkNotes(ctx)
	if !ok {
		return nil, "", false
	}
	c.walks++
	c.dirs = dirs
	if c.w.covers(dirs) && !links {
		c.valid, c.notes, c.listing = true, notes, listing
	}
	return notes, listing, true
}

// listingCache is the notes' listing SearchNotes made last, kept while an
// inotify watch on every folder of the vault (Linux) reports no event: a
// write, a creation, a removal, a rename or a change of times in any
// folder, a folder gone, or the queue overflowing drops it, and the next
// search walks again. The kernel queues an event before the write that
// caused it returns, so a hand edit done before a search is always seen:
// a kept listing is never stale. Watches are set before the walk they
// cover (from the second search of a Vault: a one-shot CLI call sets
// none), and a note that is a symbolic link (its file may change where no
// watch sees it) keeps nothing. Elsewhere than on Linux, and when a folder
// cannot be watched, every search walks.
type listingCache struct {
	mu      sync.Mutex
	w       watcher
	walks   int
	dirs    []string
	valid   bool
	notes   map[string]string
	listing string
}

func (c *listingCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.w.reset()
	c.valid = false
}

// walkNotes walks the vault: every note's version, the listing's digest,
// the folders listed, and whether a note is a symbolic link. The one-pass
// scan lists a vault without links (Linux); a vault with one, or where
// the scan cannot run, is walked as a tree need is (walkTree). Both give
// the same listing.
func (v *Vault) walkNotes(ctx context.Context) (notes map[string]string, listing string, dirs []string, links, ok bool) {
	if notes, listing, dirs, ok := v.scanNotes(ctx); ok {
		return notes, listing, dirs, false, true
	}
	return v.walkTree(ctx)
}

// walkTree is walkNotes through a tree need's walk, then one stat a note
// (statNotes), folders spread over a few workers.
func (v *Vault) walkTree(ctx context.Context) (notes map[string]string, listing string, dirs []string, links, ok bool) {
	var snap vault.Snapshot
	if err := v.AnswerContext(ctx, vault.Need{Trees: []vault.Tree{{Root: "."}}}, &snap, 0); err != nil {
		return nil, "", nil, false, false
	}
	type folder struct {
		dir   string
		names []string
		found []noteVersion
		links bool
	}
	var folders []*folder
	for dir, entries := range snap.Dirs {
		dirs = append(dirs, dir)
		f := &folder{dir: dir}
		for _, e := range entries {
			if !strings.HasSuffix(e, "/") && search.IsNote(vault.Join(dir, e)) {
				f.names = append(f.names, e)
			}
		}
		if len(f.names) > 0 {
			folders = append(folders, f)
		}
	}
	// The folders are stat'ed by a few workers: a stat is a system call,
	// 10,000 of them are most of a search's time in a fresh process.
	work := make(chan *folder)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), 4, len(folders)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				f.found, f.links = v.statNotes(f.dir, f.names, nil)
			}
		}()
	}
	n := 0
	for _, f := range folders {
		work <- f
		n += len(f.names)
	}
	close(work)
	wg.Wait()
	all := make([]noteVersion, 0, n)
	for _, f := range folders {
		all = append(all, f.found...)
		links = links || f.links
	}
	notes, listing = digest(all)
	return notes, listing, dirs, links, true
}

// digest returns the notes' versions by path and the listing's digest:
// the SHA-256 of "path NUL version LF" lines sorted by path (all is
// sorted in place).
func digest(all []noteVersion) (map[string]string, string) {
	slices.SortFunc(all, func(a, b noteVersion) int { return strings.Compare(a.path, b.path) })
	notes := make(map[string]string, len(all))
	h := sha256.New()
	var line []byte
	for _, nv := range all {
		notes[nv.path] = nv.version
		line = append(append(append(append(line[:0], nv.path...), 0), nv.version...), '\n')
		h.Write(line)
	}
	return notes, hex.EncodeToString(h.Sum(nil))
}

// noteVersion is one note's path and version.
type noteVersion struct{ path, version string }

// version is a note's version: its size and mtime.
func version(info fs.FileInfo) string { return versionOf(info.Size(), info.ModTime().UnixNano()) }

func versionOf(size, mtimeNs int64) string {
	b := strconv.AppendInt(make([]byte, 0, 32), size, 10)
	return string(strconv.AppendInt(append(b, ':'), mtimeNs, 10))
}

// statNotesAt is the portable statNotes: one Root.Stat a note.
// It reports links true: it does not tell links apart.
func (v *Vault) statNotesAt(dir string, names []string, into []noteVersion) ([]noteVersion, bool) {
	for _, n := range names {
		p := path.Join(dir, n)
		if info, err := v.root.Stat(p); err == nil && info.Mode().IsRegular() {
			into = append(into, noteVersion{p, version(info)})
		}
	}
	return into, true
}

// IndexID returns the id of the stored index ("" when none).
func (v *Vault) IndexID() string {
	b, err := fs.ReadFile(v.root.FS(), indexIDFile)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// LoadIndex appends the stored index's bytes to into (into as it was
// when there is none, or when it cannot be read whole): the caller reads
// the index straight into the request that carries it, after the JSON,
// rather than into a buffer of its own that is then copied (5 MB at
// 10,000 notes, a copy and its page faults).
func (v *Vault) LoadIndex(into []byte) []byte {
	f, err := v.root.Open(indexFile)
	if err != nil {
		return into
	}
	defer f.Close()
	n := len(into)
	if info, err := f.Stat(); err == nil {
		into = slices.Grow(into, int(info.Size())+1) // +1: the read that finds the end needs no growing
	}
	for {
		if len(into) == cap(into) {
			into = slices.Grow(into, 64<<10)
		}
		k, err := f.Read(into[len(into):cap(into)])
		into = into[:len(into)+k]
		if err == io.EOF {
			return into
		}
		if err != nil {
			return into[:n]
		}
	}
}

// StoreIndex replaces the stored index with data and its id: each file
// written beside its place, then renamed over it, so a reader sees a whole
// file. They are not fsynced: after a crash a torn index fails its
// checksum, an id that names no index makes the core ask for the index,
// and the core rebuilds what it must.
func (v *Vault) StoreIndex(data []byte, id string) error {
	if err := v.root.MkdirAll(indexDir, 0o755); err != nil {
		return err
	}
	v.root.Remove(indexIDFile) // an id never names an index it did not come with
	if err := v.replaceCache(indexFile, data); err != nil {
		return err
	}
	return v.replaceCache(indexIDFile, []byte(id+"\n"))
}

// replaceCache writes a cache file: a temporary beside it, renamed over it.
func (v *Vault) replaceCache(p string, data []byte) error {
	tmp := p + ".tmp"
	f, err := v.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = v.root.Rename(tmp, p)
	}
	if err != nil {
		v.root.Remove(tmp)
	}
	return err
}
