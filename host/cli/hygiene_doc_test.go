package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kessho/kessho/host/cli"
)

// docExamples returns the examples of docs/hygiene.md: the fenced block
// after each `<!-- example: NAME -->` line, by NAME.
func docExamples(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "hygiene.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	rest := string(b)
	for {
		_, after, ok := strings.Cut(rest, "<!-- example: ")
		if !ok {
			return out
		}
		name, after, _ := strings.Cut(after, " -->\n")
		open, body, _ := strings.Cut(after, "\n") // the fence's opening line
		fence := strings.TrimRight(open, "abcdefghijklmnopqrstuvwxyz")
		text, after, ok := strings.Cut(body, "\n"+fence+"\n")
		if !ok {
			t.Fatalf("docs/hygiene.md: example %s: its fence %q does not close", name, fence)
		}
		out[name] = text + "\n"
		rest = after
	}
}

// TestHygieneDocExample checks the example pair of docs/hygiene.md: the
// check passes on it and prints the line the page shows, and the trim
// finds nothing to do. The page's format cannot drift from the checker's.
func TestHygieneDocExample(t *testing.T) {
	ex := docExamples(t)
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"memory/SESSION_LOG.md", "memory/ACTIVE_PRIORITIES.md"} {
		text, ok := ex[name]
		if !ok {
			t.Fatalf("docs/hygiene.md has no example %s (found %d examples)", name, len(ex))
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(action string) (string, int) {
		var stdout, stderr bytes.Buffer
		code := cli.Run([]string{"hygiene", action, "--vault", dir, "--now", "2026-12-01T03:15:00+01:00", "--tz", "Europe/Paris"}, cli.Env{
			Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
			Getenv: func(string) string { return "" },
			Getwd:  func() (string, error) { return dir, nil },
		})
		if stderr.Len() > 0 {
			t.Errorf("hygiene %s: stderr %q", action, stderr.String())
		}
		return stdout.String(), code
	}
	out, code := run("check")
	if code != cli.ExitOK || out != ex["check"] {
		t.Errorf("hygiene check on the doc's pair: exit %d, printed\n%s\nthe doc shows\n%s", code, out, ex["check"])
	}
	out, code = run("trim")
	if code != cli.ExitOK || !strings.HasPrefix(out, "nothing to trim: the check already passes\n") {
		t.Errorf("hygiene trim on the doc's pair: exit %d, printed\n%s", code, out)
	}
}
