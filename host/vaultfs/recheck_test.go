package vaultfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kessho/core/fault"
	"kessho/core/plan"
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
