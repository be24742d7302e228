//go:build wasip1

package main

import "runtime/debug"

// softLimit is the heap Go's collector keeps the module under, working
// harder as it nears it: the engine caps the module's memory
// (engine.DefaultMemoryLimitPages, 384 MiB) and a Go heap in wasm never
// shrinks. A first build of a 50,000-note search index, in batches whose
// buffers grew with the index, peaked at 422 MiB without it and 284 MiB
// with it; it fits since a large index is handed back every few batches
// and the core collects once a batch (peak 164 MiB, 2026-12-01: RATIONALE,
// "Why is a large index handed back every few batches?"). A 128 MiB
// limit, tried before those collections, peaked at 182 MiB against 205:
// the collector's cycles lagged, not its target. At 100,000 notes the
// last call of a first build peaks at 281–291 MiB (the decoded index, the
// batch, the index handed back: BenchmarkFirstBuildCalls), over the
// soft limit, which then makes the collector work harder without failing.
const softLimit = 192 << 20

func init() { debug.SetMemoryLimit(softLimit) }
