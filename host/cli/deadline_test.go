package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/internal/enginetest"
	"github.com/kessho/kessho/host/vaultfs"
)

// TestScriptAnswersLineUp: a script whose calls pass their deadline, or
// whose engine fails, still prints exactly one answer a call, in order:
// LIMIT_EXCEEDED for the deadline, INTERNAL for a crash; the calls around
// them run. On both engines. The deadline is counted by a test clock
// that the "blocks" call moves past it: no other call depends on the
// machine's speed.
func TestScriptAnswersLineUp(t *testing.T) {
	for name, inner := range enginetest.Both(t) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "10-episodes", "projects", "alpha")
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(p, "context.md"), []byte("---\nphase: draft\n---\nBody\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			v, err := vaultfs.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			var stdout, stderr bytes.Buffer
			env := Env{Stdout: &stdout, Stderr: &stderr}
			clock := enginetest.NewClock(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
			eng := enginetest.Faulty{Inner: inner, Blocks: func() { clock.Advance(3 * time.Second) }}
			r := &runner{ctx: context.Background(), env: env, eng: eng, v: v, opts: call.Options{TZ: "UTC", Lang: "en", Timeout: 2 * time.Second, Clock: clock}}
			calls := []struct{ phase, want string }{
				{"one", `"ok":true`},
				{"timed-out", `"code":"LIMIT_EXCEEDED"`},
				{"two", `"ok":true`},
				{"blocks", `"code":"LIMIT_EXCEEDED"`},
				{"crashes", `"code":"INTERNAL"`},
				{"three", `"ok":true`},
			}
			var in strings.Builder
			for _, c := range calls {
				fmt.Fprintf(&in, `{"tool":"mem_update_phase","args":{"slug":"alpha","phase":%q}}`+"\n", c.phase)
			}
			if code := script(r, strings.NewReader(in.String()), "test", env); code != ExitToolError {
				t.Errorf("exit %d; want %d", code, ExitToolError)
			}
			lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
			if len(lines) != len(calls) {
				t.Fatalf("%d calls, %d answers:\n%s\nstderr:\n%s", len(calls), len(lines), stdout.String(), stderr.String())
			}
			for i, c := range calls {
				if !json.Valid([]byte(lines[i])) || !strings.Contains(lines[i], c.want) {
					t.Errorf("answer %d (phase %s) = %s; want %s", i+1, c.phase, lines[i], c.want)
				}
			}
			b, _ := os.ReadFile(filepath.Join(p, "context.md"))
			if !strings.Contains(string(b), "phase: three") {
				t.Errorf("context.md = %q; want the last call's phase", b)
			}
		})
	}
}
