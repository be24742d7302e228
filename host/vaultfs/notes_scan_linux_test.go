//go:build linux

package vaultfs

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// scanVault makes a vault with every kind of entry a listing of notes
// must tell apart: notes at every depth, dot-folders holding notes, files
// that are no notes, a name no path may hold, an empty folder, a named
// pipe called like a note.
func scanVault(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{
		"root.md":                           "r",
		"10-episodes/projects/a/context.md": "a",
		"10-episodes/projects/a/archives/2026-01-01-10h00-a-one.md": "one",
		"10-episodes/projects/b/context.md":                         "bb",
		"20-knowledge/deep/er/still/note.md":                        "deep",
		"20-knowledge/image.png":                                    "png",
		"20-knowledge/notes.md.txt":                                 "txt",
		"20-knowledge/.hidden/secret.md":                            "hidden",
		".obsidian/workspace.md":                                    "obsidian",
		".kessho/index/x.md":                                        "kessho",
		"20-knowledge/bad:name.md":                                  "colon",
		"20-knowledge/bad:folder/in.md":                             "in a bad folder",
	})
	if err := os.MkdirAll(filepath.Join(dir, "30-principles", "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(filepath.Join(dir, "20-knowledge", "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// treeWalk is the listing as a tree need gives it (the walk every
// platform has): what the one-pass scan must give.
func treeWalk(t *testing.T, dir string) (map[string]string, string, []string) {
	t.Helper()
	v := openVault(t, dir)
	notes, listing, dirs, _, ok := v.walkTree(context.Background())
	if !ok {
		t.Fatal("the tree walk failed")
	}
	slices.Sort(dirs)
	return notes, listing, dirs
}

// TestScanNotesAsTreeWalk: the one-pass scan lists exactly the notes, the
// versions, the digest and the folders the tree walk does (dot-folders,
// names no path may hold, non-notes and a pipe left out), and a hand edit
// shows in the next fresh process's listing.
func TestScanNotesAsTreeWalk(t *testing.T) {
	dir := scanVault(t)
	check := func(step string) map[string]string {
		t.Helper()
		want, wantListing, wantDirs := treeWalk(t, dir)
		v := openVault(t, dir)
		notes, listing, dirs, ok := v.scanNotes(context.Background())
		if !ok {
			t.Fatalf("%s: the scan gave up on a vault without links", step)
		}
		slices.Sort(dirs)
		if !maps.Equal(notes, want) || listing != wantListing || !slices.Equal(dirs, wantDirs) {
			t.Fatalf("%s: scan %v %s %q\ntree walk %v %s %q", step, notes, listing, dirs, want, wantListing, wantDirs)
		}
		return notes
	}
	before := check("first")
	if len(before) != 5 {
		t.Fatalf("%d notes, want 5: %v", len(before), before)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "20-knowledge", "deep", "er", "still", "note.md"), later, later); err != nil {
		t.Fatal(err)
	}
	makeTree(t, dir, map[string]string{"10-episodes/projects/b/context.md": "b, longer"})
	after := check("after hand edits")
	for _, p := range []string{"20-knowledge/deep/er/still/note.md", "10-episodes/projects/b/context.md"} {
		if after[p] == before[p] {
			t.Errorf("%s: version %s unchanged after a hand edit", p, after[p])
		}
	}
}

// TestScanNotesLeavesLinksToTheTreeWalk: a vault holding a symbolic link
// (to a note or to a folder) is not scanned in one pass; SearchNotes then
// lists it as the tree walk does: a linked note followed, a folder listed
// once (here under its real path).
func TestScanNotesLeavesLinksToTheTreeWalk(t *testing.T) {
	for _, link := range []struct {
		target, name string
		notes        int
	}{
		{"../20-knowledge/deep", "10-episodes/linked", 5},
		{"../root.md", "20-knowledge/link.md", 6},
	} {
		dir := scanVault(t)
		if err := os.Symlink(link.target, filepath.Join(dir, filepath.FromSlash(link.name))); err != nil {
			t.Fatal(err)
		}
		v := openVault(t, dir)
		if _, _, _, ok := v.scanNotes(context.Background()); ok {
			t.Errorf("%s: the scan listed a vault with a link", link.name)
		}
		want, wantListing, _ := treeWalk(t, dir)
		notes, listing, ok := v.SearchNotes(context.Background())
		if !ok || !maps.Equal(notes, want) || listing != wantListing {
			t.Errorf("%s: SearchNotes %v, the tree walk %v", link.name, notes, want)
		}
		if len(want) != link.notes {
			t.Errorf("%s: %d notes, want %d: %v", link.name, len(want), link.notes, want)
		}
	}
}

// interruptStats makes every other fstatat fail with EINTR, as a signal
// arriving during the call does, for the rest of the test.
func interruptStats(t *testing.T) {
	var mu sync.Mutex
	n := 0
	fstatat = func(fd int, path string, st *unix.Stat_t, flags int) error {
		mu.Lock()
		n++
		odd := n%2 == 1
		mu.Unlock()
		if odd {
			return syscall.EINTR
		}
		return unix.Fstatat(fd, path, st, flags)
	}
	t.Cleanup(func() { fstatat = unix.Fstatat })
}

// TestSearchNotesInterruptedStats: a stat interrupted by a signal (EINTR)
// is made again, never taken for a missing note, in the one-pass scan
// and in the per-folder stats of the tree walk.
func TestSearchNotesInterruptedStats(t *testing.T) {
	dir := scanVault(t)
	want, wantListing, _ := treeWalk(t, dir)
	interruptStats(t)
	v := openVault(t, dir)
	notes, listing, _, ok := v.scanNotes(context.Background())
	if !ok || !maps.Equal(notes, want) || listing != wantListing {
		t.Errorf("scan with interrupted stats: %v (ok %v), want %v", notes, ok, want)
	}
	found, _ := v.statNotes("10-episodes/projects/a", []string{"context.md"}, nil)
	if len(found) != 1 || found[0].version != want["10-episodes/projects/a/context.md"] {
		t.Errorf("statNotes with interrupted stats: %v", found)
	}
}
