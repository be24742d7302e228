package mcp_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"kessho/host/engine"
	"kessho/host/mcp"
)

// deadlineEngine runs requests through inner, except a phase "timed-out",
// which fails as an engine fails at its deadline, and a phase "blocks",
// which waits until the call's context ends.
type deadlineEngine struct{ inner mcp.Engine }

func (e deadlineEngine) Call(ctx context.Context, req []byte) ([]byte, error) {
	switch {
	case bytes.Contains(req, []byte(`"phase":"timed-out"`)):
		return nil, fmt.Errorf("engine: call: %w", context.DeadlineExceeded)
	case bytes.Contains(req, []byte(`"phase":"blocks"`)):
		<-ctx.Done()
		return nil, fmt.Errorf("engine: call: %w", ctx.Err())
	}
	return e.inner.Call(ctx, req)
}

func (e deadlineEngine) Close(ctx context.Context) error { return e.inner.Close(ctx) }

// TestDeadline: a call that passes its deadline answers LIMIT_EXCEEDED,
// as the CLI does, never INTERNAL; the next call runs. On both engines.
func TestDeadline(t *testing.T) {
	ctx := context.Background()
	w, err := engine.NewWasm(ctx, engine.WasmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(ctx)
	for name, inner := range map[string]mcp.Engine{"native": engine.Native(), "wasm": w} {
		t.Run(name, func(t *testing.T) {
			dir := newVault(t, "alpha")
			srv := mcp.NewServer(openVault(t, dir), deadlineEngine{inner},
				mcp.Options{TZ: "Europe/Paris", Now: func() time.Time { return fixedNow }, Timeout: 300 * time.Millisecond})
			cs := connect(t, srv)
			for _, phase := range []string{"timed-out", "blocks"} {
				res, a := call(t, cs, "mem_update_phase", map[string]any{"slug": "alpha", "phase": phase})
				if !res.IsError || a.Error == nil || a.Error.Code != "LIMIT_EXCEEDED" || a.Error.Details["timeout_ms"] != 300.0 {
					t.Errorf("phase %s: answer %+v; want LIMIT_EXCEEDED naming the deadline", phase, a.Error)
				}
			}
			if got := phaseOf(contextOf(t, dir, "alpha")); got != "start" {
				t.Errorf("phase %q written; want none", got)
			}
			if res, a := call(t, cs, "mem_update_phase", map[string]any{"slug": "alpha", "phase": "next"}); res.IsError || !a.OK {
				t.Errorf("the next call: %+v", a.Error)
			}
		})
	}
}
