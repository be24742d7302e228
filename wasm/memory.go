//go:build wasip1

package main

import "runtime/debug"

// softLimit is the heap Go's collector keeps the module under, working
// harder as it nears it: the engine caps the module's memory
// (engine.DefaultMemoryLimitPages, 256 MiB) and a Go heap in wasm never
// shrinks. A first build of a 50,000-note search index, in batches whose
// buffers grow with the index, peaked at 422 MiB without it and 284 MiB
// with it (measured 2026-12-01; still over the cap: see docs/PERFORMANCE.md).
const softLimit = 192 << 20

func init() { debug.SetMemoryLimit(softLimit) }
