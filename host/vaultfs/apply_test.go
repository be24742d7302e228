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
	"github.com/kessho/kessho/core/hostlogic"
	"github.com/kessho/kessho/core/plan"
)

// gone marks a path removed in TestApplyOps.
const gone = "<gone>"

var base = map[string]string{
	"notes/a.md":        "A",
	"notes/b.md":        "B",
	"proj/x/context.md": "ctx",
	"proj/x/arch/1.md":  "one",
	"keep.md":           "keep",
}

func TestApplyOps(t *testing.T) {
	cases := []struct {
		name   string
		plan   plan.Plan
		change map[string]string // path → new text, dirMark for a folder, gone when removed
	}{
		{"write new in new folders", plan.Plan{write("new/deep/n.md", plan.Absent, "N")},
			map[string]string{"new": dirMark, "new/deep": dirMark, "new/deep/n.md": "N"}},
		{"overwrite", plan.Plan{write("notes/a.md", h("A"), "A2")},
			map[string]string{"notes/a.md": "A2"}},
		{"overwrite with nothing", plan.Plan{write("notes/a.md", h("A"), "")},
			map[string]string{"notes/a.md": ""}},
		{"delete", plan.Plan{{Op: plan.Delete, Path: "notes/b.md", Expect: h("B")}},
			map[string]string{"notes/b.md": gone}},
		{"move file", plan.Plan{{Op: plan.Move, From: "keep.md", To: "notes/keep.md", Expect: plan.Absent}},
			map[string]string{"keep.md": gone, "notes/keep.md": "keep"}},
		{"move folder", plan.Plan{{Op: plan.Move, From: "proj/x", To: "archived/x", Expect: plan.Absent}},
			map[string]string{"proj/x": gone, "proj/x/context.md": gone, "proj/x/arch": gone, "proj/x/arch/1.md": gone,
				"archived": dirMark, "archived/x": dirMark, "archived/x/context.md": "ctx", "archived/x/arch": dirMark, "archived/x/arch/1.md": "one"}},
		{"ops see earlier ops", plan.Plan{
			write("proj/x/context.md", h("ctx"), "ctx2"),
			{Op: plan.Move, From: "proj/x", To: "done/x", Expect: plan.Absent},
			write("done/x/context.md", h("ctx2"), "ctx3"),
			write("done/x/history.md", plan.Absent, "H"),
			{Op: plan.Delete, Path: "done/x/arch/1.md", Expect: h("one")},
			write("proj/x", plan.Absent, "a file where the folder was"),
			write("notes/a.md", h("A"), "A2"),
			write("notes/a.md", h("A2"), "A3"),
		}, map[string]string{"proj/x": "a file where the folder was", "proj/x/context.md": gone, "proj/x/arch": gone, "proj/x/arch/1.md": gone,
			"done": dirMark, "done/x": dirMark, "done/x/context.md": "ctx3", "done/x/history.md": "H", "done/x/arch": dirMark,
			"notes/a.md": "A3"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			makeTree(t, dir, base)
			v := openVault(t, dir)
			if err := v.Apply(lock(t, v), c.plan); err != nil {
				t.Fatalf("Apply: %v", err)
			}
			want := treeOf(base)
			for p, text := range c.change {
				if text == gone {
					delete(want, p)
				} else {
					want[p] = text
				}
			}
			if d := diffTree(readTree(t, dir), want); d != "" {
				t.Errorf("after Apply the vault differs:\n%s", d)
			}
			if j := journalFiles(t, dir); len(j) != 0 {
				t.Errorf("journal left after success: %q", j)
			}
		})
	}
}

func TestApplyKeepsPermissions(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, base)
	p := filepath.Join(dir, "notes/a.md")
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	v := openVault(t, dir)
	if err := v.Apply(lock(t, v), plan.Plan{write("notes/a.md", h("A"), "A2")}); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(p); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("mode after overwrite = %v, %v; want 0600", info.Mode(), err)
	}
}

func TestApplyConflict(t *testing.T) {
	cases := []struct {
		name string
		plan plan.Plan
		path string // named in the CONFLICT
	}{
		{"changed file", plan.Plan{write("notes/a.md", h("not A"), "A2")}, "notes/a.md"},
		{"absent expected, file there", plan.Plan{write("notes/a.md", plan.Absent, "A2")}, "notes/a.md"},
		{"absent expected, folder there", plan.Plan{write("notes", plan.Absent, "x")}, "notes"},
		{"hash expected, nothing there", plan.Plan{write("notes/c.md", h("C"), "C2")}, "notes/c.md"},
		{"hash expected, folder there", plan.Plan{write("notes", h("C"), "C2")}, "notes"},
		{"delete changed", plan.Plan{{Op: plan.Delete, Path: "notes/b.md", Expect: h("b")}}, "notes/b.md"},
		{"delete missing", plan.Plan{{Op: plan.Delete, Path: "notes/z.md", Expect: h("b")}}, "notes/z.md"},
		{"move onto file", plan.Plan{{Op: plan.Move, From: "notes/a.md", To: "keep.md", Expect: plan.Absent}}, "keep.md"},
		{"move onto folder", plan.Plan{{Op: plan.Move, From: "keep.md", To: "notes", Expect: plan.Absent}}, "notes"},
		{"move of nothing", plan.Plan{{Op: plan.Move, From: "nope", To: "nope2", Expect: plan.Absent}}, "nope"},
		{"write under a file", plan.Plan{write("keep.md/x.md", plan.Absent, "x")}, "keep.md"},
		{"move under a file", plan.Plan{{Op: plan.Move, From: "notes", To: "keep.md/notes", Expect: plan.Absent}}, "keep.md"},
		// The last op fails against the state the first ones leave: nothing
		// at all is written.
		{"late conflict", plan.Plan{
			write("new/n.md", plan.Absent, "N"),
			{Op: plan.Delete, Path: "notes/b.md", Expect: h("B")},
			{Op: plan.Move, From: "proj/x", To: "done/x", Expect: plan.Absent},
			write("done/x/context.md", h("ctx"), "ctx2"),
			write("new/n.md", plan.Absent, "again"),
		}, "new/n.md"},
		{"moved away", plan.Plan{
			{Op: plan.Move, From: "proj/x", To: "done/x", Expect: plan.Absent},
			write("proj/x/context.md", h("ctx"), "ctx2"),
		}, "proj/x/context.md"},
		{"deleted before", plan.Plan{
			{Op: plan.Delete, Path: "notes/b.md", Expect: h("B")},
			{Op: plan.Delete, Path: "notes/b.md", Expect: h("B")},
		}, "notes/b.md"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			makeTree(t, dir, base)
			before := readTree(t, dir)
			v := openVault(t, dir)
			err := v.Apply(lock(t, v), c.plan)
			if e := wantCode(t, err, fault.Conflict); e.Details["path"] != c.path {
				t.Errorf("CONFLICT names %v; want %q (%v)", e.Details, c.path, err)
			}
			if d := diffTree(readTree(t, dir), before); d != "" {
				t.Errorf("a refused plan changed the vault:\n%s", d)
			}
			if j := journalFiles(t, dir); len(j) != 0 {
				t.Errorf("a refused plan left a journal: %q", j)
			}
		})
	}
}

func TestApplyInvalidPlan(t *testing.T) {
	for _, p := range []plan.Plan{
		{{Op: plan.Write, Path: "a.md", Expect: plan.Absent}},                      // no text
		{write("../a.md", plan.Absent, "x")},                                       // escapes
		{write(".obsidian/app.json", plan.Absent, "x")},                            // dot-folder
		{write(".kessho/journal/x.json", plan.Absent, "x")},                        // Kessho's own
		{write("/etc/passwd", plan.Absent, "x")},                                   // absolute
		{write("a.md", "", "x")},                                                   // no precondition
		{{Op: plan.Delete, Path: "keep.md", Expect: plan.Absent}},                  // delete needs a hash
		{{Op: plan.Move, From: "notes", To: "notes/sub", Expect: plan.Absent}},     // into itself
		{{Op: plan.Move, From: "notes", To: "other", Expect: h("x")}},              // move expects absent
		{{Op: "chmod", Path: "keep.md"}},                                           // unknown op
		{write("fine.md", plan.Absent, "x"), write("a/../b.md", plan.Absent, "x")}, // one bad op spoils all
	} {
		dir := t.TempDir()
		makeTree(t, dir, base)
		v := openVault(t, dir)
		err := v.Apply(lock(t, v), p)
		wantCode(t, err, fault.Internal)
		if d := diffTree(readTree(t, dir), treeOf(base)); d != "" {
			t.Errorf("Apply(%+v) wrote:\n%s", p, d)
		}
	}
}

func TestApplyNeedsTheLock(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, base)
	v, other := openVault(t, dir), openVault(t, t.TempDir())
	p := plan.Plan{write("new.md", plan.Absent, "x")}

	if err := v.Apply(nil, p); err == nil {
		t.Error("Apply(nil lock) = nil")
	}
	lo := lock(t, other)
	if err := v.Apply(lo, p); err == nil {
		t.Error("Apply(another vault's lock) = nil")
	}
	lo.Unlock()
	l := lock(t, v)
	l.Unlock()
	if err := v.Apply(l, p); err == nil {
		t.Error("Apply(released lock) = nil")
	}
	if err := v.Recover(l); err == nil {
		t.Error("Recover(released lock) = nil")
	}
	if d := diffTree(readTree(t, dir), treeOf(base)); d != "" {
		t.Errorf("Apply without the lock wrote:\n%s", d)
	}
}

// The journal is read by the Obsidian plugin too: its shape is a contract.
func TestJournalFormat(t *testing.T) {
	dir := t.TempDir()
	v := openVault(t, dir)
	lock(t, v)
	p := plan.Plan{
		write("a.md", plan.Absent, "<b>&é\n"),
		{Op: plan.Delete, Path: "b.md", Expect: h("b")},
		{Op: plan.Move, From: "c", To: "d/c", Expect: plan.Absent},
	}
	start := time.Now()
	j, err := v.writeJournal(p)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".kessho", "journal", j.ID+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Version int                 `json:"version"`
		ID      string              `json:"id"`
		Created string              `json:"created"`
		Plan    []json.RawMessage   `json:"plan"`
		States  []hostlogic.OpState `json:"states"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	created, err := time.Parse(time.RFC3339, got.Created)
	wantStates := []hostlogic.OpState{{Before: plan.Absent, After: h("<b>&é\n")}, {Before: h("b"), After: plan.Absent}, {Before: plan.Absent, After: "present"}}
	if !slices.Equal(got.States, wantStates) {
		t.Errorf("journal states = %v; want %v", got.States, wantStates)
	}
	if got.Version != 2 || got.ID != j.ID || err != nil || created.Before(start.Add(-time.Second)) || len(got.Plan) != len(p) {
		t.Errorf("journal = %s", data)
	}
	for i, raw := range got.Plan {
		want, _ := json.Marshal(p[i])
		if string(raw) != string(want) {
			t.Errorf("journal op %d = %s; want %s (plan.Op's JSON)", i, raw, want)
		}
	}
	// Ids sort by time.
	if later := hostlogic.ID(time.Now().Add(time.Millisecond), newSuffix()); later <= j.ID {
		t.Errorf("newID: %q sorts before the earlier %q", later, j.ID)
	}
	if !strings.HasPrefix(j.ID, start.UTC().Format("20060102T")) {
		t.Errorf("id %q does not start with the UTC date", j.ID)
	}
}

// TestApplyCheck: a check op writes nothing, and a file it names that
// changed (or appeared) fails the whole plan with CONFLICT.
func TestApplyCheck(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "read.md"), []byte("as read"), 0o644)
	v, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	l, err := v.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	good := plan.Plan{plan.CheckOp("read.md", plan.HashString("as read")), plan.CheckOp("none.md", plan.Absent), plan.WriteOp("out.md", plan.Absent, "x")}
	if err := v.Apply(l, good); err != nil {
		t.Fatalf("Apply(checks that hold) = %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "read.md")); string(b) != "as read" {
		t.Errorf("a check wrote %q", b)
	}
	for _, bad := range []plan.Plan{
		{plan.WriteOp("out2.md", plan.Absent, "y"), plan.CheckOp("read.md", plan.HashString("old"))},
		{plan.WriteOp("out2.md", plan.Absent, "y"), plan.CheckOp("out.md", plan.Absent)},
	} {
		err := v.Apply(l, bad)
		if e, ok := fault.As(err); !ok || e.Code != fault.Conflict {
			t.Errorf("Apply(%v) = %v; want CONFLICT", bad, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "out2.md")); err == nil {
			t.Errorf("a failed check let out2.md be written")
		}
	}
}
