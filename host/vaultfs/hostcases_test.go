//go:build unix

package vaultfs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/hostlogic"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/host/internal/conformance"
)

// TestHostCases runs the host conformance cases (testdata/hostcases,
// described in its README.md) through Apply and Recover; the plugin runs
// the same files (plugin-shim/tests/host/hostcases.test.ts).
func TestHostCases(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/hostcases/*.txtar")
	if len(files) == 0 {
		t.Fatal("no host cases")
	}
	clock = func() time.Time { return time.Date(2026, 11, 30, 9, 15, 7, 0, time.UTC) }
	defer func() { clock = time.Now }()
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) { runHostCase(t, f) })
	}
}

func runHostCase(t *testing.T, file string) {
	a, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	at, edits, want := "start", map[string][]byte{}, map[string][]byte{}
	var p plan.Plan
	var answer []byte
	for _, line := range strings.Split(string(a.Comment), "\n") {
		if v, ok := strings.CutPrefix(line, "at: "); ok {
			at = v
		}
	}
	for _, f := range a.Files {
		name, data, err := conformance.DecodeSection(f.Name, f.Data)
		if err != nil {
			t.Fatal(err)
		}
		where, rel, _ := strings.Cut(name, "/")
		full := filepath.Join(dir, filepath.FromSlash(rel))
		switch where {
		case "vault", "symlink":
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if where == "symlink" {
				err = os.Symlink(strings.TrimSpace(string(data)), full)
			} else {
				err = os.WriteFile(full, data, 0o644)
			}
		case "edit":
			edits[full] = data
		case "want":
			want[rel] = data
		case "plan.json":
			err = json.Unmarshal(data, &p)
		case "answer.json":
			answer = bytes.TrimSpace(data)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	edit := func() {
		for full, data := range edits {
			os.MkdirAll(filepath.Dir(full), 0o755)
			if err := os.WriteFile(full, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		edits = nil
	}
	if at == "start" {
		edit()
	} else if k, err := strconv.Atoi(strings.TrimPrefix(at, "op ")); err == nil {
		moment := fmt.Sprintf("op %d: recorded done", k-1) // right before op k lands
		if k == 0 {
			moment = "journal: folder synced"
		}
		crashHook = func(s string) {
			if s == moment && edits != nil {
				edit()
			}
		}
		defer func() { crashHook = nil }()
	} else {
		t.Fatalf("at: %s: want start or op <k>", at)
	}
	v := openVault(t, dir)
	l := lock(t, v)
	if p != nil {
		err = v.Apply(l, p)
	} else {
		err = v.Recover(l)
	}
	l.Unlock()
	got := []byte(`{"ok":true}`)
	if e, ok := fault.As(err); ok {
		got = hostlogic.Render(e, "en")
	} else if err != nil {
		t.Fatal(err)
	}
	if edits != nil {
		t.Error("the outside edit was never made")
	}
	if !bytes.Equal(got, answer) {
		t.Errorf("answer:\n got %s\nwant %s", got, answer)
	}
	if d := diffTree(vaultFiles(t, dir), stringTree(want)); d != "" {
		t.Errorf("vault after (want/ sections: every file, .kessho/journal included):\n%s", d)
	}
}

// vaultFiles returns every file under dir (the journal folder's too, but
// not the lock, nor an empty progress file: no op done, as when there is
// none) by its text, a symbolic link as "<link:target>".
func vaultFiles(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	for p, s := range readTree(t, dir) {
		if s != dirMark {
			out[p] = s
		}
	}
	names, _ := os.ReadDir(filepath.Join(dir, filepath.FromSlash(journalDir)))
	for _, n := range names {
		if b, err := fs.ReadFile(os.DirFS(dir), journalDir+"/"+n.Name()); err == nil && len(b) > 0 {
			out[journalDir+"/"+n.Name()] = string(b)
		}
	}
	return out
}

func stringTree(m map[string][]byte) map[string]string {
	out := map[string]string{}
	for p, b := range m {
		out[p] = string(b)
	}
	return out
}
