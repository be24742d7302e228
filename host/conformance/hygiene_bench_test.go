package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"kessho/host/call"
	"kessho/host/vaultfs"
)

// hygieneLog returns a SESSION_LOG.md of at least size bytes: well-formed
// blocks, one a day going back from 2026-11-29.
func hygieneLog(size int) string {
	var b strings.Builder
	b.WriteString("# Session log\n\nNewest first.\n\n")
	day := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	for b.Len() < size {
		d := day.Format("2006-01-02")
		fmt.Fprintf(&b, "## %s — session %s\n**Objective:** keep the nightly check under budget on %s\n"+
			"**Completed:** parser, masking, the counts\n**Decisions:** follow the reference checker literally\n"+
			"**Open threads:** none\n**Next action:** benchmark the next size\n\n", d, d, d)
		day = day.AddDate(0, 0, -1)
	}
	return b.String()
}

// BenchmarkHygieneCheck2MB checks a 2 MiB SESSION_LOG.md through the whole
// host call (lock, journal recovery, two rounds: the need, then the
// answer with both files read from disk), with the native and the wasm
// engine, warm: one call before the timer. Budget: 200 ms a call on wasm.
func BenchmarkHygieneCheck2MB(b *testing.B) {
	dir := b.TempDir()
	log := hygieneLog(2 << 20)
	prio := "## Operating Mode: build\n\n## Tier 1\n- ship\n\nLast reviewed: 2026-11-20\n"
	writeFile(b, dir, "memory/SESSION_LOG.md", log)
	writeFile(b, dir, "memory/ACTIVE_PRIORITIES.md", prio)
	v, err := vaultfs.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	ctx := context.Background()
	opts := call.Options{Now: time.Date(2026, 11, 30, 9, 15, 0, 0, time.UTC), TZ: "Europe/Paris"}
	args := json.RawMessage(`{"action":"check"}`)
	for name, eng := range benchEngines(b) {
		b.Run(name, func(b *testing.B) {
			callTool := func() {
				out, err := call.Run(ctx, v, eng, "mem_context_hygiene", args, opts)
				if err != nil || !out.OK || !strings.Contains(string(out.Answer), `"line":"CONTEXT_HYGIENE FAIL session_entries=`) {
					b.Fatalf("check: %.200s, %v", out.Answer, err)
				}
			}
			callTool() // warm
			b.SetBytes(int64(len(log) + len(prio)))
			b.ResetTimer()
			for b.Loop() {
				callTool()
			}
		})
	}
}
