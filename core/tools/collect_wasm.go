//go:build wasm

package tools

import "runtime"

// collect runs a whole collection of the core's heap, once per batch of a
// search index's build. In the wasm engine Go's collector marks only when
// the core yields, and its background worker, timed by the engine's fake
// clock (each reading 1 ms later), stops after a few steps: a cycle then
// spans a whole batch, the heap reached three times the live data, and
// the memory, which a wasm heap never gives back, the engine's limit at
// 50,000 notes (RATIONALE, "Why is a large index handed back every few
// batches?"). A blocking collection leaves the worker alone to finish.
func collect() { runtime.GC() }
