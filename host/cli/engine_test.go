package cli

import (
	"context"
	"testing"

	"kessho/host/engine"
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
		eng, err := openEngine(ctx, c.flag, dflt)
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
