package vaultfs

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/kessho/kessho/core/search"
)

// TestSearchNotesKeepsListingUntilAChange: from its second search, a Vault
// keeps the notes' listing while nothing changed (no walk), and every kind
// of hand edit — a note rewritten, touched, created in a new folder,
// removed, renamed, a folder removed — shows in the very next listing,
// exactly as a fresh walk gives it.
func TestSearchNotesKeepsListingUntilAChange(t *testing.T) {
	dir := t.TempDir()
	write := func(p, text string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("20-knowledge/a.md", "a")
	write("20-knowledge/deep/b.md", "b")
	write("c.md", "c")
	v, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	// check compares the listing with a fresh walk's, and whether it
	// walked with want (0 no, 1 yes, -1 either).
	check := func(step string, want int) {
		t.Helper()
		walks := v.notes.walks
		got, listing, ok := v.SearchNotes(context.Background())
		fresh, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer fresh.Close()
		walk, walkListing, _ := fresh.SearchNotes(context.Background())
		if !ok || !maps.Equal(got, walk) || listing != walkListing {
			t.Fatalf("%s: listing %v, a fresh walk gives %v", step, got, walk)
		}
		if walked := v.notes.walks > walks; want >= 0 && walked != (want == 1) {
			t.Errorf("%s: walked %v, want %v", step, walked, want == 1)
		}
	}
	// Kept (no walk) on Linux, walked elsewhere.
	unchanged := 0
	if runtime.GOOS != "linux" {
		unchanged = 1
	}
	check("first", 1)
	check("second", 1)
	check("unchanged", unchanged)
	check("unchanged again", unchanged)
	later := time.Now().Add(time.Hour)
	for _, edit := range []struct {
		name string
		do   func()
	}{
		{"rewritten", func() { write("20-knowledge/deep/b.md", "b, longer") }},
		{"touched", func() { os.Chtimes(filepath.Join(dir, "c.md"), later, later) }},
		{"created in a new folder", func() { write("20-knowledge/new/d.md", "d") }},
		{"created in that folder", func() { write("20-knowledge/new/e.md", "e") }},
		{"removed", func() { os.Remove(filepath.Join(dir, "20-knowledge", "a.md")) }},
		{"renamed", func() {
			os.Rename(filepath.Join(dir, "20-knowledge", "new", "e.md"), filepath.Join(dir, "20-knowledge", "deep", "e.md"))
		}},
		{"folder removed", func() { os.RemoveAll(filepath.Join(dir, "20-knowledge", "new")) }},
		{"folder made again", func() { write("20-knowledge/new/f.md", "f") }},
	} {
		edit.do()
		check(edit.name, 1)
		check(edit.name+", then unchanged", -1) // a new folder is watched from this walk on
		check(edit.name+", still unchanged", unchanged)
	}
}

// TestLoadIndexAppends: the stored index is read whole after what the
// caller holds (a request's JSON and its separator); without an index,
// what the caller holds comes back as it was.
func TestLoadIndexAppends(t *testing.T) {
	v := openVault(t, t.TempDir())
	prefix := []byte(`{"tool":"mem_search"}` + "\x00")
	if got := v.LoadIndex(prefix, search.MaxIndexBytes); string(got) != string(prefix) {
		t.Fatalf("no index: %q, want the prefix alone", got)
	}
	data := testIndex(3000) // over one read's growth
	if err := v.StoreIndex(data, "id-1"); err != nil {
		t.Fatal(err)
	}
	got := v.LoadIndex(prefix, search.MaxIndexBytes)
	if string(got[:len(prefix)]) != string(prefix) || string(got[len(prefix):]) != string(data) {
		t.Fatalf("got %d bytes, want the prefix then the %d bytes stored", len(got), len(data))
	}
	if id := v.IndexID(); id != "id-1" {
		t.Errorf("id %q", id)
	}
}

// testIndex is the encoding of an index of n small notes.
func testIndex(n int) []byte {
	return testNotes(n).EncodeRoom(0)
}

func testNotes(n int) *search.Index {
	x := search.New()
	for i := range n {
		text := fmt.Sprintf("note %d about topic%d and word%d", i, i%7, i)
		x.Put(search.ParseNote(fmt.Sprintf("20-knowledge/n%05d.md", i), fmt.Sprintf("%d:1", len(text)), &text))
	}
	return x
}

// testSegments is the base of the index of n small notes (as
// search.Index.Hand hands it back whole) and a delta of it: one note
// changed, one removed.
func testSegments(n int) (base, delta []byte) {
	x := testNotes(n)
	base, _ = x.Hand(0, true)
	text := "note 3 rewritten"
	x.Put(search.ParseNote("20-knowledge/n00003.md", "16:2", &text))
	x.Remove("20-knowledge/n00004.md")
	delta, _ = x.Hand(0, true)
	return base, delta
}
