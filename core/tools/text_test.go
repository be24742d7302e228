package tools

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/i18n"
)

// TestTextFiles checks every text file of the tools: it decodes (no key
// that no field takes), every text has English and French with the same
// printf verbs, and every file beside the tools' Go files is loaded.
func TestTextFiles(t *testing.T) {
	loaded := map[string]bool{}
	for _, f := range i18n.Files() {
		loaded[f.Name] = true
		v, err := f.Texts()
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		for _, e := range i18n.Check(v) {
			t.Errorf("%s: %v", f.Name, e)
		}
	}
	on, _ := filepath.Glob("*.yaml")
	for _, name := range on {
		if !loaded[name] {
			t.Errorf("%s is loaded by no Go file (//go:embed and loadText)", name)
		}
	}
}

// TestTextFileParams checks that a tool's text file describes only its
// own parameters, and the shared texts only parameters some tool has: a
// description no parameter takes is a misspelt key.
func TestTextFileParams(t *testing.T) {
	shared := map[string]bool{}
	for _, tool := range All {
		if tool.Spec.Text == nil {
			t.Errorf("%s: its texts are written in Go; move them to its text file (see the package doc)", tool.Spec.Name)
			continue
		}
		paths := tool.Spec.TextPaths()
		for key := range tool.Spec.Text().Params {
			if !slices.Contains(paths, key) {
				t.Errorf("%s: its text file describes %q, which is no parameter of it (paths: %s)", tool.Spec.Name, key, strings.Join(paths, ", "))
			}
		}
		for _, p := range paths {
			shared[p] = true
		}
	}
	for key := range sharedParams().Params {
		if !shared[key] {
			t.Errorf("tools.yaml describes %q, which is no tool's parameter", key)
		}
	}
}

// TestTextFilesAreData checks that the texts left Go: no tool's Go file
// holds a fault.Msg or catalog.Text literal.
func TestTextFilesAreData(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, lit := range []string{"fault.Msg{", "catalog.Text{"} {
			if strings.Contains(string(b), lit) {
				t.Errorf("%s holds a %s…} literal: put the text in its text file", name, lit)
			}
		}
	}
}
