package vaultfs

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"kessho/core/search"
	"kessho/core/vault"
)

// Where mem_search's index is kept: a cache the core rebuilds whenever it
// is missing, stale, foreign or damaged (its encoding is versioned and
// checksummed), never a note, never journalled.
const (
	indexDir  = ".kessho/index"
	indexFile = ".kessho/index/search.idx"
	indexTemp = ".kessho/index/search.idx.tmp"
)

// SearchCarry returns what the core needs to bring the search index up to
// date: every note's version, "size:mtime" (nanoseconds), from one walk of
// the vault that lists folders as a tree need does (dot-folders left out,
// links to folders followed once), and the index stored last. It returns
// nil when the vault cannot be walked: the core then asks for the notes
// itself.
func (v *Vault) SearchCarry(ctx context.Context) *search.Carry {
	var snap vault.Snapshot
	if err := v.AnswerContext(ctx, vault.Need{Trees: []vault.Tree{{Root: "."}}}, &snap, 0); err != nil {
		return nil
	}
	notes := map[string]string{}
	var walk func(dir string)
	walk = func(dir string) {
		for _, e := range snap.Dirs[dir] {
			p := vault.Join(dir, strings.TrimSuffix(e, "/"))
			switch {
			case strings.HasSuffix(e, "/"):
				walk(p)
			case search.IsNote(p):
				if info, err := v.root.Stat(p); err == nil && info.Mode().IsRegular() {
					notes[p] = fmt.Sprintf("%d:%d", info.Size(), info.ModTime().UnixNano())
				}
			}
		}
	}
	walk(".")
	data, err := fs.ReadFile(v.root.FS(), indexFile)
	if err != nil {
		data = nil
	}
	return &search.Carry{Index: data, Notes: notes}
}

// StoreIndex replaces the stored index with data: written beside it, then
// renamed over it, so a reader sees the old index or the new one. It is
// not fsynced: after a crash a torn index fails its checksum and the core
// rebuilds it.
func (v *Vault) StoreIndex(data []byte) error {
	if err := v.root.MkdirAll(indexDir, 0o755); err != nil {
		return err
	}
	f, err := v.root.OpenFile(indexTemp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = v.root.Rename(indexTemp, indexFile)
	}
	if err != nil {
		v.root.Remove(indexTemp)
	}
	return err
}
