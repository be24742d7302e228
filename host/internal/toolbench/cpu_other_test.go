//go:build !unix

package toolbench

import "time"

var started = time.Now()

// processCPU is the wall time since the benchmark started where the CPU
// time is not at hand.
func processCPU() time.Duration { return time.Since(started) }
