//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package engine

import "github.com/tetratelabs/wazero/experimental"

// allocator is the experimental.MemoryAllocator instantiate hands wazero:
// on this system, the memory as a Go slice of its maximum capacity.
var allocator experimental.MemoryAllocator = experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
	return &sliceMemory{max: max}
})
