package vaultfs

import (
	"context"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/fault"
	"github.com/kessho/kessho/core/plan"
	"github.com/kessho/kessho/core/vault"
)

// answer is AnswerContext without a deadline.
func (v *Vault) answer(need vault.Need, snap *vault.Snapshot, maxBytes int64) error {
	return v.AnswerContext(context.Background(), need, snap, maxBytes)
}

// dirMark stands for a folder in a tree map; a key ending in "/" in
// makeTree makes an (empty) folder.
const dirMark = "<dir>"

// makeTree writes files (path → text) under dir; a path ending in "/" is
// a folder.
func makeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, text := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readTree returns everything under dir except .kessho/: files by their
// text, folders as dirMark, symbolic links as "<link:target>". Hidden
// files are included, so a leftover temporary file shows.
func readTree(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".":
			return nil
		case rel == stateDir:
			return filepath.SkipDir
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "<link:" + target + ">"
		case d.IsDir():
			out[rel] = dirMark
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// treeOf returns the readTree form of a makeTree map: files and every
// folder they imply.
func treeOf(files map[string]string) map[string]string {
	out := map[string]string{}
	for p, text := range files {
		if d, ok := strings.CutSuffix(p, "/"); ok {
			p, text = d, dirMark
		}
		out[p] = text
		for d := filepath.ToSlash(filepath.Dir(p)); d != "."; d = filepath.ToSlash(filepath.Dir(d)) {
			out[d] = dirMark
		}
	}
	return out
}

// diffTree describes how got differs from want, "" when equal.
func diffTree(got, want map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if g, ok := got[k]; !ok {
			b.WriteString("  missing " + k + "\n")
		} else if g != want[k] {
			b.WriteString("  " + k + ": got " + quote(g) + ", want " + quote(want[k]) + "\n")
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			b.WriteString("  extra " + k + " = " + quote(got[k]) + "\n")
		}
	}
	return b.String()
}

func quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return "\"" + s + "\""
}

// openVault opens dir as a vault, closed at the test's end.
func openVault(t testing.TB, dir string) *Vault {
	t.Helper()
	v, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return v
}

// lock takes v's lock, released at the test's end.
func lock(t testing.TB, v *Vault) *Lock {
	t.Helper()
	l, err := v.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Unlock() })
	return l
}

// journalFiles lists what is in .kessho/journal.
func journalFiles(t testing.TB, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(journalDir)))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// wantCode fails unless err is a *fault.Error with code.
func wantCode(t testing.TB, err error, code fault.Code) *fault.Error {
	t.Helper()
	e, ok := fault.As(err)
	if !ok || e.Code != code {
		t.Fatalf("err = %v; want a %s fault", err, code)
	}
	return e
}

func ptr(s string) *string { return &s }

func write(p, expect, text string) plan.Op { return plan.WriteOp(p, expect, text) }

func h(s string) string { return plan.HashString(s) }
