//go:build unix

package vaultfs

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/internal/enginetest"
)

// TestHistorizeSymlinkedProject: a project whose folder is a symbolic
// link is not historized (moving the link would leave the files where
// they are, and the new context.md would be written through the link):
// INVALID_ARGUMENT naming the link, nothing written.
func TestHistorizeSymlinkedProject(t *testing.T) {
	const ctx = "---\nkind: project\nphase: build\n---\nBody\n"
	for name, eng := range enginetest.Both(t) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			makeTree(t, dir, map[string]string{"elsewhere/beta/context.md": ctx, "10-episodes/projects/alpha/context.md": ctx})
			if err := os.Symlink(filepath.Join("..", "..", "elsewhere", "beta"), filepath.Join(dir, "10-episodes", "projects", "beta")); err != nil {
				t.Fatal(err)
			}
			before := readTree(t, dir)
			v := openVault(t, dir)
			out, err := call.Run(context.Background(), v, eng, "mem_historize", json.RawMessage(`{"slug":"beta"}`), raceOpts)
			if err != nil {
				t.Fatal(err)
			}
			var ans struct {
				OK    bool
				Error struct {
					Code    string
					Message string
					Details map[string]any
				}
			}
			json.Unmarshal(out.Answer, &ans)
			if ans.OK || ans.Error.Code != "INVALID_ARGUMENT" || ans.Error.Details["path"] != "10-episodes/projects/beta" {
				t.Fatalf("answer %s; want INVALID_ARGUMENT naming the link", out.Answer)
			}
			if d := diffTree(readTree(t, dir), before); d != "" {
				t.Errorf("the refused call changed the vault:\n%s", d)
			}
			if j := journalFiles(t, dir); len(j) != 0 {
				t.Errorf("journal left: %q", j)
			}
			// A real folder is historized as ever.
			out, err = call.Run(context.Background(), v, eng, "mem_historize", json.RawMessage(`{"slug":"alpha"}`), raceOpts)
			if err != nil || !out.OK {
				t.Fatalf("historize alpha: %s, %v", out.Answer, err)
			}
		})
	}
}
