package vaultfs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unicode/utf8"
	"unsafe"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/hostlogic"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/search"
	"github.com/kessho/kessho/core/vault"
)

// AnswerContext reads what need asks for and adds it to snap.
//
//   - A file goes into snap.Files with the SHA-256 (hex) of its exact bytes
//     and, when they are valid UTF-8, its text; otherwise NotUTF8 is set.
//   - A folder goes into snap.Dirs: its entries sorted, sub-folders with a
//     trailing "/". Entries Kessho can never touch are left out: names
//     starting with "." and names [plan.CheckPath] refuses (a backslash, a
//     colon, invalid UTF-8), symbolic links that are broken or lead outside
//     the vault, and anything that is neither a file nor a folder.
//   - A tree lists its root and every folder under it in snap.Dirs and,
//     with Content, reads every file under it into snap.Files. Each real
//     folder is listed once, however many links lead to it: a symbolic
//     link to a folder listed elsewhere in the tree (an enclosing one, a
//     sibling) is left out, so links make neither cycles nor repeats.
//   - A path where nothing exists goes into snap.Missing (sorted).
//
// Folders and tree roots may be "." (the vault's root); every other path
// must pass plan.CheckPath, or AnswerContext refuses the whole need with
// INTERNAL (the module asked for what it never may) before reading
// anything.
//
// maxBytes bounds the bytes of text the snapshot may hold in total, the
// files it held before the call included; reading past it gives
// LIMIT_EXCEEDED naming the file. A file that is not UTF-8 holds no text
// and does not count. maxBytes <= 0 means no bound.
//
// A file asked for where the vault holds a folder (or a folder where it
// holds a file, or a file that is a device or a pipe) gives CONFLICT naming
// the path: the vault is not shaped as the tool relies on, and reporting
// the path as missing would be false (Snapshot.Missing promises nothing
// exists there). A path through a symbolic link that leads outside the
// vault gives CONFLICT too.
//
// Once ctx's deadline has passed, reading stops with LIMIT_EXCEEDED (checked before each folder listed
// and each file read); a ctx cancelled otherwise stops it with ctx's
// error. What was read before stays in snap.
func (v *Vault) AnswerContext(ctx context.Context, need vault.Need, snap *vault.Snapshot, maxBytes int64) error {
	if err := hostlogic.CheckNeed(need); err != nil {
		return err
	}
	for i, ps := range [][]string{need.Files, need.Dirs} {
		for _, p := range ps {
			if err := v.undoSafe(p, i == 1); err != nil {
				return err
			}
		}
	}

	a := &answerer{ctx: ctx, v: v, snap: snap, max: maxBytes, missing: map[string]bool{}}
	if snap.Files == nil {
		snap.Files = map[string]vault.File{}
	}
	if snap.Dirs == nil {
		snap.Dirs = map[string][]string{}
	}
	for _, p := range snap.Missing {
		a.missing[p] = true
	}
	for _, f := range snap.Files {
		if f.Text != nil {
			a.used += int64(len(*f.Text))
		}
	}

	if err := a.files(need.Files); err != nil {
		return err
	}
	for _, p := range need.Heads {
		if err := a.head(p); err != nil {
			return err
		}
	}
	for _, p := range need.Dirs {
		if _, ok := snap.Dirs[p]; ok || a.missing[p] {
			continue
		}
		if _, err := a.dir(p); err != nil {
			return err
		}
	}
	for _, t := range need.Trees {
		if err := a.tree(t); err != nil {
			return err
		}
	}
	for _, m := range need.Matches {
		if err := a.match(m); err != nil {
			return err
		}
	}
	sort.Strings(snap.Missing)
	return nil
}

// match answers a Match need: the entries of m.Dir that m selects.
func (a *answerer) match(m vault.Match) error {
	key := m.Key()
	if _, ok := a.snap.Matches[key]; ok || a.missing[m.Dir] {
		return nil
	}
	entries, err := a.v.list(m.Dir, literals(m.Patterns))
	if err != nil {
		return err
	}
	if entries == nil {
		a.addMissing(m.Dir)
		return nil
	}
	entries = slices.DeleteFunc(entries, func(e entry) bool { return !m.Selects(e.name) })
	if a.snap.Matches == nil {
		a.snap.Matches = map[string][]string{}
	}
	a.snap.Matches[key] = names(entries)
	return nil
}

// literals returns the names patterns select when each is a plain name
// (no wildcard, no "!"): those entries can be looked up by name rather
// than by listing the folder. It returns nil otherwise.
func literals(patterns []string) []string {
	for _, p := range patterns {
		if p == "" || strings.HasPrefix(p, "!") || strings.ContainsAny(p, `*?[\`) {
			return nil
		}
	}
	return patterns
}

// answerer carries one AnswerContext's state.
type answerer struct {
	ctx     context.Context
	v       *Vault
	snap    *vault.Snapshot
	max     int64
	used    int64 // bytes of text in snap.Files
	missing map[string]bool
}

// live refuses to read p once the call's context has ended.
func (a *answerer) live(p string) error {
	err := a.ctx.Err()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return fault.New(fault.LimitExceeded, map[string]any{"path": p},
			fmt.Sprintf("the call's deadline passed while Kessho was reading the vault (at %s); ask for less of the vault or give the call more time", p),
			fmt.Sprintf("le délai de l'appel est passé pendant que Kessho lisait le coffre (à %s) ; demandez moins du coffre ou donnez plus de temps à l'appel", p))
	}
	return fmt.Errorf("reading %s: %w", p, err)
}

func (a *answerer) addMissing(p string) {
	if !a.missing[p] {
		a.missing[p] = true
		a.snap.Missing = append(a.snap.Missing, p)
	}
}

// file reads the file at p into the snapshot, or records it missing.
func (a *answerer) file(p string) error {
	if _, ok := a.snap.Files[p]; ok || a.missing[p] {
		return nil
	}
	if err := a.live(p); err != nil {
		return err
	}
	return a.put(p, a.read(p, a.budget()))
}

// head reads the head of the file at p into snap.Heads (vault.Head):
// its first vault.MaxHeadBytes bytes and no more, cut back to a whole
// UTF-8 character (search.HeadLen), and its size; or records it missing.
// A folder, a device or a pipe is refused as a files need refuses it. A
// head's text does not count against maxBytes: it is bounded by itself.
func (a *answerer) head(p string) error {
	if _, ok := a.snap.Heads[p]; ok || a.missing[p] {
		return nil
	}
	if err := a.live(p); err != nil {
		return err
	}
	f, info, err := a.v.openFile(p)
	if err != nil || f == nil {
		if err == nil {
			a.addMissing(p)
		}
		return err
	}
	defer f.Close()
	b := make([]byte, min(info.Size(), vault.MaxHeadBytes))
	n, err := io.ReadFull(f, b)
	if err != nil && err != io.ErrUnexpectedEOF {
		return readErr(p, err)
	}
	b = b[:n]
	if int64(n) == vault.MaxHeadBytes && info.Size() > vault.MaxHeadBytes {
		b = b[:search.HeadLen(b)]
	}
	h := vault.Head{Size: info.Size()}
	if utf8.Valid(b) {
		s := unsafe.String(unsafe.SliceData(b), len(b))
		h.Text = &s
	} else {
		h.NotUTF8 = true
	}
	if a.snap.Heads == nil {
		a.snap.Heads = map[string]vault.Head{}
	}
	a.snap.Heads[p] = h
	return nil
}

// openFile opens the file at p for reading, as readRoot does (a stat,
// the open file stat'ed again, each refused unless a regular file): nil
// and no error when nothing is there.
func (v *Vault) openFile(p string) (*os.File, fs.FileInfo, error) {
	info, err := v.root.Stat(p)
	if absentErr(err) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, readErr(p, err)
	}
	if err := wantFile(p, info); err != nil {
		return nil, nil, err
	}
	f, err := v.root.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, readErr(p, err)
	}
	if info, err = f.Stat(); err == nil {
		err = wantFile(p, info) // replaced since the Stat
	}
	if err != nil {
		f.Close()
		if _, ok := fault.As(err); !ok {
			err = readErr(p, err)
		}
		return nil, nil, err
	}
	return f, info, nil
}

// parallelFiles is the fewest files a need must ask for to be read by
// several workers; fewer are read one after the other.
const parallelFiles = 8

// readWorkers is how many files are read at once (the cores, at most 4).
var readWorkers = min(runtime.GOMAXPROCS(0), 4)

// files reads the files at ps into the snapshot, as file does one after
// the other, with the same outcome whatever the order the reads end in:
// the files are read by several workers (the reads of a first index build
// are most of a host's part of it), each with the budget left before any
// of them, then put into the snapshot in the order of ps, each counted
// against the budget as it is put: the first file that does not fit, or
// that cannot be read, is refused as file would refuse it, with the files
// before it in the snapshot. The workers stop taking files once one is
// refused or the texts read exceed the budget: every file before the
// first refused one has then been read.
func (a *answerer) files(ps []string) error {
	todo := make([]string, 0, len(ps))
	asked := make(map[string]bool, len(ps))
	for _, p := range ps {
		if _, ok := a.snap.Files[p]; ok || a.missing[p] || asked[p] {
			continue
		}
		asked[p] = true
		todo = append(todo, p)
	}
	if len(todo) < parallelFiles || readWorkers < 2 {
		for _, p := range todo {
			if err := a.file(p); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		reads       = make([]*fileRead, len(todo))
		budget      = a.budget()
		next, texts atomic.Int64
		stop        atomic.Bool
		wg          sync.WaitGroup
	)
	for range readWorkers {
		wg.Go(func() {
			for !stop.Load() {
				i := int(next.Add(1)) - 1
				if i >= len(todo) {
					return
				}
				r := fileRead{err: a.live(todo[i])}
				if r.err == nil {
					r = a.read(todo[i], budget)
				}
				reads[i] = &r
				if r.err != nil || r.isText && (r.text == nil || budget >= 0 && texts.Add(int64(len(r.text))) > budget) {
					stop.Store(true)
				}
			}
		})
	}
	wg.Wait()
	for i, r := range reads {
		if r == nil {
			return fmt.Errorf("reading %s: not read before the refusal", todo[i]) // never: see above
		}
		if err := a.put(todo[i], *r); err != nil {
			return err
		}
	}
	return nil
}

// budget is the bytes of text the snapshot may still take (-1: no bound).
func (a *answerer) budget() int64 {
	if a.max > 0 {
		return a.max - a.used
	}
	return -1
}

// fileRead is what reading one file gave: nothing there (missing), or
// its hash and, when it is UTF-8 (isText), its text: nil when it did not
// fit in the budget it was read with. err is the read's refusal.
type fileRead struct {
	missing bool
	text    []byte
	sum     string
	isText  bool
	err     error
}

// read reads the file at p, its text kept while it fits in budget (-1:
// no bound): with one openat2 where the platform allows (readBeneath),
// else through os.Root.
func (a *answerer) read(p string, budget int64) fileRead {
	if r, ok := a.readBeneath(p, budget); ok {
		return r
	}
	return a.v.readRoot(p, budget)
}

// readRoot reads the file at p through os.Root: a stat, then the file
// opened and stat'ed again (it may have been replaced since: openFile),
// read by readCapped.
func (v *Vault) readRoot(p string, budget int64) fileRead {
	f, _, err := v.openFile(p)
	if err != nil {
		return fileRead{err: err}
	}
	if f == nil {
		return fileRead{missing: true}
	}
	defer f.Close()
	text, sum, isText, err := readCapped(f, budget)
	if err != nil {
		return fileRead{err: readErr(p, err)}
	}
	return fileRead{text: text, sum: sum, isText: isText}
}

// put adds what reading p gave to the snapshot, or refuses it: its error,
// or LIMIT_EXCEEDED for a text that does not fit in what the snapshot may
// still take (read with a larger budget, as parallel reads are).
func (a *answerer) put(p string, r fileRead) error {
	switch {
	case r.err != nil:
		return r.err
	case r.missing:
		a.addMissing(p)
		return nil
	case r.isText && (r.text == nil || a.max > 0 && int64(len(r.text)) > a.max-a.used):
		return hostlogic.TooMuchText(p, a.max)
	}
	file := vault.File{SHA256: r.sum}
	if r.isText {
		// The bytes were read for this text alone and are never written
		// again: the string shares them rather than copying the file.
		s := unsafe.String(unsafe.SliceData(r.text), len(r.text))
		file.Text = &s
		a.used += int64(len(r.text))
	} else {
		file.NotUTF8 = true
	}
	a.snap.Files[p] = file
	return nil
}

// wantFile refuses anything but a regular file at p.
func wantFile(p string, info fs.FileInfo) error {
	if info.IsDir() {
		return hostlogic.FolderNotFile(p)
	}
	if !info.Mode().IsRegular() {
		return conflict(p,
			p+" is not a regular file (a device, a pipe or a socket); Kessho reads only files and folders",
			p+" n'est pas un fichier ordinaire (périphérique, tube ou socket) ; Kessho ne lit que des fichiers et des dossiers")
	}
	return nil
}

// readCapped reads r to its end and returns the SHA-256 (hex) of its bytes
// and whether they are valid UTF-8. It keeps the bytes as text only while
// they fit in budget (budget < 0: no bound); a valid text that does not fit
// comes back with text nil. Bytes that are not UTF-8 are hashed as they
// stream and never held, however large the file.
func readCapped(r io.Reader, budget int64) (text []byte, sum string, isText bool, err error) {
	h := sha256.New()
	var (
		kept    []byte
		over    bool
		valid   = true
		pending []byte // an incomplete rune at the end of the last chunk
		buf     = make([]byte, 64<<10)
	)
	for {
		n, rerr := r.Read(buf)
		chunk := buf[:n]
		h.Write(chunk)
		if valid {
			if !over && (budget < 0 || int64(len(kept)+n) <= budget) {
				kept = append(kept, chunk...)
			} else {
				over, kept = true, nil
			}
			pending = append(pending, chunk...)
			cut := len(pending)
			if rerr == nil {
				cut = search.HeadLen(pending) // an incomplete character the next chunk may complete
			}
			valid = utf8.Valid(pending[:cut])
			pending = append(pending[:0], pending[cut:]...)
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return nil, "", false, rerr
		}
	}
	sum = hex.EncodeToString(h.Sum(nil))
	if !valid {
		return nil, sum, false, nil
	}
	if kept == nil {
		kept = []byte{}
	}
	if over {
		kept = nil
	}
	return kept, sum, true, nil
}

// dirent is a folder entry as listed: its name and type (^fs.FileMode(0)
// when the file system did not report it), and when a probe looked it up
// by name (probeDirents) what that lstat found.
type dirent struct {
	name string
	typ  fs.FileMode
	info fs.FileInfo
}

// entry is one listed name of a folder.
type entry struct {
	name string
	dir  bool
	link bool        // a symbolic link (to a folder, when dir)
	info fs.FileInfo // for folders: the folder's own (followed) FileInfo
}

// dir lists folder p into the snapshot and returns its entries; it
// returns nil entries, with p recorded missing, when nothing is there.
func (a *answerer) dir(p string) ([]entry, error) {
	entries, err := a.v.list(p, nil)
	if err != nil || entries == nil {
		if err == nil {
			a.addMissing(p)
		}
		return nil, err
	}
	a.snap.Dirs[p] = names(entries)
	return entries, nil
}

func names(entries []entry) []string {
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		if e.dir {
			out = append(out, e.name+"/")
		} else {
			out = append(out, e.name)
		}
	}
	sort.Strings(out)
	return out
}

// list reads folder p: nil (and no error) when nothing exists there. With
// only (not nil), it reads only the entries of those names, found by name
// where the platform allows (probeDirents), else by listing p. The folder
// is opened once: each entry is looked at through that handle (lstatAt),
// never by a path from the vault's root; only a symbolic link is followed
// from the root, which keeps it inside the vault.
func (v *Vault) list(p string, only []string) ([]entry, error) {
	f, err := v.openDir(p)
	if f == nil || err != nil {
		return nil, err
	}
	defer f.Close()
	des, probed, err := []dirent(nil), false, error(nil)
	if only != nil {
		des, probed, err = v.probeDirents(f, p, only)
	}
	if !probed && err == nil {
		des, err = readDirents(f)
	}
	if err != nil {
		return nil, readErr(p, err)
	}
	sort.Slice(des, func(i, j int) bool { return des[i].name < des[j].name })
	stat := v.lookups().stat
	out := []entry{}
	for _, de := range des {
		name := de.name
		if strings.HasPrefix(name, ".") || plan.CheckPath(name) != nil {
			continue
		}
		full := join(p, name)
		typ := de.typ
		if typ == ^fs.FileMode(0) { // the file system did not say
			li, err := stat(f, p, name)
			if err != nil {
				continue // gone since the listing
			}
			typ = li.Mode().Type()
		}
		var info fs.FileInfo
		if typ&fs.ModeSymlink != 0 {
			if info, err = v.root.Stat(full); err != nil {
				continue // broken, or leads outside the vault
			}
		} else if typ.IsDir() {
			if info = de.info; info == nil {
				if info, err = stat(f, p, name); err != nil {
					continue // gone since the listing
				}
			}
		}
		switch {
		case info != nil && info.IsDir():
			out = append(out, entry{name: name, dir: true, link: typ&fs.ModeSymlink != 0, info: info})
		case info != nil && !info.Mode().IsRegular():
			continue
		case info == nil && !typ.IsRegular():
			continue
		default:
			out = append(out, entry{name: name})
		}
	}
	return out, nil
}

// openDir opens folder p: nil (and no error) when nothing exists there.
// On Linux it is one openat2 beneath the vault's handle (openDirBeneath);
// where that cannot decide, and elsewhere, a stat and an open through
// os.Root.
func (v *Vault) openDir(p string) (*os.File, error) {
	if f, ok := v.openDirBeneath(p); ok {
		return f, nil
	}
	info, err := v.root.Stat(p)
	if absentErr(err) {
		return nil, nil
	}
	if err != nil {
		return nil, readErr(p, err)
	}
	if !info.IsDir() {
		return nil, hostlogic.FileNotFolder(p)
	}
	f, err := v.root.Open(p)
	if err != nil {
		return nil, readErr(p, err)
	}
	return f, nil
}

// dirID is a file's identity: its device and inode.
type dirID struct{ dev, ino uint64 }

// dirSet is a set of folders by identity (os.SameFile).
type dirSet struct {
	ids   map[dirID]bool
	other []fs.FileInfo // where the platform gives no dirID
}

// add adds the folder info describes and reports whether it was new.
func (s *dirSet) add(info fs.FileInfo) bool {
	if id, ok := dirIDOf(info); ok {
		if s.ids[id] {
			return false
		}
		if s.ids == nil {
			s.ids = map[dirID]bool{}
		}
		s.ids[id] = true
		return true
	}
	if slices.ContainsFunc(s.other, func(o fs.FileInfo) bool { return os.SameFile(o, info) }) {
		return false
	}
	s.other = append(s.other, info)
	return true
}

// walkHook, when set (by tests), is called with each folder a tree walk lists.
var walkHook func(p string)

// tree answers a Tree need. It lists each real folder (a device and an
// inode) once, however many paths lead to it, so that links between
// folders cannot make the walk grow: first every folder reached without a
// link, then, in the order met, each link to a folder the walk has not
// listed yet, walked at the link's path the same way. A link to a folder
// already listed (an enclosing one, a sibling, another link's target) is
// left out of its folder's listing, so every listed sub-folder is listed
// itself and a note is read once. RATIONALE.md says why links are followed
// at all ("Why does a tree walk list each real folder once?").
func (a *answerer) tree(t vault.Tree) error {
	rootInfo, err := a.v.root.Stat(t.Root)
	if absentErr(err) {
		a.addMissing(t.Root)
		return nil
	}
	if err != nil {
		return readErr(t.Root, err)
	}
	w := &needWalk{a: a, content: t.Content, seen: &dirSet{}, listings: map[string][]entry{}}
	w.seen.add(rootInfo)
	if err := w.walk(t.Root); err != nil {
		return err
	}
	for i := 0; i < len(w.links); i++ { // walking a link may add links
		l := w.links[i]
		if w.seen.add(l.e.info) {
			if err := w.walk(join(l.parent, l.e.name)); err != nil {
				return err
			}
			continue
		}
		w.listings[l.parent] = slices.DeleteFunc(w.listings[l.parent], func(e entry) bool { return e.name == l.e.name })
	}
	for _, p := range w.order {
		a.snap.Dirs[p] = names(w.listings[p])
	}
	return a.files(w.files)
}

// needWalk is the state of the walk of one tree a need asks for
// (answerer.tree).
type needWalk struct {
	a        *answerer
	content  bool // the files' content is read too
	seen     *dirSet
	listings map[string][]entry
	order    []string   // listed folders, in walk order
	links    []treeLink // links to folders, in the order met
	// files are the files whose content is read once the tree is
	// walked, in walk order, by several workers (answerer.files): a
	// mem_check reads every note of the vault this way.
	files []string
}

// treeLink is a link to a folder met in the walk: its folder and entry.
type treeLink struct {
	parent string
	e      entry
}

// walk lists folder p and, through them, its sub-folders that are no
// links (those are kept for later in w.links), reading the files when
// the tree asks for their content.
func (w *needWalk) walk(p string) error {
	a := w.a
	if err := a.live(p); err != nil {
		return err
	}
	if walkHook != nil {
		walkHook(p)
	}
	entries, err := a.v.list(p, nil)
	if err != nil {
		return err
	}
	if entries == nil { // removed while we walk: say so
		a.addMissing(p)
		return nil
	}
	entries = slices.DeleteFunc(entries, func(e entry) bool {
		switch {
		case !e.dir:
			return false
		case e.link:
			w.links = append(w.links, treeLink{p, e})
			return false // decided once every real folder is listed
		default:
			return !w.seen.add(e.info) // a bind mount of a folder listed
		}
	})
	w.listings[p] = entries
	w.order = append(w.order, p)
	for _, e := range entries {
		full := join(p, e.name)
		switch {
		case e.dir && !e.link:
			if err := w.walk(full); err != nil {
				return err
			}
		case !e.dir && w.content:
			w.files = append(w.files, full)
		}
	}
	return nil
}
