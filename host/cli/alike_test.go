package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/kessho/kessho/core/tools"
	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
	"github.com/kessho/kessho/host/mcp"
	"github.com/kessho/kessho/host/vaultfs"
)

// recorder is the native engine, recording every request it is asked;
// one engine for all its calls, as a process has.
type recorder struct {
	mu       sync.Mutex
	requests []string
	native   engine.Engine
}

func (e *recorder) Call(ctx context.Context, req []byte) ([]byte, error) {
	e.mu.Lock()
	e.requests = append(e.requests, string(req))
	if e.native == nil {
		e.native = engine.Native()
	}
	native := e.native
	e.mu.Unlock()
	return native.Call(ctx, req)
}

func (e *recorder) Close(context.Context) error { return nil }

// alikeLog is a session log of seven blocks (two too many) and priorities
// with one marked stale: a trim has work to do, and then passes.
func alikeVault(t *testing.T) (string, *vaultfs.Vault) {
	t.Helper()
	log := "# Session log\n\n"
	for _, d := range []string{"29", "28", "27", "26", "25", "24", "23"} {
		log += "## 2026-11-" + d + " — s\n**Objective:** o\n**Completed:** c\n**Decisions:** d\n**Open threads:** t\n**Next action:** n\n\n"
	}
	prio := "## Operating Mode: ship\n\n## Tier 1\n- one\n- two #stale\n\nLast reviewed: 2026-11-20\n"
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"SESSION_LOG.md": log, "ACTIVE_PRIORITIES.md": prio} {
		if err := os.WriteFile(filepath.Join(dir, "memory", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v, err := vaultfs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return dir, v
}

// TestHostsEndATrimAlike: a hygiene trim asked through MCP, through
// `kessho hygiene trim --json` and through `kessho hygiene trim` runs the
// same call (the engine sees the same requests, nothing after) and ends
// with the same answer: the JSON form prints the result MCP sends (which
// leaves out summary_md, the model's view), and the plain form's final
// line is that answer's check line.
func TestHostsEndATrimAlike(t *testing.T) {
	now := time.Date(2026, 11, 30, 10, 15, 0, 0, time.UTC)
	opts := call.Options{TZ: "Europe/Paris", Lang: "en"}

	_, v := alikeVault(t)
	viaMCP := &recorder{}
	srv := mcp.NewServer(v, viaMCP, mcp.Options{TZ: opts.TZ, Lang: opts.Lang, Now: func() time.Time { return now }})
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: hygieneTool, Arguments: map[string]any{"action": "trim"}})
	cs.Close()
	ss.Wait()
	if err != nil || res.IsError || len(res.Content) != 1 {
		t.Fatalf("MCP trim: %+v, %v", res, err)
	}
	mcpAnswer := res.Content[0].(*sdk.TextContent).Text
	var ans struct{ Result tools.HygieneResult }
	if err := json.Unmarshal([]byte(mcpAnswer), &ans.Result); err != nil || ans.Result.Trim == nil || !ans.Result.Trim.Trimmed || !ans.Result.Pass {
		t.Fatalf("MCP trim answered %s; want a trim that passes", mcpAnswer)
	}

	for _, asJSON := range []bool{true, false} {
		_, v := alikeVault(t)
		viaCLI := &recorder{}
		var stdout, stderr bytes.Buffer
		env := Env{Stdout: &stdout, Stderr: &stderr}
		r := &runner{ctx: ctx, env: env, eng: viaCLI, v: v, fixed: now, opts: opts}
		if code := hygieneCall(r, "trim", asJSON, opts.Lang, env); code != ExitOK {
			t.Errorf("json %v: exit %d; stderr %s", asJSON, code, stderr.String())
		}
		if strings.Join(viaCLI.requests, "\n") != strings.Join(viaMCP.requests, "\n") {
			t.Errorf("json %v: the CLI asked the engine %d times, MCP %d: the hosts run different calls", asJSON, len(viaCLI.requests), len(viaMCP.requests))
		}
		lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
		if asJSON && !sameResult(stdout.String(), mcpAnswer) {
			t.Errorf("kessho hygiene trim --json printed\n%s\nMCP sent\n%s", stdout.String(), mcpAnswer)
		}
		if !asJSON && lines[len(lines)-1] != ans.Result.Line {
			t.Errorf("kessho hygiene trim ends with %q; the answer's line is %q", lines[len(lines)-1], ans.Result.Line)
		}
	}
}

// sameResult reports whether the CLI's JSON answer holds, summary_md
// aside, the result MCP sent.
func sameResult(cli, mcpText string) bool {
	var a struct{ Result map[string]any }
	var m map[string]any
	if json.Unmarshal([]byte(cli), &a) != nil || json.Unmarshal([]byte(mcpText), &m) != nil {
		return false
	}
	delete(a.Result, "summary_md")
	return reflect.DeepEqual(a.Result, m)
}
