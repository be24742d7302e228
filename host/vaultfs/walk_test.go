//go:build unix

package vaultfs

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/internal/enginetest"
)

// linkChain makes, under dir/20-knowledge, the folders d00…d24, each
// holding a note, and in each of d00…d23 two relative links, a and b, to
// its next sibling: 48 links through which d24 is reached by 2^24 paths.
// It returns the real folders of the vault, "." included.
func linkChain(t *testing.T, dir string) []string {
	t.Helper()
	const n = 25
	files := map[string]string{}
	real := []string{".", "20-knowledge"}
	for i := 0; i < n; i++ {
		d := fmt.Sprintf("20-knowledge/d%02d", i)
		files[fmt.Sprintf("%s/Note %02d.md", d, i)] = fmt.Sprintf("Note %d.\n", i)
		real = append(real, d)
	}
	makeTree(t, dir, files)
	for i := 0; i+1 < n; i++ {
		for _, name := range []string{"a", "b"} {
			link := filepath.Join(dir, fmt.Sprintf("20-knowledge/d%02d/%s", i, name))
			if err := os.Symlink(fmt.Sprintf("../d%02d", i+1), link); err != nil {
				t.Fatal(err)
			}
		}
	}
	return real
}

// countWalks counts, for the rest of the test, how many times the tree
// walk lists each real folder (by device and inode), and fails the test
// as soon as one is listed a second time: the old walk listed d24 2^24
// times.
func countWalks(t *testing.T, dir string) map[string]int {
	t.Helper()
	listed := map[string]int{} // "dev:ino" → listings
	walkHook = func(p string) {
		st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatalf("the walk listed %s: %v", p, err)
		}
		sys := st.Sys().(*syscall.Stat_t)
		key := fmt.Sprintf("%d:%d", sys.Dev, sys.Ino)
		listed[key]++
		if listed[key] > 1 {
			t.Fatalf("the walk listed the folder of %s %d times", p, listed[key])
		}
	}
	t.Cleanup(func() { walkHook = nil })
	return listed
}

// TestWalkSiblingLinks: a vault whose folders link to their siblings
// (48 relative links, 2^24 paths) answers an archive call, which walks
// the whole vault, listing each real folder once, and still finds every
// note.
func TestWalkSiblingLinks(t *testing.T) {
	for name, eng := range enginetest.Both(t) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			makeTree(t, dir, map[string]string{
				"10-episodes/projects/alpha/context.md": "---\nkind: project\nphase: build\n---\n# Alpha\n",
				"10-episodes/projects/alpha/history.md": "# History\n",
			})
			real := linkChain(t, dir)
			real = append(real, "10-episodes", "10-episodes/projects", "10-episodes/projects/alpha")
			listed := countWalks(t, dir)
			v := openVault(t, dir)

			args := `{"slug":"alpha","mode":"full","archive_subject":"Links","archive_body_md":"See [[Note 24]], [[Note 00]] and [[Nowhere note]].\n","no_derived_because":"test"}`
			out, err := call.Run(context.Background(), v, eng, "mem_archive", json.RawMessage(args),
				call.Options{Now: time.Date(2026, 11, 30, 9, 15, 0, 0, time.UTC), TZ: "Europe/Paris"})
			if err != nil {
				t.Fatal(err)
			}
			var ans struct {
				OK     bool
				Result struct{ Warnings []string }
			}
			if err := json.Unmarshal(out.Answer, &ans); err != nil || !ans.OK {
				t.Fatalf("answer %s (%v); want ok", out.Answer, err)
			}
			// Notes under linked folders are found (no warning), a note
			// nowhere is reported.
			if want := []string{"[[Nowhere note]] links to no note of the vault"}; !reflect.DeepEqual(ans.Result.Warnings, want) {
				t.Errorf("warnings %q; want %q", ans.Result.Warnings, want)
			}
			// Every real folder listed, once; the archive folder is new.
			if len(listed) != len(real) {
				t.Errorf("the walk listed %d folders; the vault has %d (%q)", len(listed), len(real), real)
			}
		})
	}
}

// TestWalkLinksOnce: what a tree lists when folders are reached through
// links. Each real folder is listed once, at its real path when the tree
// holds it; a link to a folder listed elsewhere in the tree is left out,
// and a link to a folder outside the tree (but inside the vault) is
// followed once.
func TestWalkLinksOnce(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	makeTree(t, dir, map[string]string{
		"notes/a/x.md":      "X",
		"notes/b/y.md":      "Y",
		"shared/s.md":       "S",
		"shared/deep/d.md":  "D",
		".hidden/h.md":      "H",
		"other/o.md":        "O",
		"other/deep/od.md":  "OD",
		"zz-elsewhere/z.md": "Z",
	})
	makeTree(t, outside, map[string]string{"secret.md": "SECRET"})
	for link, target := range map[string]string{
		"notes/a/to-b":      "../b",           // a sibling, listed at its real path
		"notes/a/0-first":   "../b",           // sorts before b: still left out
		"notes/b/up":        "..",             // a loop
		"notes/b/out":       outside,          // outside the vault
		"notes/shared":      "../shared",      // outside the tree "notes": followed
		"notes/shared-2":    "../shared",      // the same folder again: left out
		"notes/deep-first":  "../shared/deep", // under a folder reached later: walked here
		"notes/hidden":      "../.hidden",
		"notes/b/elsewhere": "../../zz-elsewhere",
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	v := openVault(t, dir)

	var snap vault.Snapshot
	if err := v.answer(vault.Need{Trees: []vault.Tree{{Root: "notes", Content: true}}}, &snap, 0); err != nil {
		t.Fatal(err)
	}
	wantDirs := map[string][]string{
		"notes":             {"a/", "b/", "deep-first/", "hidden/", "shared/"},
		"notes/a":           {"x.md"},
		"notes/b":           {"elsewhere/", "y.md"},
		"notes/b/elsewhere": {"z.md"},
		"notes/deep-first":  {"d.md"},
		"notes/hidden":      {"h.md"},
		"notes/shared":      {"s.md"},
	}
	if !reflect.DeepEqual(snap.Dirs, wantDirs) {
		t.Errorf("Dirs = %q;\nwant %q", snap.Dirs, wantDirs)
	}
	var files []string
	for p := range snap.Files {
		files = append(files, p)
	}
	want := []string{"notes/a/x.md", "notes/b/y.md", "notes/b/elsewhere/z.md", "notes/deep-first/d.md", "notes/hidden/h.md", "notes/shared/s.md"}
	if !sameSet(files, want) {
		t.Errorf("Files = %q; want %q", files, want)
	}

	// The whole vault: every folder at its real path, no link followed
	// but the one to the hidden folder, which only a link reaches.
	snap = vault.Snapshot{}
	if err := v.answer(vault.Need{Trees: []vault.Tree{{Root: "."}}}, &snap, 0); err != nil {
		t.Fatal(err)
	}
	wantDirs = map[string][]string{
		".":            {"notes/", "other/", "shared/", "zz-elsewhere/"},
		"notes":        {"a/", "b/", "hidden/"},
		"notes/a":      {"x.md"},
		"notes/b":      {"y.md"},
		"notes/hidden": {"h.md"},
		"other":        {"deep/", "o.md"},
		"other/deep":   {"od.md"},
		"shared":       {"deep/", "s.md"},
		"shared/deep":  {"d.md"},
		"zz-elsewhere": {"z.md"},
	}
	if !reflect.DeepEqual(snap.Dirs, wantDirs) {
		t.Errorf("Dirs of . = %q;\nwant %q", snap.Dirs, wantDirs)
	}
	if strings.Contains(fmt.Sprint(snap), "SECRET") {
		t.Error("the walk read outside the vault")
	}
}

// TestWalkDeadline: a walk that passes its context's deadline stops with
// LIMIT_EXCEEDED at the next folder, having listed no more.
func TestWalkDeadline(t *testing.T) {
	dir := t.TempDir()
	linkChain(t, dir)
	v := openVault(t, dir)
	ctx := newExpiring()
	listed := 0
	walkHook = func(string) {
		listed++
		if listed == 3 { // the deadline passes while the walk lists its third folder
			ctx.expire()
		}
	}
	defer func() { walkHook = nil }()
	var snap vault.Snapshot
	err := v.AnswerContext(ctx, vault.Need{Trees: []vault.Tree{{Root: "."}}}, &snap, 0)
	wantCode(t, err, fault.LimitExceeded)
	if listed != 3 {
		t.Errorf("the walk listed %d folders; want it stopped after the third", listed)
	}
}

// expiring is a context whose deadline passes when expire is called, not
// after some time: what a test does before it takes no time of it.
type expiring struct {
	context.Context
	done chan struct{}
}

func newExpiring() *expiring { return &expiring{context.Background(), make(chan struct{})} }

func (c *expiring) expire() { close(c.done) }

func (c *expiring) Done() <-chan struct{} { return c.done }

func (c *expiring) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}
