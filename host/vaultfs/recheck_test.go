package vaultfs

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/internal/conformance"
)

// The journal's last step: every precondition passed, the journal is
// durable, no op has landed yet. Another program's write there is the
// race the re-check catches. A one-file plan has no journal: its first
// step is its temporary file's mark (see applyOne).
const journalDurable = "journal: folder synced"

// editAt returns a crash hook that, at step at (the first time), runs
// edit: another program writing the vault while Apply runs.
func editAt(t *testing.T, at string, edit func()) (hook func(string), ran *bool) {
	ran = new(bool)
	return func(s string) {
		if s == at && !*ran {
			*ran = true
			edit()
		}
	}, ran
}

// multi is a plan of every kind of op, on the base tree.
var multi = plan.Plan{
	write("new/deep/n.md", plan.Absent, "N"),
	write("notes/a.md", h("A"), "A2"),
	{Op: plan.Delete, Path: "notes/b.md", Expect: h("B")},
	{Op: plan.Move, From: "proj/x", To: "done/x", Expect: plan.Absent},
	write("done/x/context.md", h("ctx"), "ctx2"),
	write("keep.md", h("keep"), "keep2"),
}

// TestApplyRecheck: a file changed after the precondition check and
// before its op lands stops the plan with CONFLICT naming it; every op
// that landed before it is undone, and the other program's write
// survives.
func TestApplyRecheck(t *testing.T) {
	cases := []struct {
		name  string
		plan  plan.Plan
		at    string            // the step where the other program writes
		edit  map[string]string // what it writes (gone: removes)
		path  string            // named in the CONFLICT
		words string            // in its message
	}{
		{"write, file changed", plan.Plan{write("notes/a.md", h("A"), "A2")}, "write notes/a.md: temp marked",
			map[string]string{"notes/a.md": "A, edited"}, "notes/a.md", "changed since"},
		{"write, file changed at the last instant", plan.Plan{write("notes/a.md", h("A"), "A2")}, "write notes/a.md: re-checking",
			map[string]string{"notes/a.md": "A, edited"}, "notes/a.md", "changed since"},
		{"write, file removed", plan.Plan{write("notes/a.md", h("A"), "A2")}, "write notes/a.md: temp marked",
			map[string]string{"notes/a.md": gone}, "notes/a.md", "changed since"},
		{"write of a new file, made meanwhile", plan.Plan{write("new/n.md", plan.Absent, "N")}, journalDurable,
			map[string]string{"new/n.md": "mine"}, "new/n.md", "already exists"},
		{"write of a new file beside others, made meanwhile", plan.Plan{write("notes/n.md", plan.Absent, "N")}, "write notes/n.md: temp marked",
			map[string]string{"notes/n.md": "mine"}, "notes/n.md", "already exists"},
		{"delete, file changed", plan.Plan{{Op: plan.Delete, Path: "notes/b.md", Expect: h("B")}}, "delete notes/b.md: re-checking",
			map[string]string{"notes/b.md": "B, edited"}, "notes/b.md", "changed since"},
		{"move, target made meanwhile", plan.Plan{{Op: plan.Move, From: "keep.md", To: "notes/keep.md", Expect: plan.Absent}}, journalDurable,
			map[string]string{"notes/keep.md": "mine"}, "notes/keep.md", "already exists"},
		{"move, source removed", plan.Plan{{Op: plan.Move, From: "keep.md", To: "notes/keep.md", Expect: plan.Absent}}, journalDurable,
			map[string]string{"keep.md": gone}, "keep.md", "changed since"},
		{"check, file changed", plan.Plan{write("out.md", plan.Absent, "x"), plan.CheckOp("notes/a.md", h("A"))}, "write out.md: temp synced",
			map[string]string{"notes/a.md": "A, edited"}, "notes/a.md", "changed since"},
		{"every kind of op undone", multi, "op 4: recorded done",
			map[string]string{"keep.md": "keep, edited"}, "keep.md", "changed since"},
		{"undo keeps an edit of Kessho's fresh file", multi, "op 4: recorded done",
			map[string]string{"keep.md": "keep, edited", "new/deep/n.md": "N, edited", "done/x/context.md": "ctx2, edited"}, "keep.md", "changed since"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			makeTree(t, dir, base)
			v := openVault(t, dir)
			files := map[string]string{}
			for p, text := range base {
				files[p] = text
			}
			hook, ran := editAt(t, c.at, func() {
				for p, text := range c.edit {
					full := filepath.Join(dir, filepath.FromSlash(p))
					if text == gone {
						os.Remove(full)
					} else {
						os.MkdirAll(filepath.Dir(full), 0o755)
						os.WriteFile(full, []byte(text), 0o644)
					}
				}
			})
			for p, text := range c.edit {
				if text == gone {
					delete(files, p)
				} else {
					files[p] = text
				}
			}
			if c.name == "undo keeps an edit of Kessho's fresh file" {
				// The edited files stay. The move is undone all the same
				// (its target is there): the edit goes back with its folder.
				delete(files, "done/x/context.md")
				files["proj/x/context.md"] = "ctx2, edited"
			}
			want := treeOf(files)
			crashHook = hook
			err := v.Apply(lock(t, v), c.plan)
			crashHook = nil
			if !*ran {
				t.Fatalf("no step %q", c.at)
			}
			e := wantCode(t, err, fault.Conflict)
			if e.Details["path"] != c.path || !strings.Contains(e.En, c.words) {
				t.Errorf("CONFLICT %v, %q; want one naming %s, saying %q", e.Details, e.En, c.path, c.words)
			}
			if d := diffTree(readTree(t, dir), want); d != "" {
				t.Errorf("the vault is not as before with the other program's write:\n%s", d)
			}
			if j := journalFiles(t, dir); len(j) != 0 {
				t.Errorf("journal left: %q", j)
			}
		})
	}
}

// TestCrashWhileUndoing: a crash in the middle of the undos of a live
// conflict leaves the journal; recovery then looks at every op again (the
// progress was dropped before the first undo) and finishes the plan, so
// the vault is never left with ops recorded done that were undone. The
// file the other program edited becomes a recovery conflict, its edit kept.
func TestCrashWhileUndoing(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, base)
	v := openVault(t, dir)
	l := lock(t, v)
	type crash struct{}
	edited := false
	crashHook = func(s string) {
		switch {
		case s == "op 4: recorded done" && !edited:
			edited = true
			os.WriteFile(filepath.Join(dir, "keep.md"), []byte("keep, edited"), 0o644)
		case strings.HasPrefix(s, "undo move proj/x: renamed"):
			panic(crash{}) // the process dies half-way through the undos
		}
	}
	func() {
		defer func() {
			if r := recover(); r != (crash{}) {
				t.Fatalf("no crash while undoing (recovered %v)", r)
			}
		}()
		v.Apply(l, multi)
	}()
	crashHook = nil
	if len(journalFiles(t, dir)) == 0 {
		t.Fatal("the journal is gone after a crash while undoing")
	}
	wantCode(t, v.Recover(l), fault.RecoveryConflict)
	got := readTree(t, dir)
	for p, want := range map[string]string{
		"new/deep/n.md": "N", "notes/a.md": "A2", "done/x/context.md": "ctx2", "done/x/arch/1.md": "one", "keep.md": "keep, edited",
	} {
		if got[p] != want {
			t.Errorf("%s = %q after recovery, want %q (the plan finished, the edit kept)", p, got[p], want)
		}
	}
	for _, p := range []string{"notes/b.md", "proj/x/context.md"} {
		if _, ok := got[p]; ok {
			t.Errorf("%s is still there after recovery: the plan is half-made", p)
		}
	}
}

// Issue 24 item 7, through a whole mem_archive call on both engines: an
// editor re-saves history.md keeping Kessho's new line, then context.md
// changes before its op lands. The call answers CONFLICT saying what
// stayed: their history.md, and the archive its line names, which
// mem_read_archive then reads (it answered UNKNOWN_ARCHIVE when the undo
// removed it). Every outside edit is kept.
func TestArchiveConflictKeepsWhatHistoryNames(t *testing.T) {
	file := filepath.Join("..", "..", "testdata", "cases", "archive-full.txtar")
	c, err := conformance.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	now, _ := time.Parse(time.RFC3339, c.Call.Now)
	const proj = "10-episodes/projects/alpha/"
	archive := proj + "archives/2026-11-30-10h15-alpha-decision-ete-l-outil-d-archive.md"
	w, err := engine.NewWasm(context.Background(), engine.WasmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(context.Background())
	answers := map[string]string{}
	for name, eng := range map[string]call.Engine{"native": engine.Native(), "wasm": w} {
		dir := t.TempDir()
		for p, b := range c.Vault {
			makeTree(t, dir, map[string]string{p: string(b)})
		}
		full := func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) }
		var theirs map[string]string
		crashHook = func(s string) {
			if s != "write "+proj+"context.md: temp synced" || theirs != nil {
				return
			}
			hist, _ := os.ReadFile(full(proj + "history.md")) // Kessho's, with its new line
			theirs = map[string]string{proj + "history.md": string(hist) + "- typed in the editor\n", proj + "context.md": "their context\n"}
			for p, text := range theirs {
				os.WriteFile(full(p), []byte(text), 0o644)
			}
		}
		v := openVault(t, dir)
		out, err := call.Run(context.Background(), v, eng, c.Call.Tool, c.Call.Args, call.Options{Now: now, TZ: c.Call.TZ, Lang: c.Call.Lang})
		crashHook = nil
		if err != nil {
			t.Fatal(err)
		}
		answers[name] = string(out.Answer)
		var a struct {
			Error struct{ Code, Message string }
		}
		json.Unmarshal(out.Answer, &a)
		if a.Error.Code != "CONFLICT" || !strings.Contains(a.Error.Message, "except "+proj+"history.md") || !strings.Contains(a.Error.Message, archive+": files Kessho made, kept") {
			t.Fatalf("%s: %s", name, out.Answer)
		}
		got := readTree(t, dir)
		for p, text := range theirs {
			if got[p] != text {
				t.Errorf("%s: %s = %q; want theirs, %q", name, p, got[p], text)
			}
		}
		if !strings.Contains(got[proj+"history.md"], "2026-11-30-10h15-alpha-decision-ete-l-outil-d-archive") || got[archive] != string(c.Want[archive]) {
			t.Errorf("%s: history.md names the archive, which is %q", name, got[archive])
		}
		read, err := call.Run(context.Background(), v, eng, "mem_read_archive", json.RawMessage(`{"slug":"alpha","archive":"latest"}`), call.Options{Now: now})
		if err != nil || !read.OK || !strings.Contains(string(read.Answer), "2026-11-30-10h15") {
			t.Errorf("%s: mem_read_archive latest: %s %v", name, read.Answer, err)
		}
		if j := journalFiles(t, dir); len(j) != 0 {
			t.Errorf("%s: journal left: %q", name, j)
		}
	}
	if answers["native"] != answers["wasm"] {
		t.Errorf("native %s\nwasm   %s", answers["native"], answers["wasm"])
	}
}

// A restore that loses its race (the file edited between the undo's look
// and its last-instant re-check) keeps that file, and the files the ops
// left to undo made, which it may name; the refusal names both.
func TestUndoRaceKeepsWhatItMayName(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{"b.md": "b0", "last.md": "l0"})
	p := plan.Plan{write("f/new.md", plan.Absent, "new"), write("b.md", h("b0"), "b1"), write("last.md", h("l0"), "l1")}
	crashHook = func(s string) {
		switch s {
		case "op 1: recorded done":
			os.WriteFile(filepath.Join(dir, "last.md"), []byte("their last"), 0o644)
		case "undo write b.md: re-checking":
			os.WriteFile(filepath.Join(dir, "b.md"), []byte("their b"), 0o644)
		}
	}
	defer func() { crashHook = nil }()
	v := openVault(t, dir)
	l := lock(t, v)
	defer l.Unlock()
	e := wantCode(t, v.Apply(l, p), fault.Conflict)
	want := "Kessho stopped its change at last.md (another program or person wrote it after Kessho read it) and undid what it had written, except b.md: changed since Kessho wrote it, and kept as it is; and f/new.md: files Kessho made, kept because a changed file may name them; look at them before you run the call again"
	if e.En != want || !slices.Equal(e.Details["edited"].([]string), []string{"b.md"}) || !slices.Equal(e.Details["kept"].([]string), []string{"f/new.md"}) {
		t.Errorf("%s\n%v", e.En, e.Details)
	}
	if d := diffTree(readTree(t, dir), treeOf(map[string]string{"b.md": "their b", "last.md": "their last", "f/new.md": "new"})); d != "" {
		t.Errorf("after:\n%s", d)
	}
}
