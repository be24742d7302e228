//go:build unix

package toolbench

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used, user and system:
// BenchmarkTools reports it per call (cpu-ms/op), which a machine's other
// load disturbs far less than the wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
