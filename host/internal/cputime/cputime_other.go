//go:build !unix

package cputime

import "time"

var started = time.Now()

// Process is the wall time since the process started where the CPU time
// is not at hand.
func Process() time.Duration { return time.Since(started) }
