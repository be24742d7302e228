//go:build unix

package vaultfs

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/kessho/kessho/core/search"
)

// notesTree is a vault of notes a planted link may lead to.
var notesTree = map[string]string{
	"10-episodes/projects/a/context.md": "context of a",
	"10-episodes/projects/b/context.md": "context of b",
	"20-knowledge/fact.md":              "a fact",
}

// plant makes a symbolic link at the vault path p to the vault path to.
func plant(t *testing.T, dir, p, to string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(filepath.Dir(full), filepath.Join(dir, filepath.FromSlash(to)))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(rel, full); err != nil {
		t.Fatal(err)
	}
}

// TestStoreIndexNeverWritesThroughALink: links planted at the index's
// files, at the temporary names earlier versions wrote and at random
// temporary names leave the notes they lead to as they were; the index is
// stored as regular files, and the links are gone.
func TestStoreIndexNeverWritesThroughALink(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, notesTree)
	plant(t, dir, ".kessho/index/search.idx.tmp", "10-episodes/projects/a/context.md")
	plant(t, dir, ".kessho/index/search.id.tmp", "10-episodes/projects/b/context.md")
	plant(t, dir, ".kessho/index/search.idx", "20-knowledge/fact.md")
	before := readTree(t, dir)
	v := openVault(t, dir)
	data := testIndex(10)
	if err := v.StoreIndex(data, "id-1"); err != nil {
		t.Fatal(err)
	}
	if d := diffTree(readTree(t, dir), before); d != "" {
		t.Fatalf("storing the index changed the vault:\n%s", d)
	}
	for _, name := range []string{indexName, indexIDName} {
		info, err := os.Lstat(filepath.Join(dir, ".kessho", "index", name))
		if err != nil || !info.Mode().IsRegular() {
			t.Errorf("%s: %v, %v; want a regular file", name, info, err)
		}
	}
	if got := v.LoadIndex(nil, search.MaxIndexBytes); string(got) != string(data) {
		t.Errorf("loaded %d bytes, want the %d stored", len(got), len(data))
	}
}

// TestIndexFolderThatIsALink: a .kessho/index that is a link to a folder
// of notes, or a file, is neither read nor written: the index is not
// stored (an error naming it), IndexUnkept names it, and an index in the
// folder it leads to is not loaded.
func TestIndexFolderThatIsALink(t *testing.T) {
	for name, make := range map[string]func(t *testing.T, dir string){
		"link": func(t *testing.T, dir string) { plant(t, dir, ".kessho/index", "20-knowledge") },
		"file": func(t *testing.T, dir string) { makeTree(t, dir, map[string]string{".kessho/index": "x"}) },
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			makeTree(t, dir, notesTree)
			if err := os.WriteFile(filepath.Join(dir, "20-knowledge", "search.idx"), testIndex(3), 0o644); err != nil {
				t.Fatal(err)
			}
			make(t, dir)
			before := readTree(t, dir)
			v := openVault(t, dir)
			if got := v.IndexUnkept(); got != indexDir {
				t.Errorf("IndexUnkept = %q, want %q", got, indexDir)
			}
			if got := v.LoadIndex(nil, search.MaxIndexBytes); len(got) != 0 {
				t.Errorf("loaded %d bytes through %s", len(got), indexDir)
			}
			err := v.StoreIndex(testIndex(5), "id-1")
			if err == nil || !strings.Contains(err.Error(), indexDir) {
				t.Errorf("StoreIndex: %v; want an error naming %s", err, indexDir)
			}
			if d := diffTree(readTree(t, dir), before); d != "" {
				t.Errorf("the vault changed:\n%s", d)
			}
		})
	}
	dir := t.TempDir()
	makeTree(t, dir, notesTree)
	plant(t, dir, ".kessho", "20-knowledge")
	if got := openVault(t, dir).IndexUnkept(); got != stateDir {
		t.Errorf(".kessho a link: IndexUnkept = %q, want %q", got, stateDir)
	}
}

// TestLoadIndexOnlyRegularBounded: a pipe at search.idx is not opened (a
// search would wait for a writer forever), nor a file larger than the
// bound, nor one whose header names another length: LoadIndex gives
// nothing, and reads nothing of the file.
func TestLoadIndexOnlyRegularBounded(t *testing.T) {
	dir := t.TempDir()
	v := openVault(t, dir)
	data := testIndex(50)
	if err := v.StoreIndex(data, "id"); err != nil {
		t.Fatal(err)
	}
	idx := filepath.Join(dir, ".kessho", "index", indexName)
	if got := v.LoadIndex(nil, int64(len(data))-1); len(got) != 0 {
		t.Errorf("bound one byte short of the index: loaded %d bytes", len(got))
	}
	if got := v.LoadIndex(nil, int64(len(data))); len(got) != len(data) {
		t.Errorf("bound the index's size: loaded %d bytes, want %d", len(got), len(data))
	}
	if err := os.WriteFile(idx, append(data, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := v.LoadIndex(nil, search.MaxIndexBytes); len(got) != 0 {
		t.Errorf("a file one byte longer than its header says: loaded %d bytes", len(got))
	}
	os.Remove(idx)
	if err := syscall.Mkfifo(idx, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := v.LoadIndex(nil, search.MaxIndexBytes); len(got) != 0 {
		t.Errorf("a pipe: loaded %d bytes", len(got))
	}
	os.Remove(idx)
	f, err := os.Create(idx)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(1 << 30) // sparse: 1 GiB that costs no disk
	f.Close()
	if got := v.LoadIndex(nil, search.IndexBound(map[string]string{"a.md": "10:1"})); len(got) != 0 {
		t.Errorf("1 GiB: loaded %d bytes", len(got))
	}
}
