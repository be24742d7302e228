package cli

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// A one-shot command (every one but mcp and script) collects no garbage
// until its heap holds lateHeap bytes: a fresh `kessho search` allocates
// some 30 MB, mostly what it keeps to the end (the notes' versions, the
// index it decodes), and collecting it five times over cost about a
// seventh of the process's CPU. Past lateHeap (a first index build, a
// large vault), collection is back as Go's default (GOGC=100) makes it;
// hardHeap is the memory limit meanwhile, in case the heap outgrows the
// next check. RATIONALE.md, "Why does a one-shot command collect no
// garbage?".
const (
	lateHeap  = 96 << 20
	hardHeap  = 256 << 20
	heapCheck = 5 * time.Millisecond
)

// oneShot reports whether args (without the program's name) run one
// command and end: the process then collects garbage late (collectLate).
func oneShot(args []string) bool {
	_, rest, err := splitGlobals(args)
	return err == nil && len(rest) > 0 && rest[0] != "mcp" && rest[0] != "script"
}

// collectLate turns garbage collection off until the heap's objects reach
// late bytes (checked every check), then back on as Go's default makes
// it; done is closed then. The memory limit hard bounds the heap
// meanwhile. It is for a process that ends soon: collection stays off
// while the heap stays small.
func collectLate(late, hard uint64, check time.Duration) (done <-chan struct{}) {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(int64(hard))
	back := make(chan struct{})
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 || sample[0].Value.Uint64() >= late {
				debug.SetGCPercent(100)
				debug.SetMemoryLimit(math.MaxInt64)
				close(back)
				return
			}
			time.Sleep(check)
		}
	}()
	return back
}
