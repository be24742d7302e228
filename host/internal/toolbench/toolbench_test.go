package toolbench

import (
	"context"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/tools"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/internal/genvault"
	"github.com/kessho/kessho/host/vaultfs"
)

// TestEveryToolMeasured: make bench measures every tool of the catalogue
// (its example), each variant is of a tool of it, and every CLI scenario
// is a scenario.
func TestEveryToolMeasured(t *testing.T) {
	for _, tool := range tools.All {
		if !slices.ContainsFunc(Scenarios, func(s Scenario) bool { return s.Tool == tool.Spec.Name }) {
			t.Errorf("%s has no benchmark scenario", tool.Spec.Name)
		}
	}
	for name, v := range variants {
		if _, ok := tools.Lookup(name); !ok {
			t.Errorf("variants of %s, which is no tool", name)
		}
		for _, sc := range v.more {
			if sc.Tool != name {
				t.Errorf("variant %s of %s calls %s", sc.Name, name, sc.Tool)
			}
		}
	}
	for _, name := range CLIScenarios {
		if _, ok := Lookup(name); !ok {
			t.Errorf("CLI scenario %s is not a scenario", name)
		}
	}
}

// folders lists every folder under dir, dot-folders left out.
func folders(t *testing.T, dir string) []string {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && p != dir {
			return filepath.SkipDir
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestScenariosUndone: on a generated vault, every scenario's call
// succeeds, a call that writes changes the vault, and its undo puts back
// every file and folder as the generator made them; twice in a row, as
// the benchmark's iterations do.
func TestScenariosUndone(t *testing.T) {
	dir := t.TempDir()
	m, err := genvault.Generate(dir, genvault.Config{Notes: 300, Seed: Seed})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := genvault.TreeHash(dir)
	wantDirs := folders(t, dir)
	v, err := vaultfs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	ctx := context.Background()
	for _, sc := range Scenarios {
		args := json.RawMessage(sc.Args(m))
		p, err := DryRun(ctx, v, engine.Native(), sc.Tool, args, opts)
		if err != nil {
			t.Fatalf("%s: %v", sc.Name, err)
		}
		if h, _ := genvault.TreeHash(dir); h != want {
			t.Fatalf("%s: the dry run wrote", sc.Name)
		}
		undo, err := Prepare(dir, p)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			out, err := call.Run(ctx, v, engine.Native(), sc.Tool, args, opts)
			if err != nil || !out.OK {
				t.Fatalf("%s: %s %v", sc.Name, out.Answer, err)
			}
			if h, _ := genvault.TreeHash(dir); (h != want) != (len(p) > 0) {
				t.Errorf("%s: a plan of %d ops, and the vault changed: %v", sc.Name, len(p), h != want)
			}
			if err := undo.Run(); err != nil {
				t.Fatalf("%s: %v", sc.Name, err)
			}
			if h, _ := genvault.TreeHash(dir); h != want {
				t.Fatalf("%s: the undo left the vault changed", sc.Name)
			}
			if got := folders(t, dir); !slices.Equal(got, wantDirs) {
				t.Fatalf("%s: the undo left other folders: %d, want %d", sc.Name, len(got), len(wantDirs))
			}
		}
	}
}
