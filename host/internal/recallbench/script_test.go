package recallbench

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The vault in testdata/recall is exactly what Kessho's tools write when
// they replay script.txt: no note of the benchmark was written by hand.
func TestVaultIsTheScriptsOutput(t *testing.T) {
	f, err := os.Open(filepath.Join(benchDir, "script.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	steps, err := ParseScript(f)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	if err := Build(context.Background(), tmp, steps); err != nil {
		t.Fatal(err)
	}
	got := t.TempDir() + "/v"
	if err := CopyNotes(tmp, got); err != nil {
		t.Fatal(err)
	}
	want := readTree(t, filepath.Join(benchDir, "vault"))
	have := readTree(t, got)
	for p, w := range want {
		if h, ok := have[p]; !ok {
			t.Errorf("%s: in testdata/recall/vault, not written by the script", p)
		} else if h != w {
			t.Errorf("%s differs from what the script writes (run make recall-vault)", p)
		}
	}
	for p := range have {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: written by the script, missing from testdata/recall/vault", p)
		}
	}
}

func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestParseScriptRefusesUnknownKeys(t *testing.T) {
	for _, bad := range []string{
		"=== archive a 2026-01-01T10:00\ncolour: blue\n",
		"=== frobnicate a 2026-01-01T10:00\n",
		"=== init a project 2026-01-01T10:00\n---\nbody\n",
		"=== archive a 2026-01-01T10:00\nderive: knowledge | no body\n",
	} {
		if _, err := ParseScript(stringsReader(bad)); err == nil {
			t.Errorf("ParseScript(%q) accepted it", bad)
		}
	}
}
