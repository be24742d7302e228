package vaultfs

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/vault"
)

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// filesTree and filesNeed are a vault of a few kinds of file and a need
// for each of them and for paths that are missing or run through a file
// (TestAnswerFiles, and the Linux reads' TestReadBeneathOneOpen).
var (
	filesTree = map[string]string{
		"notes/a.md":  "# A\nhello\n",
		"notes/é.md":  "accents: é, ü\n",
		"empty.md":    "",
		"img/bin.png": "\x89PNG\xff\xfe\x00",
		"plain":       "not a folder",
	}
	filesNeed = vault.Need{Files: []string{"notes/a.md", "notes/é.md", "empty.md", "img/bin.png", "nope.md", "gone/deep/x.md", "plain/x.md"}}
)

func TestAnswerFiles(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, filesTree)
	v := openVault(t, dir)
	var snap vault.Snapshot
	err := v.answer(filesNeed, &snap, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"notes/a.md", "notes/é.md", "empty.md"} {
		raw, _ := os.ReadFile(filepath.Join(dir, p))
		f, ok := snap.Files[p]
		if !ok || f.Text == nil || *f.Text != string(raw) || f.SHA256 != sha(string(raw)) || f.NotUTF8 {
			t.Errorf("Files[%q] = %+v; want text %q, sha256 %s", p, f, raw, sha(string(raw)))
		}
	}
	if f := snap.Files["img/bin.png"]; !f.NotUTF8 || f.Text != nil || f.SHA256 != sha("\x89PNG\xff\xfe\x00") {
		t.Errorf("Files[img/bin.png] = %+v; want NotUTF8, no text, the bytes' hash", f)
	}
	wantMissing := []string{"gone/deep/x.md", "nope.md", "plain/x.md"}
	if !reflect.DeepEqual(snap.Missing, wantMissing) {
		t.Errorf("Missing = %q; want %q", snap.Missing, wantMissing)
	}

	// Asking again adds nothing and keeps what is there.
	before := len(snap.Files)
	if err := v.answer(vault.Need{Files: []string{"notes/a.md", "nope.md"}}, &snap, 0); err != nil {
		t.Fatal(err)
	}
	if len(snap.Files) != before || len(snap.Missing) != len(wantMissing) {
		t.Errorf("a second Answer changed the snapshot: %d files, missing %q", len(snap.Files), snap.Missing)
	}
}

func TestAnswerDirs(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{
		"10-episodes/projects/b/context.md": "b",
		"10-episodes/projects/a/context.md": "a",
		"10-episodes/projects/z.md":         "z",
		"10-episodes/projects/.hidden.md":   "h",
		"10-episodes/projects/.trash/":      "",
		"10-episodes/projects/odd:name.md":  "colon",
		"10-episodes/projects/empty/":       "",
		".obsidian/app.json":                "{}",
		"top.md":                            "t",
	})
	v := openVault(t, dir)
	var snap vault.Snapshot
	if err := v.answer(vault.Need{Dirs: []string{"10-episodes/projects", ".", "20-knowledge", "10-episodes/projects/empty"}}, &snap, 0); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"10-episodes/projects":       {"a/", "b/", "empty/", "z.md"},
		".":                          {"10-episodes/", "top.md"},
		"10-episodes/projects/empty": {},
	}
	if !reflect.DeepEqual(snap.Dirs, want) {
		t.Errorf("Dirs = %q; want %q", snap.Dirs, want)
	}
	if !reflect.DeepEqual(snap.Missing, []string{"20-knowledge"}) {
		t.Errorf("Missing = %q; want [20-knowledge]", snap.Missing)
	}
	if len(snap.Files) != 0 {
		t.Errorf("Files = %v; a folder need reads no file", snap.Files)
	}
}

func TestAnswerWrongKind(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{"folder/x.md": "x", "file.md": "f"})
	v := openVault(t, dir)
	for _, need := range []vault.Need{
		{Files: []string{"folder"}},
		{Dirs: []string{"file.md"}},
		{Trees: []vault.Tree{{Root: "file.md"}}},
	} {
		var snap vault.Snapshot
		e := wantCode(t, v.answer(need, &snap, 0), fault.Conflict)
		if p := e.Details["path"]; p != "folder" && p != "file.md" {
			t.Errorf("Answer(%+v): details %v; want the path", need, e.Details)
		}
	}
}

func TestAnswerTree(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{
		"20-knowledge/a.md":          "A",
		"20-knowledge/sub/b.md":      "B",
		"20-knowledge/sub/deep/c.md": "C",
		"20-knowledge/sub/none/":     "",
		"20-knowledge/.git/x":        "secret",
		"20-knowledge/bin.dat":       "\xff",
		"other/d.md":                 "D",
	})
	// A link back to an enclosing folder must not make the walk loop.
	if err := os.Symlink("..", filepath.Join(dir, "20-knowledge/sub/loop")); err != nil {
		t.Fatal(err)
	}
	v := openVault(t, dir)

	var snap vault.Snapshot
	if err := v.answer(vault.Need{Trees: []vault.Tree{{Root: "20-knowledge"}, {Root: "50-goals"}}}, &snap, 0); err != nil {
		t.Fatal(err)
	}
	wantDirs := map[string][]string{
		"20-knowledge":          {"a.md", "bin.dat", "sub/"},
		"20-knowledge/sub":      {"b.md", "deep/", "none/"},
		"20-knowledge/sub/deep": {"c.md"},
		"20-knowledge/sub/none": {},
	}
	if !reflect.DeepEqual(snap.Dirs, wantDirs) {
		t.Errorf("Dirs = %q; want %q", snap.Dirs, wantDirs)
	}
	if len(snap.Files) != 0 {
		t.Errorf("a tree without content read files: %v", snap.Files)
	}
	if !reflect.DeepEqual(snap.Missing, []string{"50-goals"}) {
		t.Errorf("Missing = %q; want [50-goals]", snap.Missing)
	}

	snap = vault.Snapshot{}
	if err := v.answer(vault.Need{Trees: []vault.Tree{{Root: "20-knowledge", Content: true}}}, &snap, 0); err != nil {
		t.Fatal(err)
	}
	var got []string
	for p, f := range snap.Files {
		text := "<not utf-8>"
		if f.Text != nil {
			text = *f.Text
		}
		got = append(got, p+"="+text)
	}
	want := []string{"20-knowledge/a.md=A", "20-knowledge/bin.dat=<not utf-8>", "20-knowledge/sub/b.md=B", "20-knowledge/sub/deep/c.md=C"}
	if !sameSet(got, want) {
		t.Errorf("Files = %q; want %q", got, want)
	}

	// The whole vault: "." lists the root; folders are keyed clean.
	snap = vault.Snapshot{}
	if err := v.answer(vault.Need{Trees: []vault.Tree{{Root: "."}}}, &snap, 0); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(snap.Dirs["."], []string{"20-knowledge/", "other/"}) || !reflect.DeepEqual(snap.Dirs["other"], []string{"d.md"}) {
		t.Errorf("tree of . gave Dirs %q", snap.Dirs)
	}
}

func sameSet(a, b []string) bool {
	m := map[string]int{}
	for _, s := range a {
		m[s]++
	}
	for _, s := range b {
		m[s]--
	}
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return len(a) == len(b)
}

func TestAnswerLimit(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{
		"a.md":    strings.Repeat("a", 100),
		"b.md":    strings.Repeat("b", 50),
		"big.bin": strings.Repeat("\xff", 1000),
	})
	v := openVault(t, dir)

	// Exactly the bound fits; a NotUTF8 file counts for nothing.
	var snap vault.Snapshot
	if err := v.answer(vault.Need{Files: []string{"a.md", "b.md", "big.bin"}}, &snap, 150); err != nil {
		t.Fatalf("Answer within the bound: %v", err)
	}

	// One byte less: the file that crosses it is named.
	snap = vault.Snapshot{}
	err := v.answer(vault.Need{Files: []string{"a.md", "b.md"}}, &snap, 149)
	if e := wantCode(t, err, fault.LimitExceeded); e.Details["path"] != "b.md" {
		t.Errorf("LIMIT_EXCEEDED details %v; want path b.md", e.Details)
	}

	// Text the snapshot already holds counts.
	snap = vault.Snapshot{Files: map[string]vault.File{"x.md": {SHA256: sha("xx"), Text: ptr(strings.Repeat("x", 100))}}}
	err = v.answer(vault.Need{Files: []string{"b.md"}}, &snap, 120)
	wantCode(t, err, fault.LimitExceeded)

	// Trees count too.
	snap = vault.Snapshot{}
	err = v.answer(vault.Need{Trees: []vault.Tree{{Root: ".", Content: true}}}, &snap, 120)
	wantCode(t, err, fault.LimitExceeded)
}

func TestAnswerBadPaths(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{"ok.md": "ok", ".obsidian/x": "x", "a/b": "b", "b": "b"})
	v := openVault(t, dir)
	for _, bad := range []string{"../x", "/etc/passwd", ".obsidian/x", "a/../b", "", "a//b", "./ok.md", "a\\b", ".kessho/lock", "C:x"} {
		for _, need := range []vault.Need{
			{Files: []string{"ok.md", bad}},
			{Files: []string{"ok.md"}, Dirs: []string{bad}},
			{Files: []string{"ok.md"}, Trees: []vault.Tree{{Root: bad}}},
		} {
			var snap vault.Snapshot
			err := v.answer(need, &snap, 0)
			if err == nil {
				t.Errorf("Answer(%+v) = nil; want a refusal", need)
				continue
			}
			if e := wantCode(t, err, fault.Internal); e.Details["path"] != bad {
				t.Errorf("Answer(%+v): details %v; want path %q", need, e.Details, bad)
			}
			if !reflect.DeepEqual(snap, vault.Snapshot{}) {
				t.Errorf("Answer(%+v) read %+v before refusing", need, snap)
			}
		}
	}
	// "." is the vault's root for folders and trees, never a file.
	var snap vault.Snapshot
	if err := v.answer(vault.Need{Files: []string{"."}}, &snap, 0); err == nil {
		t.Errorf("Answer(Files: [.]) = nil; want a refusal")
	}
}

func TestAnswerSymlinks(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	makeTree(t, dir, map[string]string{"notes/a.md": "inside"})
	makeTree(t, outside, map[string]string{"secret.md": "SECRET", "sub/s.md": "SECRET"})
	for link, target := range map[string]string{
		"out":            outside,                             // a folder outside, absolute
		"leak.md":        filepath.Join(outside, "secret.md"), // a file outside
		"notes/up":       "../..",                             // relative, climbing out
		"notes/alias.md": "a.md",                              // inside: followed
		"dangling.md":    "nowhere.md",                        // broken
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	v := openVault(t, dir)

	for _, p := range []string{"out/secret.md", "out/sub/s.md", "leak.md", "notes/up/x.md"} {
		var snap vault.Snapshot
		err := v.answer(vault.Need{Files: []string{p}}, &snap, 0)
		if err == nil || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("Answer(Files: %s) = %v; want a refusal", p, err)
		}
		if len(snap.Files) != 0 {
			t.Errorf("Answer(Files: %s) read %v", p, snap.Files)
		}
		wantCode(t, err, fault.Conflict)
	}
	for _, d := range []string{"out", "out/sub", "notes/up"} {
		var snap vault.Snapshot
		if err := v.answer(vault.Need{Dirs: []string{d}}, &snap, 0); err == nil {
			t.Errorf("Answer(Dirs: %s) = nil, listed %q; want a refusal", d, snap.Dirs)
		}
	}

	var snap vault.Snapshot
	if err := v.answer(vault.Need{Files: []string{"notes/alias.md"}, Trees: []vault.Tree{{Root: ".", Content: true}}}, &snap, 0); err != nil {
		t.Fatal(err)
	}
	if f := snap.Files["notes/alias.md"]; f.Text == nil || *f.Text != "inside" {
		t.Errorf("a link inside the vault was not followed: %+v", f)
	}
	if !reflect.DeepEqual(snap.Dirs["."], []string{"notes/"}) || !reflect.DeepEqual(snap.Dirs["notes"], []string{"a.md", "alias.md"}) {
		t.Errorf("listings show links they cannot follow: %q", snap.Dirs)
	}
	for p, f := range snap.Files {
		if f.Text != nil && strings.Contains(*f.Text, "SECRET") {
			t.Errorf("the tree read %s from outside the vault", p)
		}
	}
}

// TestEscapeText pins the text of os.Root's refusal, which escapes
// recognises (os does not export the error).
func TestEscapeText(t *testing.T) {
	r, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Stat("../x"); !escapes(err) {
		t.Fatalf("escapes(%v) = false; os.Root's error changed, update escapes", err)
	}
	if _, err := r.Stat("nope"); escapes(err) {
		t.Fatalf("escapes(%v) = true", err)
	}
}

func TestReadCapped(t *testing.T) {
	long := strings.Repeat("é€𝄞a", 40000) // runes of 2, 3 and 4 bytes across chunk ends
	cases := []struct {
		name   string
		in     string
		budget int64
		text   bool // valid UTF-8
		kept   bool // text returned
	}{
		{"empty", "", 0, true, true},
		{"fits", "abc", 3, true, true},
		{"over", "abcd", 3, true, false},
		{"unbounded", long, -1, true, true},
		{"long over", long, int64(len(long)) - 1, true, false},
		{"cut rune at end", long + "\xe2\x82", -1, false, false},
		{"bad byte", "ab\xffcd", -1, false, false},
		{"bad byte over budget", strings.Repeat("x", 100) + "\xff", 10, false, false},
	}
	for _, c := range cases {
		for _, oneByte := range []bool{false, true} {
			var r io.Reader = strings.NewReader(c.in)
			if oneByte {
				r = iotest.OneByteReader(r)
			}
			text, sum, isText, err := readCapped(r, c.budget)
			if err != nil {
				t.Fatal(err)
			}
			if sum != sha(c.in) || isText != c.text || (text != nil) != c.kept || (c.kept && string(text) != c.in) {
				t.Errorf("readCapped(%s, one byte at a time: %v) = text %v, utf8 %v, hash ok %v; want utf8 %v, text %v",
					c.name, oneByte, text != nil, isText, sum == sha(c.in), c.text, c.kept)
			}
		}
	}
}
