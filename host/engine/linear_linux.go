package engine

import "syscall"

// hugePages asks the kernel for transparent huge pages over mem (where
// they are enabled as "madvise", Debian's default): fewer faults, and
// fewer TLB misses.
func hugePages(mem []byte) { _ = syscall.Madvise(mem, syscall.MADV_HUGEPAGE) }
