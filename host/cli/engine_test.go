package cli

import (
	"context"
	"testing"
	"time"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
)

// TestDefaultEngines checks each command's engine without --engine: the
// native one for the one-shot commands (call, the friendly forms, script,
// hygiene), whose whole process is the start-up; the wasm sandbox for
// `kessho mcp`, which starts it once in the background. RATIONALE.md,
// "Why does the CLI run the core natively by default?".
func TestDefaultEngines(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name, flag string
		mcp, wasm  bool
	}{
		{"call", "", false, false},
		{"call --engine wasm", "wasm", false, true},
		{"call --engine native", "native", false, false},
		{"mcp", "", true, true},
		{"mcp --engine native", "native", true, false},
	} {
		dflt := oneShotEngine
		if c.mcp {
			dflt = serverEngine
		}
		eng, err := openEngine(ctx, c.flag, dflt, call.DefaultTimeout)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, isWasm := eng.(*engine.Wasm)
		eng.Close(ctx)
		if isWasm != c.wasm {
			t.Errorf("%s: wasm engine %v, want %v", c.name, isWasm, c.wasm)
		}
	}
}

// TestEngineBoundFollowsTimeout checks that --timeout also bounds one run
// of the wasm core: with the engine's default (10 s), a first search of a
// large vault under --timeout 2m was cut at 10 s and answered as the
// engine's limit.
func TestEngineBoundFollowsTimeout(t *testing.T) {
	ctx := context.Background()
	for _, d := range []time.Duration{2 * time.Minute, 3 * time.Second} {
		eng, err := openEngine(ctx, "wasm", oneShotEngine, d)
		if err != nil {
			t.Fatal(err)
		}
		got := eng.(*engine.Wasm).CallTimeout()
		eng.Close(ctx)
		if got != d {
			t.Errorf("--timeout %v: the engine bounds a run by %v", d, got)
		}
	}
}
