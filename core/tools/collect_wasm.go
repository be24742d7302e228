//go:build wasm

package tools

import "runtime"

// collect runs a whole collection of the core's heap, once per batch of a
// search index's build. In the wasm engine Go's collector finished about
// one cycle a batch, whatever the batch allocated (50 to 100 MB at 50,000
// notes): its mark workers run only when the core yields (no preemption
// in wasm), and then, it seems, not for long (their share of the time is
// read from the engine's fake clock, each reading 1 ms later). The heap
// reached three times the live data, and the memory, which a wasm heap
// never gives back, the engine's limit (RATIONALE, "Why is a large index
// handed back every few batches?"). A blocking collection leaves the
// workers the processor until it is done.
func collect() { runtime.GC() }
