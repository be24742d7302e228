//go:build unix

package vaultfs

import (
	"context"
	"testing"

	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/host/internal/fsyncs"
)

// TestSyncsPerPlan pins the fsyncs Apply makes for each shape of plan,
// the minimum RATIONALE.md explains ("Why does a one-file plan need no
// journal?"): a regression (a journal for one file, a sync too many) fails
// here.
func TestSyncsPerPlan(t *testing.T) {
	before := map[string]string{
		"notes/a.md":    "a",
		"notes/b.md":    "b",
		"notes/gone.md": "gone",
	}
	for _, c := range []struct {
		name  string
		plan  plan.Plan
		syncs int64
	}{
		// The temporary file, then its folder once renamed.
		{"one write over a file", plan.Plan{write("notes/a.md", h("a"), "a2")}, 2},
		{"one new file", plan.Plan{write("notes/new.md", plan.Absent, "new")}, 2},
		// A new folder takes the journal (a crash must not leave it
		// empty), and its parent is synced so the folder lasts.
		{"one new file in a new folder", plan.Plan{write("notes/sub/new.md", plan.Absent, "new")}, 2 + 1 + 1 + (2 + 1) + 1},
		// A check writes nothing, and costs nothing to make durable.
		{"one write and a check", plan.Plan{write("notes/a.md", h("a"), "a2"), plan.CheckOp("notes/b.md", h("b"))}, 2},
		// The folder, once the name is gone.
		{"one delete", plan.Plan{{Op: plan.Delete, Path: "notes/gone.md", Expect: h("gone")}}, 1},
		{"checks only", plan.Plan{plan.CheckOp("notes/b.md", h("b"))}, 0},
		// The journal (its temporary file and folder: 2), its progress
		// file's name (1), each write (2) and its progress line (1), the
		// journal's removal (1).
		{"two writes", plan.Plan{write("notes/a.md", h("a"), "a2"), write("notes/b.md", h("b"), "b2")}, 2 + 1 + 2*(2+1) + 1},
		{"a write and a delete", plan.Plan{write("notes/a.md", h("a"), "a2"), {Op: plan.Delete, Path: "notes/gone.md", Expect: h("gone")}}, 2 + 1 + (2 + 1) + (1 + 1) + 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			makeTree(t, dir, before)
			makeTree(t, dir, map[string]string{journalDir + "/": ""}) // made by an earlier call
			v := openVault(t, dir)
			l, err := v.Lock(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer l.Unlock()
			start := fsyncs.Count()
			if err := v.Apply(l, c.plan); err != nil {
				t.Fatal(err)
			}
			if got := fsyncs.Count() - start; got != c.syncs {
				t.Errorf("%d fsyncs; want %d", got, c.syncs)
			}
			if j := journalFiles(t, dir); len(j) != 0 {
				t.Errorf("the journal folder holds %q", j)
			}
		})
	}
}
