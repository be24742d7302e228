package vaultfs

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/kessho/kessho/core/search"
	"github.com/kessho/kessho/core/vault"
)

// Where mem_search's index is kept: a cache the core rebuilds whenever it
// is missing, stale, foreign or damaged (its encoding is versioned and
// checksummed), never a note, never journalled. search.id holds the id
// the core gave the stored index.
//
// The index is kept as two segments (search.Index.Hand): search.idx, the
// base, whose bytes stay as they are while little changes, and
// search.delta, what changed since.
const (
	indexDir    = ".kessho/index"
	indexName   = "search.idx"
	deltaName   = "search.delta"
	indexIDName = "search.id"
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
		c.handOut()
		return c.notes, c.listing, true
	}
	c.valid, c.known, c.given, c.pending = false, false, "", nil
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
		c.valid, c.notes, c.listing, c.given = true, notes, listing, listing
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
//
// The Vault's own writes keep it (applied): the events they made are
// read, the notes they wrote stat'ed, and the listing changed by those
// alone; what changed since the listing a search was given last is
// handed to the next one (NoteChanges).
type listingCache struct {
	mu      sync.Mutex
	w       watcher
	walks   int
	dirs    []string
	valid   bool
	notes   map[string]string
	listing string
	// given is the listing the last search was given from the kept
	// listing ("" after a walk), pending the notes' versions that
	// changed since ("" for a note gone); since, changes and known are
	// what NoteChanges answers, set as a search is given the listing.
	given   string
	pending map[string]string
	since   string
	changes map[string]string
	known   bool
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

// digest returns the notes' versions by path and the listing's digest
// (listingSum).
func digest(all []noteVersion) (map[string]string, string) {
	notes := make(map[string]string, len(all))
	var sum listingSum
	var line []byte
	for _, nv := range all {
		notes[nv.path] = nv.version
		line = sum.add(line, nv.path, nv.version, 1)
	}
	return notes, sum.String()
}

// listingSum is a listing's digest: the sum, in four 64-bit lanes, of
// the SHA-256 of each note's "path NUL version LF" line. A sum needs no
// order, and a Vault's own writes change it by their notes alone
// (listingCache.applied): the old line taken out, the new one added.
type listingSum [4]uint64

// add adds (sign 1) or takes out (sign -1) the line of the note at p of
// version v, line being room for it; it returns that room.
func (s *listingSum) add(line []byte, p, v string, sign uint64) []byte {
	line = append(append(append(append(line[:0], p...), 0), v...), '\n')
	h := sha256.Sum256(line)
	for i := range s {
		s[i] += sign * binary.LittleEndian.Uint64(h[8*i:])
	}
	return line
}

func (s *listingSum) String() string {
	var b [32]byte
	for i, v := range s {
		binary.LittleEndian.PutUint64(b[8*i:], v)
	}
	return hex.EncodeToString(b[:])
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

// IndexID returns the id of the stored index ("" when none, or when
// it cannot be kept: IndexUnkept).
func (v *Vault) IndexID() string {
	r, _ := v.indexPlace(false)
	if r == nil {
		return ""
	}
	defer r.Close()
	return strings.TrimSpace(string(readCache(r, indexIDName, maxIDBytes, nil)))
}

// maxIDBytes bounds what is read of search.id: an id is a checksum, a
// length and a listing's digest, about 100 bytes.
const maxIDBytes = 4 << 10

// LoadIndex appends the stored index's bytes to into (into as it was
// when there is none, or when it cannot be read whole): the caller reads
// the index straight into the request that carries it, after the JSON,
// rather than into a buffer of its own that is then copied (5 MB at
// 10,000 notes, a copy and its page faults).
//
// It reads at most bound bytes (search.IndexBound of the notes' listing:
// what a valid index of this vault can take), and only a regular file
// whose header (search.Size) says the length the file has: a larger
// file, a link, a pipe or a device is no index, the core rebuilds it,
// and nothing more is read of it.
func (v *Vault) LoadIndex(into []byte, bound int64) []byte {
	r, _ := v.indexPlace(false)
	if r == nil {
		return into
	}
	defer r.Close()
	out := readCache(r, indexName, bound, into)
	if len(out) == len(into) {
		return into
	}
	if n, ok := search.Size(out[len(into):]); !ok || n != int64(len(out)-len(into)) {
		return into
	}
	base := len(out)
	if out = readCache(r, deltaName, bound, out); search.DeltaSize(out[base:]) != int64(len(out)-base) {
		out = out[:base] // no delta, or not a whole one: the base alone
	}
	return out
}

// readCache appends to into the cache file name of the index folder r, a
// regular file of at most max bytes; into comes back as it was when the
// file is anything else, or cannot be read whole. The file is opened without
// blocking (a pipe put there must not stall the search) and is the file
// its Lstat saw (a link put there since is not followed).
func readCache(r *os.Root, name string, max int64, into []byte) []byte {
	li, err := r.Lstat(name)
	if err != nil || !li.Mode().IsRegular() || li.Size() > max {
		return into
	}
	f, err := r.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return into
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || !os.SameFile(li, info) || info.Size() > max {
		return into
	}
	n := len(into)
	out := slices.Grow(into, int(info.Size()))[:n+int(info.Size())]
	if _, err := io.ReadFull(f, out[n:]); err != nil {
		return into
	}
	return out
}

// StoreIndex replaces the stored index with data and its id: a delta
// (search.IsDelta) replaces search.delta alone, the base's bytes left as
// they are; a whole index replaces search.idx, and search.delta is
// removed. Each file is written under a random name of its own (O_EXCL:
// never a file that is there, never through a link), fsynced (the id
// aside: it only names what to ask for, and the core checks what it is
// sent), then renamed over its place, and the folder fsynced once all is
// in place, as a plan's files are: a reader sees a whole file, a link
// planted at any name is replaced, its target untouched, and after a
// crash the stored segments are ones that were written whole. A torn or foreign one
// fails its checksum, an id that names no index makes the core ask for
// the index, and the core rebuilds what it must; Recover removes the
// temporary files a crash left (sweepIndex).
//
// Nothing is written where the index cannot be kept (IndexUnkept: a
// .kessho or .kessho/index that is a link or not a folder): the error
// names it.
func (v *Vault) StoreIndex(data []byte, id string) error {
	r, unkept := v.indexPlace(true)
	if r == nil {
		return fmt.Errorf("storing the search index: %s is a symbolic link or not a folder", unkept)
	}
	defer r.Close()
	if err := r.Remove(indexIDName); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err // an id never names an index it did not come with
	}
	step("index: id removed")
	if search.IsDelta(data) {
		if err := writeCache(r, deltaName, data, true); err != nil {
			return err
		}
	} else {
		if err := writeCache(r, indexName, data, true); err != nil {
			return err
		}
		switch err := r.Remove(deltaName); {
		case err == nil:
			step("index: the base's delta removed")
		case !errors.Is(err, fs.ErrNotExist):
			return err
		}
	}
	if err := writeCache(r, indexIDName, []byte(id+"\n"), false); err != nil {
		return err
	}
	return syncRoot(r)
}

// syncRoot fsyncs the folder r is.
func syncRoot(r *os.Root) error {
	f, err := r.Open(".")
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// writeCache writes the cache file name of the index folder r: a
// temporary of a random name (created, never opened if it exists, so
// never a link's target), fsynced when sync is set, renamed over it.
func writeCache(r *os.Root, name string, data []byte, sync bool) error {
	tmp := randomName()
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	step("index: %s temporary created", name)
	_, err = f.Write(data)
	if err == nil && sync {
		err = f.Sync()
	}
	step("index: %s temporary written", name)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.Rename(tmp, name)
	}
	if err != nil {
		r.Remove(tmp)
		return err
	}
	step("index: %s renamed", name)
	return nil
}

// IndexUnkept returns the place that keeps the index from being stored,
// "" when it can be: .kessho or .kessho/index when it is a symbolic link
// (git and sync clients carry links) or not a folder, or an index file's
// name where a folder is. Nothing is read or written through it; a search
// still answers, rebuilding its index each time, and says so
// (search.Carry.Unkept).
func (v *Vault) IndexUnkept() string {
	r, unkept := v.indexPlace(false)
	if r != nil {
		defer r.Close()
		for _, name := range []string{indexName, deltaName, indexIDName} {
			if info, err := r.Lstat(name); err == nil && info.IsDir() {
				return indexDir + "/" + name
			}
		}
	}
	return unkept
}

// indexPlace opens .kessho/index as a Root of its own when it is a real
// folder in a real .kessho folder (Lstat: neither is a link), made when
// missing if create is set: every read and write of the index goes through
// it by name, so nothing of the index leads outside that folder. It
// returns nil and the place at fault when one is a link or not a folder
// (or was replaced by one while it was opened), nil and "" when the
// folder is missing and not to be made or cannot be.
func (v *Vault) indexPlace(create bool) (*os.Root, string) {
	var info fs.FileInfo
	for _, p := range []string{stateDir, indexDir} {
		li, err := v.root.Lstat(p)
		if absentErr(err) && create {
			if err = v.root.Mkdir(p, 0o755); err == nil {
				step("index: %s made", p)
				li, err = v.root.Lstat(p)
			}
		}
		switch {
		case err != nil:
			return nil, "" // missing, or not to be looked at
		case !li.IsDir():
			return nil, p // a link, a file, a pipe
		}
		info = li
	}
	r, err := v.root.OpenRoot(indexDir)
	if err != nil {
		return nil, ""
	}
	if got, err := r.Stat("."); err != nil || !os.SameFile(got, info) {
		r.Close()
		return nil, indexDir // replaced since its Lstat
	}
	return r, ""
}

// sweepIndex removes what a crash of StoreIndex left in the index
// folder: its temporary files, and those of the fixed names earlier
// versions wrote (links among them are removed, never followed).
func (v *Vault) sweepIndex() {
	if v.absentBeneath(indexDir) {
		return // no index folder: nothing to sweep, in one openat2
	}
	r, _ := v.indexPlace(false)
	if r == nil {
		return
	}
	defer r.Close()
	f, err := r.Open(".")
	if err != nil {
		return
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	for _, n := range names {
		if strings.HasPrefix(n, tempPrefix) || n == indexName+".tmp" || n == indexIDName+".tmp" {
			r.Remove(n)
		}
	}
}
