package vaultfs

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/vault"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
)

// caseInsensitive stands for a disk that ignores case (macOS's APFS,
// Windows), which this machine's is not: a name is looked up whatever its
// case, and the entry's own name is read back from the folder's listing.
// verify false stands for a host that trusts what a lookup by name finds.
func caseInsensitive(t *testing.T, v *Vault, verify bool) {
	t.Helper()
	own := func(d *os.File, name string) (string, bool) {
		des, err := readDirents(d)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Seek(0, 0); err != nil {
			t.Fatal(err)
		}
		for _, de := range des {
			if strings.EqualFold(de.name, name) {
				return de.name, true
			}
		}
		return "", false
	}
	v.lookup = &nameLookup{
		stat: func(d *os.File, dir, name string) (fs.FileInfo, error) {
			if real, ok := own(d, name); ok {
				name = real
			}
			return v.lstatAt(d, dir, name)
		},
		exact: func(*os.File) bool { return !verify },
		name: func(d *os.File, _, name string, _ fs.FileInfo) (string, bool, error) {
			real, _ := own(d, name)
			return real, true, nil
		},
	}
}

// TestMatchByNameIgnoringCase: on a disk that ignores case, a match of
// the plain name Foo finds the folder foo by name; the host reads the
// entry's own name back and selects nothing, as a listing would, so that
// a slug typed Foo answers UNKNOWN_SLUG naming foo and never edits foo
// silently. The exact name is still found by name.
func TestMatchByNameIgnoringCase(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{"10-episodes/projects/foo/context.md": "---\nslug: foo\n---\n"})
	v := openVault(t, dir)
	caseInsensitive(t, v, true)
	for name, want := range map[string][]string{"Foo": {}, "FOO": {}, "foo": {"foo/"}} {
		m := vault.Match{Dir: "10-episodes/projects", Patterns: []string{name}}
		var snap vault.Snapshot
		if err := v.answer(vault.Need{Matches: []vault.Match{m}}, &snap, 0); err != nil {
			t.Fatal(err)
		}
		if got := snap.Matches[m.Key()]; !reflect.DeepEqual(got, want) {
			t.Errorf("match %s = %q; want %q", name, got, want)
		}
	}
}

// TestSlugCaseOnCaseInsensitiveDisk: on a disk that ignores case, a tool
// called with slug Foo when the project is foo answers UNKNOWN_SLUG with
// the exact slug to use, and writes nothing.
func TestSlugCaseOnCaseInsensitiveDisk(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir, map[string]string{"10-episodes/projects/foo/context.md": "---\nslug: foo\nphase: build\n---\n# Foo\n"})
	v := openVault(t, dir)
	caseInsensitive(t, v, true)
	out, err := call.Run(context.Background(), v, engine.Native(), "mem_update_phase", json.RawMessage(`{"slug":"Foo","phase":"review"}`), call.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ans map[string]map[string]any
	_ = json.Unmarshal(out.Answer, &ans) // "ok" is no object: left out
	if e := ans["error"]; e == nil || e["code"] != "UNKNOWN_SLUG" || e["details"].(map[string]any)["use"] != "foo" {
		t.Errorf("mem_update_phase with slug Foo: %s; want UNKNOWN_SLUG using foo", out.Answer)
	}
	if b, _ := os.ReadFile(dir + "/10-episodes/projects/foo/context.md"); !strings.Contains(string(b), "phase: build") {
		t.Errorf("foo's context was written:\n%s", b)
	}
}
