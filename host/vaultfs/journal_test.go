package vaultfs

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
)

// crashed leaves dir as a crash would: the journal of p written, the
// files as in state, the progress file holding done.
func crashed(t *testing.T, dir string, p plan.Plan, state map[string]string, done string) {
	t.Helper()
	v := openVault(t, dir)
	l := lock(t, v)
	j, err := v.writeJournal(p)
	if err != nil {
		t.Fatal(err)
	}
	l.Unlock()
	makeTree(t, dir, state)
	if done != "" {
		if err := os.WriteFile(filepath.Join(dir, ".kessho", "journal", j.ID+".done"), []byte(done), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func recoverVault(t *testing.T, dir string) error {
	t.Helper()
	v := openVault(t, dir)
	l := lock(t, v)
	defer l.Unlock()
	return v.Recover(l)
}

// A write into a folder that a later op moves away: once the move is done,
// the write's target is empty again, and only the recorded progress tells
// Recover not to write it a second time.
func TestRecoverResumesAfterProgress(t *testing.T) {
	p := plan.Plan{
		write("a/x.md", plan.Absent, "X"),
		{Op: plan.Move, From: "a", To: "b", Expect: plan.Absent},
		write("c.md", plan.Absent, "C"),
	}
	after := treeOf(map[string]string{"b/x.md": "X", "b/y.md": "Y", "c.md": "C"})
	for _, c := range []struct {
		name  string
		state map[string]string
		done  string
	}{
		{"move done, not recorded", map[string]string{"b/x.md": "X", "b/y.md": "Y"}, "0\n"},
		{"move done and recorded", map[string]string{"b/x.md": "X", "b/y.md": "Y"}, "0\n1\n"},
		{"move recorded, last line torn", map[string]string{"b/x.md": "X", "b/y.md": "Y"}, "0\n1"},
		{"all done, not removed", map[string]string{"b/x.md": "X", "b/y.md": "Y", "c.md": "C"}, "0\n1\n2\n"},
		{"write done, nothing recorded", map[string]string{"a/x.md": "X", "a/y.md": "Y"}, ""},
		{"nothing done", map[string]string{"a/y.md": "Y"}, ""},
		{"garbage after progress", map[string]string{"b/x.md": "X", "b/y.md": "Y"}, "0\n1\nzz\n7\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			crashed(t, dir, p, c.state, c.done)
			if err := recoverVault(t, dir); err != nil {
				t.Fatalf("Recover: %v", err)
			}
			if d := diffTree(readTree(t, dir), after); d != "" {
				t.Errorf("after Recover the vault differs:\n%s", d)
			}
			if j := journalFiles(t, dir); len(j) != 0 {
				t.Errorf("journal left: %q", j)
			}
		})
	}
}

func TestRecoverLeftovers(t *testing.T) {
	dir := t.TempDir()
	p := plan.Plan{write("n/x.md", h("x"), "X2"), write("top.md", plan.Absent, "T")}
	crashed(t, dir, p, map[string]string{
		"n/x.md":                        "x",
		"n/.kessho-tmp-0123abcd":        "half a write",
		".kessho-tmp-77":                "another",
		"other/.kessho-tmp-11":          "not in a folder the plan writes: kept",
		".kessho/journal/.kessho-tmp-9": "half a journal",
		".kessho/journal/20000101T000000.000000000Z-00000000.done": "0\n",
	}, "")
	if err := recoverVault(t, dir); err != nil {
		t.Fatal(err)
	}
	want := treeOf(map[string]string{"n/x.md": "X2", "top.md": "T", "other/.kessho-tmp-11": "not in a folder the plan writes: kept"})
	if d := diffTree(readTree(t, dir), want); d != "" {
		t.Errorf("after Recover:\n%s", d)
	}
	if j := journalFiles(t, dir); len(j) != 0 {
		t.Errorf("journal folder holds %q", j)
	}
}

func TestRecoverInOrder(t *testing.T) {
	dir := t.TempDir()
	v := openVault(t, dir)
	l := lock(t, v)
	// Two journals: the older writes, the newer overwrites what it wrote.
	if _, err := v.writeJournal(plan.Plan{write("a.md", plan.Absent, "1")}); err != nil {
		t.Fatal(err)
	}
	if _, err := v.writeJournal(plan.Plan{write("a.md", h("1"), "2")}); err != nil {
		t.Fatal(err)
	}
	if err := v.Recover(l); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.md")); string(b) != "2" {
		t.Errorf("a.md = %q; want the newer journal's 2", b)
	}
}

func TestRecoverRefusesBadJournal(t *testing.T) {
	const id = "20260101T000000.000000000Z-abcdef01"
	for name, text := range map[string]string{
		"not JSON":                    `{"version":1,`,
		"other version":               `{"version":3,"id":"` + id + `","created":"2026-01-01T00:00:00Z","plan":[]}`,
		"v2 without states":           `{"version":2,"id":"` + id + `","created":"2026-01-01T00:00:00Z","plan":[{"op":"delete","path":"keep.md","expect":"` + h("k") + `"}]}`,
		"v2 with inconsistent states": `{"version":2,"id":"` + id + `","created":"2026-01-01T00:00:00Z","plan":[{"op":"delete","path":"keep.md","expect":"` + h("k") + `"}],"states":[{"before":"` + h("k") + `","after":"` + h("other") + `"}]}`,
		"v2 with too many states":     `{"version":2,"id":"` + id + `","created":"2026-01-01T00:00:00Z","plan":[{"op":"delete","path":"keep.md","expect":"` + h("k") + `"}],"states":[{"before":"` + h("k") + `","after":"absent"},{"before":"absent","after":"absent"}]}`,
		"v1 with states":              `{"version":1,"id":"` + id + `","created":"2026-01-01T00:00:00Z","plan":[{"op":"delete","path":"keep.md","expect":"` + h("k") + `"}],"states":[{"before":"` + h("k") + `","after":"absent"}]}`,
		"other id":                    `{"version":1,"id":"x","created":"2026-01-01T00:00:00Z","plan":[]}`,
		"bad plan":                    `{"version":1,"id":"` + id + `","created":"2026-01-01T00:00:00Z","plan":[{"op":"write","path":"../x","expect":"absent","text":"x"}]}`,
		"bad progress":                `{"version":1,"id":"` + id + `","created":"2026-01-01T00:00:00Z","plan":[]}`,
		// mkdir was an op no tool ever made; it is no longer one.
		"mkdir": `{"version":1,"id":"` + id + `","created":"2026-01-01T00:00:00Z","plan":[{"op":"mkdir","path":"made"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"keep.md": "k", ".kessho/journal/" + id + ".json": text}
			if name == "bad progress" {
				files[".kessho/journal/"+id+".done"] = "0\n1\n"
			}
			makeTree(t, dir, files)
			err := recoverVault(t, dir)
			if e := wantCode(t, err, fault.Internal); e.Details["path"] != ".kessho/journal/"+id+".json" {
				t.Errorf("details %v; want the journal's path", e.Details)
			}
			if d := diffTree(readTree(t, dir), treeOf(map[string]string{"keep.md": "k"})); d != "" {
				t.Errorf("a refused journal changed the vault:\n%s", d)
			}
			if j := journalFiles(t, dir); !slices.Contains(j, id+".json") {
				t.Errorf("the refused journal was removed: %q", j)
			}
		})
	}
}

// Apply finishes a crashed plan before it checks its own.
func TestApplyRecoversFirst(t *testing.T) {
	dir := t.TempDir()
	crashed(t, dir, plan.Plan{write("a.md", plan.Absent, "1")}, nil, "")
	v := openVault(t, dir)
	if err := v.Apply(lock(t, v), plan.Plan{write("a.md", h("1"), "2")}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.md")); string(b) != "2" {
		t.Errorf("a.md = %q; want 2", b)
	}
}
