package vaultfs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

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
func (v *Vault) SearchNotes(ctx context.Context) (notes map[string]string, listing string, ok bool) {
	var snap vault.Snapshot
	if err := v.AnswerContext(ctx, vault.Need{Trees: []vault.Tree{{Root: "."}}}, &snap, 0); err != nil {
		return nil, "", false
	}
	notes = map[string]string{}
	for dir, entries := range snap.Dirs {
		var names []string
		for _, e := range entries {
			if !strings.HasSuffix(e, "/") && search.IsNote(vault.Join(dir, e)) {
				names = append(names, e)
			}
		}
		if len(names) > 0 {
			v.statNotes(dir, names, notes)
		}
	}
	h := sha256.New()
	for _, p := range slices.Sorted(mapKeys(notes)) {
		fmt.Fprintf(h, "%s\x00%s\n", p, notes[p])
	}
	return notes, hex.EncodeToString(h.Sum(nil)), true
}

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// version is a note's version: its size and mtime.
func version(info fs.FileInfo) string { return versionOf(info.Size(), info.ModTime().UnixNano()) }

func versionOf(size, mtimeNs int64) string { return fmt.Sprintf("%d:%d", size, mtimeNs) }

// statNotesAt is the portable statNotes: one Root.Stat a note.
func (v *Vault) statNotesAt(dir string, names []string, into map[string]string) {
	for _, n := range names {
		p := path.Join(dir, n)
		if info, err := v.root.Stat(p); err == nil && info.Mode().IsRegular() {
			into[p] = version(info)
		}
	}
}

// IndexID returns the id of the stored index ("" when none).
func (v *Vault) IndexID() string {
	b, err := fs.ReadFile(v.root.FS(), indexIDFile)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// LoadIndex returns the stored index's bytes (nil when none).
func (v *Vault) LoadIndex() []byte {
	b, err := fs.ReadFile(v.root.FS(), indexFile)
	if err != nil {
		return nil
	}
	return b
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
