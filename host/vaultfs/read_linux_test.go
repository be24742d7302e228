//go:build linux

package vaultfs

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/vault"
)

// countOpenat2 counts the openat2 calls of readBeneath until the test ends,
// and makes every other one fail with EINTR first when interrupt is set,
// as a signal would: the read must make it again.
func countOpenat2(t *testing.T, interrupt bool) *int {
	t.Helper()
	calls, n := new(int), 0
	openat2 = func(dirfd int, path string, how *unix.OpenHow) (int, error) {
		n++
		if interrupt && n%2 == 1 {
			return -1, syscall.EINTR
		}
		*calls++
		return unix.Openat2(dirfd, path, how)
	}
	t.Cleanup(func() { openat2 = unix.Openat2 })
	return calls
}

// TestReadBeneathOneOpen: on Linux a file is read with one openat2 from
// the vault's handle (interrupted ones made again), missing files and
// missing folders on the way included, with the same snapshot os.Root
// gives.
func TestReadBeneathOneOpen(t *testing.T) {
	for _, interrupt := range []bool{false, true} {
		dir := t.TempDir()
		makeTree(t, dir, filesTree)
		v := openVault(t, dir)
		need := filesNeed
		calls := countOpenat2(t, interrupt)
		var got vault.Snapshot
		if err := v.answer(need, &got, 0); err != nil {
			t.Fatal(err)
		}
		if *calls != len(need.Files) {
			t.Errorf("interrupted %v: %d openat2 for %d files; want one each", interrupt, *calls, len(need.Files))
		}
		// What os.Root reads, file by file.
		want := vault.Snapshot{Files: map[string]vault.File{}, Dirs: map[string][]string{}}
		for _, p := range need.Files {
			r := v.readRoot(p, -1)
			switch {
			case r.err != nil:
				t.Fatalf("readRoot(%s): %v", p, r.err)
			case r.missing:
				want.Missing = append(want.Missing, p)
			case r.isText:
				s := string(r.text)
				want.Files[p] = vault.File{SHA256: r.sum, Text: &s}
			default:
				want.Files[p] = vault.File{SHA256: r.sum, NotUTF8: true}
			}
		}
		slices.Sort(want.Missing)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("interrupted %v: snapshot\n%+v\nwant (os.Root's)\n%+v", interrupt, got, want)
		}
	}
}

// TestReadBeneathChangedWhileRead: a file that grows or shrinks between
// the fstat that gave its size and the read is read to its end as it is
// then, its hash that of the bytes read; one that grows past the budget
// is refused.
func TestReadBeneathChangedWhileRead(t *testing.T) {
	const first = "# Note\nfirst text\n"
	for _, c := range []struct {
		name   string
		change func(f *os.File) error
		want   string
	}{
		{"grows", func(f *os.File) error {
			_, err := f.WriteString("grown " + strings.Repeat("x", 70000) + "\n")
			return err
		}, first + "grown " + strings.Repeat("x", 70000) + "\n"},
		{"grows by a byte", func(f *os.File) error { _, err := f.WriteString("!"); return err }, first + "!"},
		{"shrinks", func(f *os.File) error { return f.Truncate(7) }, first[:7]},
		{"grows invalid", func(f *os.File) error { _, err := f.WriteString("\xff"); return err }, first + "\xff"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			makeTree(t, dir, map[string]string{"n.md": first})
			v := openVault(t, dir)
			changed := false
			readHook = func() {
				if changed {
					return
				}
				changed = true
				f, err := os.OpenFile(filepath.Join(dir, "n.md"), os.O_WRONLY|os.O_APPEND, 0)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				if err := c.change(f); err != nil {
					t.Fatal(err)
				}
			}
			defer func() { readHook = nil }()
			var snap vault.Snapshot
			if err := v.answer(vault.Need{Files: []string{"n.md"}}, &snap, 0); err != nil {
				t.Fatal(err)
			}
			if !changed {
				t.Fatal("the file was not read by readBeneath")
			}
			f := snap.Files["n.md"]
			if f.SHA256 != sha(c.want) {
				t.Errorf("hash %s; want the hash of the bytes as read (%d bytes)", f.SHA256, len(c.want))
			}
			valid := !strings.Contains(c.want, "\xff")
			if valid && (f.Text == nil || *f.Text != c.want || f.NotUTF8) || !valid && (f.Text != nil || !f.NotUTF8) {
				t.Errorf("file %+v; want text %v of %d bytes", f, valid, len(c.want))
			}
		})
	}

	// Grown past the budget between the fstat and the read: refused.
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{"n.md": first})
	v := openVault(t, dir)
	readHook = func() {
		readHook = nil
		if err := os.WriteFile(filepath.Join(dir, "n.md"), []byte(first+strings.Repeat("y", 100)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer func() { readHook = nil }()
	var snap vault.Snapshot
	err := v.answer(vault.Need{Files: []string{"n.md"}}, &snap, int64(len(first)+50))
	if e := wantCode(t, err, fault.LimitExceeded); e.Details["path"] != "n.md" {
		t.Errorf("details %v; want path n.md", e.Details)
	}
}

// TestReadBeneathLinksAndOddFiles: a path with a symbolic link in its
// middle or at its end is read as os.Root reads it (followed inside the
// vault, refused out of it), and a named pipe is refused without the
// read waiting for a writer.
func TestReadBeneathLinksAndOddFiles(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	makeTree(t, dir, map[string]string{"notes/deep/a.md": "inside", "notes/b.md": "b"})
	makeTree(t, outside, map[string]string{"deep/secret.md": "SECRET"})
	for link, target := range map[string]string{
		"alias":           "notes",                                           // a folder inside, relative
		"notes/mid":       "deep",                                            // in the middle of a path
		"notes/deep/l.md": "../b.md",                                         // a file inside
		"notes/out":       outside,                                           // a folder outside
		"notes/rel":       filepath.Join("..", "..", filepath.Base(outside)), // relative, climbing out
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := unix.Mkfifo(filepath.Join(dir, "notes", "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	v := openVault(t, dir)
	var snap vault.Snapshot
	if err := v.answer(vault.Need{Files: []string{"alias/deep/a.md", "notes/mid/a.md", "notes/deep/l.md", "alias/mid/l.md"}}, &snap, 0); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{"alias/deep/a.md": "inside", "notes/mid/a.md": "inside", "notes/deep/l.md": "b", "alias/mid/l.md": "b"} {
		if f := snap.Files[p]; f.Text == nil || *f.Text != want {
			t.Errorf("Files[%s] = %+v; want %q through links inside the vault", p, f, want)
		}
	}
	for _, p := range []string{"notes/out/deep/secret.md", "alias/out/deep/secret.md", "notes/rel/deep/secret.md", "notes/pipe.md"} {
		var snap vault.Snapshot
		err := v.answer(vault.Need{Files: []string{p}}, &snap, 0)
		if e := wantCode(t, err, fault.Conflict); e.Details["path"] != p || len(snap.Files) != 0 {
			t.Errorf("Answer(%s): %v, read %v; want CONFLICT naming it", p, err, snap.Files)
		}
	}
}

// TestOpenDirBeneath: a folder is opened with one openat2 beneath the
// vault's handle (interrupted ones made again), and listed as os.Root
// lists it: a missing one recorded missing, a file refused, a link to a
// folder inside the vault followed, one leading out refused.
func TestOpenDirBeneath(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	makeTree(t, dir, map[string]string{"a/x.md": "x", "a/b/y.md": "y", "file.md": "f"})
	makeTree(t, outside, map[string]string{"secret.md": "SECRET"})
	if err := os.Symlink("a", filepath.Join(dir, "alias")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	v := openVault(t, dir)
	for _, interrupt := range []bool{false, true} {
		calls := countOpenat2(t, interrupt)
		var snap vault.Snapshot
		if err := v.answer(vault.Need{Dirs: []string{".", "a", "a/b", "nope", "a/nope/deeper", "alias/b"}}, &snap, 0); err != nil {
			t.Fatal(err)
		}
		want := map[string][]string{".": {"a/", "alias/", "file.md"}, "a": {"b/", "x.md"}, "a/b": {"y.md"}, "alias/b": {"y.md"}}
		if !reflect.DeepEqual(snap.Dirs, want) || !slices.Equal(snap.Missing, []string{"a/nope/deeper", "nope"}) {
			t.Errorf("interrupted %v: dirs %q, missing %q; want %q", interrupt, snap.Dirs, snap.Missing, want)
		}
		if *calls < 6 {
			t.Errorf("interrupted %v: %d openat2 for 6 folders; want one each", interrupt, *calls)
		}
	}
	for _, p := range []string{"file.md", "out", "alias/x.md"} {
		var snap vault.Snapshot
		err := v.answer(vault.Need{Dirs: []string{p}}, &snap, 0)
		if e := wantCode(t, err, fault.Conflict); e.Details["path"] != p || len(snap.Dirs) != 0 {
			t.Errorf("Answer(Dirs: %s): %v, listed %q; want CONFLICT naming it", p, err, snap.Dirs)
		}
	}
}
