//go:build unix

package vaultfs

import (
	"context"
	"encoding/json"
	"io/fs"
	"strings"
	"syscall"
	"testing"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
)

// fullDisk makes the temporary files' writes (what "write") or fsyncs
// ("sync") fail with errno for the paths fails says, as a full disk does,
// until the test ends. It returns how many it failed.
func fullDisk(t *testing.T, what string, errno syscall.Errno, fails func(p string) bool) *int {
	n := new(int)
	diskHook = func(w, p string) error {
		if w == what && fails(p) {
			*n++
			return &fs.PathError{Op: w, Path: p, Err: errno}
		}
		return nil
	}
	t.Cleanup(func() { diskHook = nil })
	return n
}

// wantDiskFull checks err is DISK_FULL naming p, in both languages, and
// that it says whether something was written (halfway) or not.
func wantDiskFull(t *testing.T, err error, p string, halfway bool) {
	t.Helper()
	e := wantCode(t, err, fault.DiskFull)
	say := "nothing was written: free some space, then run the call again (it is safe to retry)"
	fr := "rien n'a été écrit : libérez de la place"
	if halfway {
		say, fr = "its change is half-way; free some space: the next call finishes the change", "sa modification est à mi-chemin"
	}
	if e.Details["path"] != p || !strings.Contains(e.En, "Kessho could not write "+p) || !strings.Contains(e.En, say) || !strings.Contains(e.Fr, fr) {
		t.Errorf("DISK_FULL %v:\n%s\n%s\nwant %s named, saying %q", e.Details, e.En, e.Fr, p, say)
	}
}

// A full disk on a temporary file's write or fsync, or on the journal's,
// answers DISK_FULL naming the file, with the vault as before: the ops
// that landed undone, no temporary file, no journal left. Run again once
// there is space, the call lands.
func TestDiskFull(t *testing.T) {
	before := map[string]string{"notes/a.md": "A", "notes/b.md": "B"}
	two := plan.Plan{write("notes/a.md", h("A"), "A2"), write("notes/new/c.md", plan.Absent, "C"), write("notes/b.md", h("B"), "B2")}
	after := map[string]string{"notes/a.md": "A2", "notes/b.md": "B2", "notes/new/c.md": "C"}
	for _, c := range []struct {
		name  string
		p     plan.Plan
		what  string
		errno syscall.Errno
		fails func(p string) bool
		named string
		after map[string]string
	}{
		{"one file, its write", plan.Plan{write("notes/a.md", h("A"), "A2")}, "write", syscall.ENOSPC,
			func(p string) bool { return p == "notes/a.md" }, "notes/a.md", map[string]string{"notes/a.md": "A2", "notes/b.md": "B"}},
		{"one file, its fsync, the quota used up", plan.Plan{write("notes/a.md", h("A"), "A2")}, "sync", syscall.EDQUOT,
			func(p string) bool { return p == "notes/a.md" }, "notes/a.md", map[string]string{"notes/a.md": "A2", "notes/b.md": "B"}},
		{"the journal", two, "write", syscall.ENOSPC,
			func(p string) bool { return strings.HasPrefix(p, journalDir+"/") }, "", after},
		{"the last op, after two landed", two, "sync", syscall.ENOSPC,
			func(p string) bool { return p == "notes/b.md" }, "notes/b.md", after},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			makeTree(t, dir, before)
			n := fullDisk(t, c.what, c.errno, c.fails)
			v := openVault(t, dir)
			l := lock(t, v)
			err := v.Apply(l, c.p)
			if *n != 1 {
				t.Fatalf("the full disk was hit %d times", *n)
			}
			named := c.named
			if named == "" { // the journal's own name, which has the time in it
				e, _ := fault.As(err)
				named, _ = e.Details["path"].(string)
				if !strings.HasPrefix(named, journalDir+"/") || !strings.HasSuffix(named, ".json") {
					t.Fatalf("DISK_FULL names %q, not the journal", named)
				}
			}
			wantDiskFull(t, err, named, false)
			if d := diffTree(readTree(t, dir), treeOf(before)); d != "" {
				t.Errorf("after DISK_FULL (temporary files included):\n%s", d)
			}
			if j := journalFiles(t, dir); len(j) != 0 {
				t.Errorf("after DISK_FULL, the journal folder holds %q", j)
			}
			diskHook = nil
			if err := v.Apply(l, c.p); err != nil {
				t.Fatalf("run again with space: %v", err)
			}
			l.Unlock()
			if d := diffTree(readTree(t, dir), treeOf(c.after)); d != "" {
				t.Errorf("after the retry:\n%s", d)
			}
		})
	}
}

// When the undo itself finds the disk full, the journal stays and the
// answer says the change is half-way and that the next call finishes it;
// the next call does.
func TestDiskFullUndoHalfway(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{"notes/a.md": "A", "notes/b.md": "B"})
	fullDisk(t, "write", syscall.ENOSPC, func(p string) bool { return p == "notes/a.md" || p == "notes/b.md" })
	diskHook = func(next func(w, p string) error) func(w, p string) error {
		landed := false // notes/a.md lands once, then its undo fails
		return func(w, p string) error {
			if p == "notes/a.md" && !landed {
				landed = true
				return nil
			}
			return next(w, p)
		}
	}(diskHook)
	v := openVault(t, dir)
	l := lock(t, v)
	defer l.Unlock()
	err := v.Apply(l, plan.Plan{write("notes/a.md", h("A"), "A2"), write("notes/b.md", h("B"), "B2")})
	wantDiskFull(t, err, "notes/b.md", true)
	if j := journalFiles(t, dir); len(j) == 0 {
		t.Fatal("the journal is gone, and the vault half-way")
	}
	diskHook = nil
	if err := v.Recover(l); err != nil {
		t.Fatal(err)
	}
	if d := diffTree(readTree(t, dir), treeOf(map[string]string{"notes/a.md": "A2", "notes/b.md": "B2"})); d != "" {
		t.Errorf("after the next call:\n%s", d)
	}
}

// A tool's call through the host, on both engines: DISK_FULL is printed
// as the core renders it, byte-identical, and nothing is written.
func TestDiskFullCall(t *testing.T) {
	engines := map[string]call.Engine{"native": engine.Native()}
	w, err := engine.NewWasm(context.Background(), engine.WasmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(context.Background())
	engines["wasm"] = w
	answers := map[string]string{}
	for name, eng := range engines {
		dir := t.TempDir()
		fullDisk(t, "sync", syscall.ENOSPC, func(p string) bool { return strings.HasSuffix(p, "/history.md") })
		v := openVault(t, dir)
		out, err := call.Run(context.Background(), v, eng, "mem_init_project", json.RawMessage(`{"slug":"x","summary":"s"}`), call.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var a struct {
			Error struct {
				Code    string
				Details map[string]any
			}
		}
		json.Unmarshal(out.Answer, &a)
		if a.Error.Code != "DISK_FULL" || !strings.HasSuffix(a.Error.Details["path"].(string), "/history.md") {
			t.Errorf("%s: %s", name, out.Answer)
		}
		answers[name] = string(out.Answer)
		if got, j := readTree(t, dir), journalFiles(t, dir); len(got) != 0 || len(j) != 0 {
			t.Errorf("%s: written: %v, journal %q", name, got, j)
		}
	}
	if answers["native"] != answers["wasm"] {
		t.Errorf("native %s\nwasm   %s", answers["native"], answers["wasm"])
	}
}
