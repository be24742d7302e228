package tools

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The throwaway tool TestAddingATool adds: its files (testdata/adding),
// where the recipe puts them, and its line in All.
var (
	recipeFiles = map[string]string{
		"peek_phase.go":    "core/tools/peek_phase.go",
		"peek_phase.yaml":  "core/tools/peek_phase.yaml",
		"peek-phase.txtar": "testdata/cases/peek-phase.txtar",
	}
	recipeAllLine = "\t{peekPhaseSpec, typed(peekPhase)},\n"
	// recipeMade are the files the recipe's two regenerations rewrite.
	recipeMade = []string{"docs/reference.md", "host/mcp/testdata/clients/calls.json", "host/mcp/testdata/clients/tools.json"}
)

// recipeChecks are the tests run in the copy: those that fail when a new
// tool misses an edit (its example, its case, a file left stale, a hand
// list somewhere). Native engine only: the wasm module is not built.
var recipeChecks = [][]string{
	{"./core/tools", "-skip", "^TestAddingATool$"},
	{"./host/internal/conformance", "-run", "^(TestCases|TestAnswersIndented|TestAnswerCompacted)$", "-native"},
	{"./host/mcp", "-run", "^(TestClientsFiles|TestClientsCalls|TestOutputSchemas|TestServedOutputSchemas|TestAnnotationsTellTheTruth|TestListTools)$"},
	{"./host/internal/toolbench", "-run", "^(TestEveryToolMeasured|TestScenariosUndone)$"},
}

// TestAddingATool proves the package doc's recipe ("Adding a tool"): in a
// copy of the repository's files (git ls-files: tracked, and new ones not
// ignored), it adds a throwaway tool, mem_peek_phase, exactly as the
// recipe says — its Go file and text file here, one line in All, one
// conformance case — regenerates the two things the recipe regenerates
// (make docs's docs/reference.md; host/mcp's TestClientsFiles
// -update-clients), checks that nothing else changed, and runs the tests
// that would catch a missing edit (recipeChecks). Any other file a new
// tool needs edited makes one of them fail. It costs a copy of the files
// and a build of the packages tested (go test -trimpath in the copy).
func TestAddingATool(t *testing.T) {
	if testing.Short() {
		t.Skip("copies the repository and runs go test in the copy")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copied := copyRepo(t, root, dir)
	for from, to := range recipeFiles {
		b, err := os.ReadFile(filepath.Join("testdata", "adding", from))
		if err != nil {
			t.Fatal(err)
		}
		writeIn(t, dir, to, b)
	}
	addToAll(t, dir)
	reference := goIn(t, dir, "run", "./host/cmd/docgen") // make docs
	writeIn(t, dir, "docs/reference.md", reference)
	goIn(t, dir, "test", "-count=1", "./host/mcp", "-run", "^TestClientsFiles$", "-update-clients")
	want := append([]string{"core/tools/tools.go"}, recipeMade...)
	for _, to := range recipeFiles {
		want = append(want, to)
	}
	slices.Sort(want)
	if got := changedFiles(t, root, dir, copied); !slices.Equal(got, want) {
		t.Fatalf("the recipe changed %q; want %q", got, want)
	}
	for _, check := range recipeChecks {
		goIn(t, dir, append([]string{"test", "-count=1"}, check...)...)
	}
}

// copyRepo copies the repository's files (git ls-files, tracked and new
// ones not ignored, as the work tree holds them) from root into dir, and
// returns their names.
func copyRepo(t *testing.T, root, dir string) []string {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("git ls-files (the test copies the repository's git files): %v", err)
	}
	var names []string
	for _, name := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted in the work tree
		} else if err != nil {
			t.Fatal(err)
		}
		writeIn(t, dir, name, b)
		names = append(names, name)
	}
	return slices.Compact(slices.Sorted(slices.Values(names)))
}

// writeIn writes b to the file name (slash-separated) under dir.
func writeIn(t *testing.T, dir, name string, b []byte) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// addToAll adds the throwaway tool's line to All in the copy's tools.go,
// after mem_list's (All is sorted by name).
func addToAll(t *testing.T, dir string) {
	t.Helper()
	name := filepath.Join(dir, "core", "tools", "tools.go")
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	after := []byte("\t{listSpec, typed(listTool)},\n")
	if bytes.Count(b, after) != 1 {
		t.Fatalf("tools.go: no one line %q in All", after)
	}
	b = bytes.Replace(b, after, append(after, recipeAllLine...), 1)
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// goIn runs the go command in dir with args (-trimpath, so that the
// copy's packages that did not change are cached across runs) and returns
// its standard output; it fails the test with its output when go fails.
func goIn(t *testing.T, dir string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-trimpath")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s in the copy: %v\n%s%s", strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return out
}

// changedFiles returns the files of dir that differ from root's copied
// files (names), and those dir holds that root had none of: what the
// recipe changed.
func changedFiles(t *testing.T, root, dir string, names []string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		now, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if _, found := slices.BinarySearch(names, name); !found {
			out = append(out, name)
		} else if was, err := os.ReadFile(filepath.Join(root, rel)); err != nil || !bytes.Equal(now, was) {
			out = append(out, name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
