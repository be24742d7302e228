package engine

import (
	"testing"
	"unsafe"

	"github.com/tetratelabs/wazero/experimental"
)

// TestLinearMemoryGrowsInPlace checks the allocator's memory: it grows
// without moving (so without copying), keeps what was written, starts
// zeroed, and refuses to grow past its maximum.
func TestLinearMemoryGrowsInPlace(t *testing.T) {
	const page = 64 << 10
	for _, tc := range []struct {
		name string
		mem  func() experimental.LinearMemory
	}{
		{"allocator", func() experimental.LinearMemory {
			return allocator.Allocate(page, 64*page)
		}},
		{"slice", func() experimental.LinearMemory {
			return &sliceMemory{max: 64 * page}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.mem()
			defer m.Free()
			a := m.Reallocate(page)
			if len(a) != page {
				t.Fatalf("Reallocate(one page) = %d bytes", len(a))
			}
			a[0], a[page-1] = 7, 9
			b := m.Reallocate(40 * page)
			if len(b) != 40*page || unsafe.SliceData(b) != unsafe.SliceData(a) {
				t.Fatalf("growing to 40 pages moved the memory or gave %d bytes", len(b))
			}
			if b[0] != 7 || b[page-1] != 9 {
				t.Fatal("growing lost what was written")
			}
			for i, c := range b[page:] {
				if c != 0 {
					t.Fatalf("byte %d of the grown memory is %d, not zero", page+i, c)
				}
			}
			if c := m.Reallocate(65 * page); c != nil {
				t.Fatalf("Reallocate past the maximum gave %d bytes; want nil", len(c))
			}
			if c := m.Reallocate(64 * page); len(c) != 64*page {
				t.Fatalf("Reallocate to the maximum gave %d bytes", len(c))
			}
		})
	}
}
