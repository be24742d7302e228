package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
)

// meddler is an engine that lets another writer (Obsidian, git) change a
// file between the tool's reads and the host's writes: right after the
// engine's final answer, before the plan is applied.
type meddler struct {
	inner call.Engine
	path  string
	data  []byte
}

func (m *meddler) Call(ctx context.Context, req []byte) ([]byte, error) {
	ans, err := m.inner.Call(ctx, req)
	if err == nil && !bytes.HasPrefix(ans, []byte(`{"need"`)) {
		if err := os.WriteFile(m.path, m.data, 0o644); err != nil {
			return nil, err
		}
	}
	return ans, err
}

// TestConflict: a file the tool read and that changed before the write
// makes the call fail with CONFLICT naming it, and nothing is written.
func TestConflict(t *testing.T) {
	tests := []struct {
		tool, args, changed string
	}{
		{"mem_update_phase", `{"slug":"site-perso","phase":"relecture"}`, "10-episodes/projects/site-perso/context.md"},
		{"mem_archive", `{"slug":"site-perso","mode":"full","archive_subject":"S","archive_body_md":"B","no_derived_because":"x"}`, "10-episodes/projects/site-perso/history.md"},
		{"mem_rollback_archive", `{"slug":"site-perso"}`, "10-episodes/projects/site-perso/archives/2026-11-26-18h20-site-perso-migration-des-articles.md"},
		{"mem_historize", `{"slug":"site-perso"}`, "10-episodes/projects/site-perso/context.md"},
	}
	for name, eng := range engines(t) {
		for _, tt := range tests {
			t.Run(name+"/"+tt.tool, func(t *testing.T) {
				dir := memoryKit(t)
				v := openVault(t, dir)
				m := &meddler{inner: eng, path: filepath.Join(dir, filepath.FromSlash(tt.changed)), data: []byte("changed by someone else\n")}
				out, err := call.Run(context.Background(), v, m, tt.tool, json.RawMessage(tt.args),
					call.Options{Now: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC), TZ: "Europe/Paris"})
				if err != nil {
					t.Fatal(err)
				}
				var ans struct {
					OK    bool
					Error struct {
						Code    string
						Details map[string]any
					}
				}
				json.Unmarshal(out.Answer, &ans)
				if ans.OK || ans.Error.Code != "CONFLICT" || ans.Error.Details["path"] != tt.changed {
					t.Fatalf("answer %s; want CONFLICT naming %s", out.Answer, tt.changed)
				}
				want, _ := ReadTree(memoryKit(t))
				want[tt.changed] = m.data
				got, _ := ReadTree(dir)
				if d := diffTrees(got, want); d != "" {
					t.Errorf("the vault changed beyond the meddler's write:\n%s", d)
				}
			})
		}
	}
}

// TestEngineLimit: a call over one of the engine's bounds is refused with
// LIMIT_EXCEEDED, as a tool error, and writes nothing.
func TestEngineLimit(t *testing.T) {
	ctx := context.Background()
	small, err := engine.NewWasm(ctx, engine.WasmOptions{MaxRequest: 512})
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close(ctx)
	dir := memoryKit(t)
	v := openVault(t, dir)
	before, _ := ReadTree(dir)
	out, err := call.Run(ctx, v, small, "mem_list", nil, call.Options{TZ: "Europe/Paris"})
	if err != nil {
		t.Fatal(err)
	}
	if out.OK || !strings.Contains(string(out.Answer), `"code":"LIMIT_EXCEEDED"`) || !strings.Contains(string(out.Answer), "over the limit of 512") {
		t.Fatalf("answer %s; want LIMIT_EXCEEDED naming the bound", out.Answer)
	}
	after, _ := ReadTree(dir)
	if d := diffTrees(after, before); d != "" {
		t.Errorf("the vault changed:\n%s", d)
	}
}
