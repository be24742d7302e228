//go:build unix

package engine

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used, user and system: what
// BenchmarkCrossing compares, since wall time on a busy machine counts the
// waits for a CPU too.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
