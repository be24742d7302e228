package conformance

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/kessho/kessho/host/call"
	"github.com/kessho/kessho/host/engine"
)

// benchEngines returns the native engine and a warm wasm engine.
func benchEngines(b *testing.B) map[string]call.Engine {
	w, err := engine.NewWasm(context.Background(), engine.WasmOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { w.Close(context.Background()) })
	return map[string]call.Engine{"native": engine.Native(), "wasm": w}
}

const benchContext = `---
# kessho-docs — edited by hand and by agents
slug: kessho-docs
kind: project
phase: 'draft'   # draft → review → published
summary: "Writing the user guide; the install chapter is done."
tags: [project, docs, "writing"]
aliases:
  - user guide
last-session: 2026-11-27T17:40:00+01:00
repo_path: /home/ada/src/kessho
---
# Kessho docs — context

## Where we are
The install chapter is done and reviewed. The CLI chapter is half written.

## Decisions
- Use the vault layout of memory-kit as it is: no migration step.
`

// BenchmarkCore is the core alone on a mem_update_phase request that holds
// everything it needs (no disk, no host): the engines' own cost. The whole
// host calls, on generated vaults of 1k to 50k notes, are measured by
// github.com/kessho/kessho/host/internal/toolbench (`make bench`).
func BenchmarkCore(b *testing.B) {
	text := benchContext
	req, _ := json.Marshal(map[string]any{
		"tool": "mem_update_phase", "args": map[string]string{"slug": "kessho-docs", "phase": "review"},
		"now": "2026-11-30T10:15:00+01:00", "tz": "Europe/Paris",
		"files": map[string]any{
			"10-episodes/projects/kessho-docs/context.md": map[string]any{"sha256": "00", "text": text},
		},
		"missing": []string{"10-episodes/domains", "10-episodes/archived"},
		"dirs":    map[string][]string{"10-episodes/projects": {"kessho-docs/"}},
	})
	for name, eng := range benchEngines(b) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := eng.Call(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
