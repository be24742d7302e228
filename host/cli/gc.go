package cli

import (
	"runtime"
	"runtime/debug"
)

// A one-shot command (every one but mcp and script) collects no garbage
// until its memory reaches lateHeap bytes: a fresh `kessho search`
// allocates some 30 MB, mostly what it keeps to the end (the notes'
// versions, the index it decodes), and collecting it five times over cost
// about a seventh of the process's CPU. Past lateHeap (a first index
// build, a large vault), collection is back, at lateGCPercent. RATIONALE.md, "Why does a one-shot command collect no
// garbage?".
const lateHeap = 96 << 20

// lateGCPercent and lateLimit are how a one-shot command collects once
// its heap has passed lateHeap: a heap may grow to five times what it
// keeps between collections (GOGC=400) rather than twice, under a soft
// limit of 2 GiB near which Go collects more often. A `kessho check` of
// 50,000 notes keeps some 250 MB and allocates ten times that: at Go's
// default (GOGC=100) collecting took a third of its CPU
// (docs/PERFORMANCE.md, "kessho check at 50k").
const (
	lateGCPercent = 400
	lateLimit     = 2 << 30
)

// oneShot reports whether args (without the program's name) run one
// command and end: the process then collects garbage late (collectLate).
func oneShot(args []string) bool {
	_, rest, err := splitGlobals(args)
	return err == nil && len(rest) > 0 && rest[0] != "mcp" && rest[0] != "script"
}

// collectLate turns garbage collection off until the process's memory
// reaches late bytes, then back on at lateGCPercent under lateLimit;
// done is closed then. It is for a process that ends soon: collection stays off
// while the heap stays small.
//
// Nothing polls: the memory limit, late, starts the first collection,
// and the finalizer of an object dropped here runs once that collection
// has found it unreachable, and lifts the limit (so that Go never
// collects continuously against it). A short command thus wakes no
// timer and no goroutine of its own.
func collectLate(late uint64) (done <-chan struct{}) {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(int64(late))
	back := make(chan struct{})
	// A pointer in it keeps it out of the tiny allocator, whose objects'
	// finalizers may never run.
	s := &struct{ _ *byte }{}
	runtime.SetFinalizer(s, func(*struct{ _ *byte }) {
		debug.SetGCPercent(lateGCPercent)
		debug.SetMemoryLimit(lateLimit)
		close(back)
	})
	return back
}
