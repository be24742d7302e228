package vaultfs

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/vault"
)

// answerWith answers need with n read workers.
func answerWith(t *testing.T, v *Vault, n int, need vault.Need, maxBytes int64) (vault.Snapshot, error) {
	t.Helper()
	old := readWorkers
	readWorkers = n
	defer func() { readWorkers = old }()
	var snap vault.Snapshot
	err := v.answer(need, &snap, maxBytes)
	return snap, err
}

// TestAnswerFilesParallel: files read by several workers give the
// snapshot, and the refusal, that reading them one after the other
// gives, whatever order the reads end in: the same texts, hashes and
// missing paths; the file that crosses the budget named, with exactly the
// files before it in the snapshot; a folder asked for as a file refused
// with the files before it read.
func TestAnswerFilesParallel(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	files := map[string]string{}
	var paths []string
	for i := range 300 {
		p := fmt.Sprintf("f%d/n%03d.md", i%7, i)
		text := strings.Repeat(fmt.Sprintf("note %d é ", i), rng.IntN(400))
		if i%23 == 0 {
			text += "\xff\xfe" // not UTF-8
		}
		files[p] = text
		paths = append(paths, p)
		if i%31 == 0 {
			paths = append(paths, fmt.Sprintf("f%d/gone%d.md", i%7, i), fmt.Sprintf("nowhere/%d.md", i))
		}
	}
	makeTree(t, dir, files)
	if err := os.MkdirAll(filepath.Join(dir, "f3", "folder.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	v := openVault(t, dir)
	rng.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
	paths = append(paths, paths[:5]...) // asked twice

	total := int64(0)
	for _, p := range paths[:150] {
		if s := files[p]; !strings.Contains(s, "\xff") {
			total += int64(len(s))
		}
	}
	withFolder := append(append(append([]string{}, paths[:120]...), "f3/folder.md"), paths[120:]...)
	for _, c := range []struct {
		name  string
		need  vault.Need
		max   int64
		code  fault.Code
		path  string
		files int // in the snapshot, refused or not
	}{
		{"all", vault.Need{Files: paths}, 0, "", "", 300},
		{"budget", vault.Need{Files: paths}, total - 1, fault.LimitExceeded, paths[149], -1},
		{"folder", vault.Need{Files: withFolder}, 0, fault.Conflict, "f3/folder.md", -1},
	} {
		seq, seqErr := answerWith(t, v, 1, c.need, c.max)
		for round := range 5 {
			par, parErr := answerWith(t, v, 4, c.need, c.max)
			if c.code == "" {
				if seqErr != nil || parErr != nil {
					t.Fatalf("%s: %v, %v", c.name, seqErr, parErr)
				}
			} else {
				for _, err := range []error{seqErr, parErr} {
					if e := wantCode(t, err, c.code); e.Details["path"] != c.path {
						t.Errorf("%s: refusal %v; want %s naming %s", c.name, e.Details, c.code, c.path)
					}
				}
			}
			if !reflect.DeepEqual(par, seq) {
				t.Fatalf("%s, round %d: %d files and missing %q read in parallel; %d and %q one by one", c.name, round, len(par.Files), par.Missing, len(seq.Files), seq.Missing)
			}
		}
		if c.files >= 0 && len(seq.Files) != c.files {
			t.Errorf("%s: %d files; want %d", c.name, len(seq.Files), c.files)
		}
		for p, f := range seq.Files {
			if f.SHA256 != sha(files[p]) || (f.Text == nil) != strings.Contains(files[p], "\xff") || f.Text != nil && *f.Text != files[p] {
				t.Errorf("%s: Files[%s] = %+v; want its bytes", c.name, p, f)
			}
		}
	}
}
