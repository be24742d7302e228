//go:build unix

package toolbench

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSS is a finished child's peak resident memory in bytes, from the
// rusage wait4 returned.
func maxRSS(st *os.ProcessState) int64 {
	ru, ok := st.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) // bytes there, kilobytes on Linux
	}
	return int64(ru.Maxrss) << 10
}
