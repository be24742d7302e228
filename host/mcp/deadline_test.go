package mcp_test

import (
	"testing"
	"time"

	"github.com/kessho/kessho/host/internal/enginetest"
	"github.com/kessho/kessho/host/mcp"
)

// TestDeadline: a call that passes its deadline answers LIMIT_EXCEEDED,
// as the CLI does, never INTERNAL; the next call runs. On both engines.
// The deadline is counted by a test clock that the "blocks" call moves
// past it: no other call depends on the machine's speed.
func TestDeadline(t *testing.T) {
	for name, inner := range enginetest.Both(t) {
		t.Run(name, func(t *testing.T) {
			dir := newVault(t, "alpha")
			clock := enginetest.NewClock(fixedNow)
			eng := enginetest.Faulty{Inner: inner, Blocks: func() { clock.Advance(3 * time.Second) }}
			srv := mcp.NewServer(openVault(t, dir), eng,
				mcp.Options{TZ: "Europe/Paris", Now: func() time.Time { return fixedNow }, Timeout: 2 * time.Second, Clock: clock})
			cs := connect(t, srv)
			for _, phase := range []string{"timed-out", "blocks"} {
				res, a := call(t, cs, "mem_update_phase", map[string]any{"slug": "alpha", "phase": phase})
				if !res.IsError || a.Error == nil || a.Error.Code != "LIMIT_EXCEEDED" || a.Error.Details["timeout_ms"] != 2000.0 {
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
