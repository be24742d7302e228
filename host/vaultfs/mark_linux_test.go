//go:build linux

package vaultfs

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/plan"
)

// markText is what the vault's kept mark file holds ("" when absent).
func markText(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(markFile)))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// markLine is the first line of the kept mark file: what it names.
func markLine(t *testing.T, dir string) string {
	t.Helper()
	line, _, _ := strings.Cut(markText(t, dir), "\n")
	return line
}

// TestKeptMarkAfterWrite: a one-file write marks its temporary file in
// the kept mark file, not in the journal folder, and leaves the mark
// naming nothing and no temporary file once done, a refused write too.
func TestKeptMarkAfterWrite(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{"notes/a.md": "A"})
	v := openVault(t, dir)
	var marked string
	crashHook = func(s string) {
		if s == "write notes/a.md: temp created" {
			marked = markText(t, dir)
		}
	}
	t.Cleanup(func() { crashHook = nil })
	if err := applyLocked(v, plan.Plan{write("notes/a.md", h("A"), "A2")}); err != nil {
		t.Fatal(err)
	}
	if err := applyLocked(v, plan.Plan{write("notes/a.md", h("A"), "A3")}); err == nil {
		t.Fatal("a write over a changed file was not refused")
	}
	if line, _, ok := strings.Cut(marked, "\n"); !ok || path.Dir(line) != "notes" || !strings.HasPrefix(path.Base(line), tempPrefix) {
		t.Errorf("while the temporary file existed the mark held %q", marked)
	}
	if m := markLine(t, dir); m != "" {
		t.Errorf("the mark names %q after the writes", m)
	}
	if j := journalFiles(t, dir); len(j) != 0 {
		t.Errorf("journal folder holds %q", j)
	}
	want := treeOf(map[string]string{"notes/a.md": "A2"})
	if d := diffTree(readTree(t, dir), want); d != "" {
		t.Errorf("after the writes:\n%s", d)
	}
}

// TestKeptMarkRecovered: the temporary file a kept mark names (a process
// killed mid-write) is removed by the next recovery, which clears the
// mark's first line; a mark naming anything but a temporary name in a
// folder plans may write removes nothing; only the first line counts.
func TestKeptMarkRecovered(t *testing.T) {
	tmp := "notes/.kessho-tmp-0123456789abcdef"
	for name, c := range map[string]struct{ mark, removes string }{
		"a temporary file":              {tmp + "\n", tmp},
		"one at the top":                {".kessho-tmp-0123456789abcdef\n", ".kessho-tmp-0123456789abcdef"},
		"torn, no newline":              {tmp, tmp},
		"a note":                        {"notes/a.md\n", ""},
		"a dot-folder":                  {".obsidian/.kessho-tmp-0123456789abcdef\n", ""},
		"out of the vault":              {"../.kessho-tmp-0123456789abcdef\n", ""},
		"a folder path, trailing slash": {tmp + "/\n", ""},
		"cleared, a longer path after":  {"\n" + tmp + "\n", ""},
		"a shorter path over a longer":  {".kessho-tmp-0123456789abcdef\n" + "456789abcdef\n", ".kessho-tmp-0123456789abcdef"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"notes/a.md": "A", markFile: c.mark}
			for _, p := range []string{tmp, ".kessho-tmp-0123456789abcdef", ".obsidian/.kessho-tmp-0123456789abcdef"} {
				files[p] = "half a write"
			}
			makeTree(t, dir, files)
			want := readTree(t, dir)
			delete(want, c.removes)
			if err := recoverVault(t, dir); err != nil {
				t.Fatal(err)
			}
			if d := diffTree(readTree(t, dir), want); d != "" {
				t.Errorf("after recovery:\n%s", d)
			}
			if m := markLine(t, dir); m != "" {
				t.Errorf("the mark names %q after recovery", m)
			}
		})
	}
}

// TestKeptMarkNotFollowed: a symbolic link at the kept mark's name is
// neither written through nor read: the write marks its temporary file
// with a file of its own, in the journal folder, and the note the link
// leads to is untouched.
func TestKeptMarkNotFollowed(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{"notes/a.md": "A", "notes/b.md": "notes/.kessho-tmp-x\n", ".kessho/journal/": ""})
	plant(t, dir, markFile, "notes/b.md")
	v := openVault(t, dir)
	var journal []string
	crashHook = func(s string) {
		if s == "write notes/a.md: temp created" {
			journal = journalFiles(t, dir)
		}
	}
	t.Cleanup(func() { crashHook = nil })
	if err := applyLocked(v, plan.Plan{write("notes/a.md", h("A"), "A2")}); err != nil {
		t.Fatal(err)
	}
	if len(journal) != 1 {
		t.Errorf("while the temporary file existed the journal folder held %q, want its mark", journal)
	}
	want := treeOf(map[string]string{"notes/a.md": "A2", "notes/b.md": "notes/.kessho-tmp-x\n"})
	if d := diffTree(readTree(t, dir), want); d != "" {
		t.Errorf("after the write:\n%s", d)
	}
	if j := journalFiles(t, dir); len(j) != 0 {
		t.Errorf("journal folder holds %q", j)
	}
}

// TestKeptMarkHeldOpen: under one hold of the lock, the recovery that read
// the kept mark and every write after it use one descriptor of it (no
// open a write), each write leaving the mark naming nothing; Unlock
// closes it, and the next hold's write opens it again.
func TestKeptMarkHeldOpen(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{"notes/a.md": "A"})
	v := openVault(t, dir)
	if err := applyLocked(v, plan.Plan{write("notes/a.md", h("A"), "A1")}); err != nil {
		t.Fatal(err) // makes the mark file
	}
	l, err := v.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Recover(l); err != nil {
		t.Fatal(err)
	}
	fd := l.mark
	if fd == 0 {
		t.Fatal("the recovery did not keep the mark open")
	}
	for i, text := range []string{"A1", "A2", "A3"} {
		if err := v.Apply(l, plan.Plan{write("notes/a.md", h(text), text+"+")}); err != nil {
			t.Fatal(err)
		}
		if l.mark != fd {
			t.Errorf("write %d used the mark's descriptor %d, not the recovery's %d", i+1, l.mark-1, fd-1)
		}
		if m := markLine(t, dir); m != "" {
			t.Errorf("after write %d the mark names %q", i+1, m)
		}
		if err := v.Apply(l, plan.Plan{write("notes/a.md", h(text+"+"), "A"+string(rune('2'+i)))}); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	if l.mark != 0 {
		t.Error("Unlock left the mark open")
	}
	if err := applyLocked(v, plan.Plan{write("notes/a.md", h("A4"), "A5")}); err != nil {
		t.Fatal(err)
	}
	if d := diffTree(readTree(t, dir), treeOf(map[string]string{"notes/a.md": "A5"})); d != "" {
		t.Errorf("after the writes:\n%s", d)
	}
}
