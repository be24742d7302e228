package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/kessho/kessho/core/tools"
	"github.com/kessho/kessho/host/cli"
)

// runCheck runs kessho check in dir with args and returns stdout and the
// exit code; stderr must stay empty.
func runCheck(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Run(append([]string{"--vault", dir, "--engine", "native", "check"}, args...), cli.Env{
		Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
		Getenv: func(string) string { return "" },
		Getwd:  func() (string, error) { return filepath.Dir(dir), nil },
	})
	if stderr.Len() > 0 {
		t.Errorf("check %v: stderr %q", args, stderr.String())
	}
	return stdout.String(), code
}

func copyDemo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	if err := os.CopyFS(dir, os.DirFS("../../testdata/demo/vault")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCheckDemoVaultIsSound(t *testing.T) {
	out, code := runCheck(t, copyDemo(t))
	if code != cli.ExitOK || !strings.HasPrefix(out, "The vault is sound: ") {
		t.Errorf("check on the demo vault: exit %d, printed %q; want 0 and sound", code, out)
	}
}

// TestCheckKitFixtures checks the memory-kit fixtures: the project's
// hand-made one is sound; the one the kit's conventions describe (its
// index.md notes link each context.md by its whole path) holds what the
// kit's own health scan reports there and nothing else: its four
// histories in the kit's older form, with no frontmatter, lack the
// `display` the kit's conventions want (missing-display).
func TestCheckKitFixtures(t *testing.T) {
	checkFixture(t, "memory-kit", nil)
	var want []string
	for _, h := range []string{"archived/vieux-site", "domains/infra", "domains/worklogs", "projects/webshop"} {
		want = append(want, "DISPLAY_MISSING missing-display 10-episodes/"+h+"/history.md")
	}
	checkFixture(t, "kit-conventions", want)
}

// checkFixture runs kessho check --format json on the fixture vault name
// and wants its findings ("CODE kit path"): none, the vault sound, exit 0.
func checkFixture(t *testing.T, name string, want []string) {
	ar, err := txtar.ParseFile("../../testdata/vaults/" + name + ".txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "vault")
	for _, f := range ar.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, code := runCheck(t, dir, "--format", "json")
	var res tools.CheckResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("check on %s: %v: %s", name, err, out)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Code+" "+f.Kit+" "+f.Path)
	}
	slices.Sort(got)
	if wantCode := map[bool]int{true: cli.ExitOK, false: cli.ExitToolError}[len(want) == 0]; code != wantCode || !slices.Equal(got, want) || res.Sound != (len(want) == 0) {
		t.Errorf("check on %s: exit %d, findings %v; want exit %d and %v", name, code, got, wantCode, want)
	}
}

// TestCheckPlantedGitHub plants findings in a copy of the demo vault:
// --format github prints exactly one annotation for each, the path
// relative to the working directory; --repair fixes the history ones and
// leaves the rest.
func TestCheckPlantedGitHub(t *testing.T) {
	dir := copyDemo(t)
	write := func(p, text string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("20-knowledge/broken.md", "# Broken\n\nSee [[kessho-docs/contxt]], then, line 5, [[no, such: note]].\n")
	write("20-knowledge/dup.md", "---\ntitle: a\ntitle: b\n---\n")
	write("10-episodes/projects/kessho-docs/archives/2026-11-30-08h00-kessho-docs-unlisted.md", "unlisted\n")
	out, code := runCheck(t, dir, "--format", "github")
	got := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{
		"::error file=vault/10-episodes/projects/kessho-docs/archives/2026-11-30-08h00-kessho-docs-unlisted.md,title=ARCHIVE_NOT_IN_HISTORY::the archive is in no line of history.md — add its history line (mem_check repair does it)",
		"::error file=vault/20-knowledge/broken.md,line=3,title=BROKEN_LINK::the wikilink [[kessho-docs/contxt]] names no note — link [[10-episodes/projects/kessho-docs/context]] instead, or create the note",
		"::error file=vault/20-knowledge/broken.md,line=3,title=BROKEN_LINK::the wikilink [[no, such: note]] names no note — create the note, or remove the link",
		"::error file=vault/20-knowledge/dup.md,line=3,title=FRONTMATTER_DUPLICATE_KEY::frontmatter: mapping key \"title\" already defined at line 2 — keep one of the keys",
	}
	if code != cli.ExitToolError || !slices.Equal(got, want) {
		t.Errorf("check --format github: exit %d, printed\n%s\nwant exit 1 and\n%s", code, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	out, code = runCheck(t, dir, "--repair")
	if code != cli.ExitToolError || !strings.Contains(out, "Repaired (1):") || !strings.Contains(out, "Left to a person (3):") {
		t.Errorf("check --repair: exit %d, printed\n%s", code, out)
	}
	out, _ = runCheck(t, dir, "--format", "github")
	if n := strings.Count(out, "::error "); n != 3 || strings.Contains(out, "ARCHIVE_NOT_IN_HISTORY") {
		t.Errorf("after the repair:\n%s\nwant the 3 findings left to a person", out)
	}
}

func TestCheckUsage(t *testing.T) {
	for _, args := range [][]string{{"--format", "xml"}, {"extra"}, {"--format"}} {
		var stdout, stderr bytes.Buffer
		code := cli.Run(append([]string{"--vault", t.TempDir(), "check"}, args...), cli.Env{
			Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
			Getenv: func(string) string { return "" }, Getwd: os.Getwd,
		})
		if code != cli.ExitUsage || !strings.Contains(stderr.String(), "usage: kessho") {
			t.Errorf("check %v: exit %d, stderr %q; want 2 and the usage", args, code, stderr.String())
		}
	}
}
