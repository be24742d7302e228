package vaultfs

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"kessho/core/fault"
	"kessho/core/plan"
	"kessho/core/vault"
)

// Answer reads what need asks for and adds it to snap.
//
//   - A file goes into snap.Files with the SHA-256 (hex) of its exact bytes
//     and, when they are valid UTF-8, its text; otherwise NotUTF8 is set.
//   - A folder goes into snap.Dirs: its entries sorted, sub-folders with a
//     trailing "/". Entries Kessho can never touch are left out: names
//     starting with "." and names [plan.CheckPath] refuses (a backslash, a
//     colon, invalid UTF-8), symbolic links that are broken or lead outside
//     the vault, and anything that is neither a file nor a folder.
//   - A tree lists its root and every folder under it in snap.Dirs and,
//     with Content, reads every file under it into snap.Files. A symbolic
//     link back to a folder the walk is inside is left out (no cycles).
//   - A path where nothing exists goes into snap.Missing (sorted).
//
// Folders and tree roots may be "." (the vault's root); every other path
// must pass plan.CheckPath, or Answer refuses the whole need with INTERNAL
// (the module asked for what it never may) before reading anything.
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
func (v *Vault) Answer(need vault.Need, snap *vault.Snapshot, maxBytes int64) error {
	for _, p := range need.Files {
		if err := checkNeed(p, false); err != nil {
			return err
		}
	}
	for _, p := range need.Dirs {
		if err := checkNeed(p, true); err != nil {
			return err
		}
	}
	for _, t := range need.Trees {
		if err := checkNeed(t.Root, true); err != nil {
			return err
		}
	}
	for _, m := range need.Matches {
		if err := checkNeed(m.Dir, true); err != nil {
			return err
		}
	}

	a := answerer{v: v, snap: snap, max: maxBytes, missing: map[string]bool{}}
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

	for _, p := range need.Files {
		if err := a.file(p); err != nil {
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
	entries, err := a.v.list(m.Dir)
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

// checkNeed refuses a path the module may not ask for.
func checkNeed(p string, folder bool) error {
	if folder && p == "." {
		return nil
	}
	if err := plan.CheckPath(p); err != nil {
		return fault.New(fault.Internal, map[string]any{"path": p},
			fmt.Sprintf("internal error: the module asked to read a path Kessho never reads: %v", err),
			fmt.Sprintf("erreur interne : le module a demandé un chemin que Kessho ne lit jamais : %v", err))
	}
	return nil
}

// answerer carries one Answer's state.
type answerer struct {
	v       *Vault
	snap    *vault.Snapshot
	max     int64
	used    int64 // bytes of text in snap.Files
	missing map[string]bool
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
	info, err := a.v.root.Stat(p)
	if absentErr(err) {
		a.addMissing(p)
		return nil
	}
	if err != nil {
		return readErr(p, err)
	}
	if err := wantFile(p, info); err != nil {
		return err
	}
	f, err := a.v.root.Open(p)
	if err != nil {
		return readErr(p, err)
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return readErr(p, err)
	}
	if err := wantFile(p, info); err != nil { // replaced since the Stat
		return err
	}
	budget := int64(-1)
	if a.max > 0 {
		budget = a.max - a.used
	}
	text, sum, isText, err := readCapped(f, budget)
	if err != nil {
		return readErr(p, err)
	}
	if isText && text == nil {
		return fault.New(fault.LimitExceeded, map[string]any{"path": p, "max_bytes": a.max},
			fmt.Sprintf("reading %s would take the call over its bound of %d bytes of file text; ask for less of the vault or raise the host's bound", p, a.max),
			fmt.Sprintf("lire %s dépasserait la limite de %d octets de texte de l'appel ; demandez moins du coffre ou relevez la limite de l'hôte", p, a.max))
	}
	file := vault.File{SHA256: sum}
	if isText {
		s := string(text)
		file.Text = &s
		a.used += int64(len(text))
	} else {
		file.NotUTF8 = true
	}
	a.snap.Files[p] = file
	return nil
}

// wantFile refuses anything but a regular file at p.
func wantFile(p string, info fs.FileInfo) error {
	if info.IsDir() {
		return conflict(p,
			p+" is a folder where Kessho expects a file; rename or move the folder, then run the call again",
			p+" est un dossier là où Kessho attend un fichier ; renommez ou déplacez le dossier, puis relancez l'appel")
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
				cut = completeRunes(pending)
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

// completeRunes returns the length of b without a trailing incomplete
// (but possibly valid) UTF-8 sequence, which the next chunk may complete.
func completeRunes(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}

// entry is one listed name of a folder.
// dirent is a folder entry as listed: its name and type (^fs.FileMode(0)
// when the file system did not report it).
type dirent struct {
	name string
	typ  fs.FileMode
}

type entry struct {
	name string
	dir  bool
	info fs.FileInfo // for folders: the folder's own (followed) FileInfo
}

// dir lists folder p into the snapshot and returns its entries; it
// returns nil entries, with p recorded missing, when nothing is there.
func (a *answerer) dir(p string) ([]entry, error) {
	entries, err := a.v.list(p)
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

// list reads folder p: nil (and no error) when nothing exists there.
func (v *Vault) list(p string) ([]entry, error) {
	info, err := v.root.Stat(p)
	if absentErr(err) {
		return nil, nil
	}
	if err != nil {
		return nil, readErr(p, err)
	}
	if !info.IsDir() {
		return nil, conflict(p,
			p+" is a file where Kessho expects a folder; rename or move the file, then run the call again",
			p+" est un fichier là où Kessho attend un dossier ; renommez ou déplacez le fichier, puis relancez l'appel")
	}
	f, err := v.root.Open(p)
	if err != nil {
		return nil, readErr(p, err)
	}
	defer f.Close()
	des, err := readDirents(f)
	if err != nil {
		return nil, readErr(p, err)
	}
	sort.Slice(des, func(i, j int) bool { return des[i].name < des[j].name })
	out := []entry{}
	for _, de := range des {
		name := de.name
		if strings.HasPrefix(name, ".") || plan.CheckPath(name) != nil {
			continue
		}
		full := join(p, name)
		typ := de.typ
		if typ == ^fs.FileMode(0) { // the file system did not say
			li, err := v.root.Lstat(full)
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
			if info, err = v.root.Lstat(full); err != nil {
				continue // gone since the listing
			}
		}
		switch {
		case info != nil && info.IsDir():
			out = append(out, entry{name: name, dir: true, info: info})
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

// tree answers a Tree need.
func (a *answerer) tree(t vault.Tree) error {
	rootInfo, err := a.v.root.Stat(t.Root)
	if absentErr(err) {
		a.addMissing(t.Root)
		return nil
	}
	if err != nil {
		return readErr(t.Root, err)
	}
	var walk func(p string, ancestors []fs.FileInfo) error
	walk = func(p string, ancestors []fs.FileInfo) error {
		entries, err := a.v.list(p)
		if err != nil {
			return err
		}
		if entries == nil { // removed while we walk: say so
			a.addMissing(p)
			return nil
		}
		entries = slices.DeleteFunc(entries, func(e entry) bool {
			return e.dir && slices.ContainsFunc(ancestors, func(anc fs.FileInfo) bool { return os.SameFile(anc, e.info) })
		})
		a.snap.Dirs[p] = names(entries)
		for _, e := range entries {
			full := join(p, e.name)
			if e.dir {
				if err := walk(full, append(ancestors, e.info)); err != nil {
					return err
				}
			} else if t.Content {
				if err := a.file(full); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(t.Root, []fs.FileInfo{rootInfo})
}
