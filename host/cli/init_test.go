package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kessho/kessho/core/i18n/i18ntest"
	"github.com/kessho/kessho/host/cli"
)

// initOnTerminal runs `kessho init` on a new folder as from a terminal
// whose user types answers; it returns the folder and what was printed.
func initOnTerminal(t *testing.T, answers string, args ...string) (dir, out, errOut string, code int) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "vault")
	var stdout, stderr bytes.Buffer
	env := cli.Env{
		Stdin: strings.NewReader(answers), Stdout: &stdout, Stderr: &stderr, Terminal: true,
		Getenv: func(string) string { return "" },
		Getwd:  func() (string, error) { return "", os.ErrNotExist },
	}
	code = cli.Run(append([]string{"--vault", dir, "--now", "2026-11-30T10:15:00+01:00", "--tz", "Europe/Paris", "init"}, args...), env)
	return dir, stdout.String(), stderr.String(), code
}

// TestInitAsksFirstProject checks the offer of the first project on a
// terminal: y, a slug refused with the reason and asked again, then a
// valid one and a summary make the project; no, or the end of input, make
// none and say the command to run later.
func TestInitAsksFirstProject(t *testing.T) {
	dir, out, errOut, code := initOnTerminal(t, "y\nweb shop\nalpha\nThe user guide.\n")
	if code != cli.ExitOK {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"The vault has no project yet. Create the first one now? [y/N] ",
		`slug "web shop" holds ' ' at byte 3: a slug is one folder name`,
		"Its summary, one or two sentences (optional): ",
		"Created project **alpha** in 10-episodes/projects/alpha.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "Its slug"); n != 2 {
		t.Errorf("the slug was asked %d times, want 2 (once more after the refusal):\n%s", n, out)
	}
	ctx, err := os.ReadFile(filepath.Join(dir, "10-episodes/projects/alpha/context.md"))
	if err != nil || !strings.Contains(string(ctx), "summary: The user guide.") {
		t.Errorf("context.md = %q, %v; want the summary typed", ctx, err)
	}

	for _, answers := range []string{"n\n", "", "y\n\n"} {
		dir, out, _, code := initOnTerminal(t, answers)
		if code != cli.ExitOK || !strings.Contains(out, `No project created. Later: kessho --vault `+dir+` init SLUG --summary "…"`) {
			t.Errorf("answers %q: exit %d, stdout:\n%s", answers, code, out)
		}
		if entries, _ := os.ReadDir(filepath.Join(dir, "10-episodes/projects")); len(entries) != 0 {
			t.Errorf("answers %q: projects made: %v", answers, entries)
		}
	}

	// In French, "o" is yes.
	dir, out, _, code = initOnTerminal(t, "o\nbeta\n\n", "--lang", "fr")
	if code != cli.ExitOK || !strings.Contains(out, "Créer le premier maintenant ? [o/N] ") {
		t.Errorf("fr: exit %d, stdout:\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "10-episodes/projects/beta/context.md")); err != nil {
		t.Errorf("fr: %v", err)
	}
}

// TestInitTexts checks init.yaml: both languages, the same verbs in each.
func TestInitTexts(t *testing.T) {
	for _, e := range i18ntest.Errors(cli.InitText) {
		t.Error(e)
	}
}
