//go:build linux || darwin || freebsd || netbsd || openbsd

package engine

import (
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// linearMemory backs an instance's WebAssembly memory with its own
// anonymous mapping of the memory's maximum size, outside Go's heap: the
// kernel gives a page only when the core first writes it, growing never
// copies, and closing the instance unmaps it. wazero's default is a Go
// slice grown by append, which copied the whole memory at every growth
// and set Go's collector off while the call held it (RATIONALE.md, "Why
// is the core's memory a mapping of its own?").
type linearMemory struct {
	mem []byte
}

// allocator is the experimental.MemoryAllocator instantiate hands wazero.
var allocator experimental.MemoryAllocator = experimental.MemoryAllocatorFunc(newLinearMemory)

func newLinearMemory(_, max uint64) experimental.LinearMemory {
	if max == 0 {
		return &sliceMemory{}
	}
	mem, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		// No address space for the mapping (a 32-bit process, a ulimit):
		// the memory as wazero would have made it.
		return &sliceMemory{max: max}
	}
	// Huge pages where the kernel has them: a first build writes some
	// 200 MiB of fresh memory, and a fault per 4 KiB page cost a tenth
	// of its time (RATIONALE.md).
	hugePages(mem)
	return &linearMemory{mem: mem}
}

// Reallocate implements experimental.LinearMemory: the mapping's first
// size bytes, nil past its end (the core's memory.grow then fails, which
// the core reports as out of memory).
func (m *linearMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.mem)) {
		return nil
	}
	return m.mem[:size:size]
}

// Free implements experimental.LinearMemory.
func (m *linearMemory) Free() {
	if m.mem != nil {
		_ = syscall.Munmap(m.mem)
		m.mem = nil
	}
}
