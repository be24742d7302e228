//go:build unix

package vaultfs

import (
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"

	"github.com/kessho/kessho/core/vault"
)

// TestMatchByName: a match of plain names, which the host answers by
// looking the names up in the folder rather than listing it, selects
// exactly what the listing would: files, folders and links to folders
// inside the vault, not broken links nor links out, dot-names, special
// files, names that are not there.
func TestMatchByName(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	makeTree(t, dir, map[string]string{"p/a.md": "a", "p/sub/x.md": "x", "p/.hidden": "h"})
	for link, target := range map[string]string{
		"p/to-sub":  "sub",
		"p/to-a.md": "a.md",
		"p/broken":  "nowhere",
		"p/out":     outside,
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "p", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	v := openVault(t, dir)
	var listed vault.Snapshot
	if err := v.answer(vault.Need{Dirs: []string{"p"}}, &listed, 0); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.md", "sub", "to-sub", "to-a.md", "broken", "out", ".hidden", "fifo", "absent", "A.md"} {
		m := vault.Match{Dir: "p", Patterns: []string{name}}
		var snap vault.Snapshot
		if err := v.answer(vault.Need{Matches: []vault.Match{m}}, &snap, 0); err != nil {
			t.Fatalf("match %s: %v", name, err)
		}
		want, err := vault.NewView(listed).Match(m)
		if err != nil {
			t.Fatal(err)
		}
		if got := snap.Matches[m.Key()]; !reflect.DeepEqual(got, nonNilNames(want)) {
			t.Errorf("match %s by name = %q; the listing selects %q", name, got, want)
		}
	}
	var snap vault.Snapshot
	m := vault.Match{Dir: "nowhere", Patterns: []string{"x"}}
	if err := v.answer(vault.Need{Matches: []vault.Match{m}}, &snap, 0); err != nil || !reflect.DeepEqual(snap.Missing, []string{"nowhere"}) {
		t.Errorf("match in a missing folder: %v, missing %q", err, snap.Missing)
	}
}

func nonNilNames(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
