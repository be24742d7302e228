package engine

// sliceMemory is an instance's memory as a Go slice of its maximum
// capacity, made at once: where no mapping of its own can be made (other
// systems, or the mapping refused), growing still never copies, and Go
// maps so large an allocation lazily too.
type sliceMemory struct {
	max uint64
	mem []byte
}

// Reallocate implements experimental.LinearMemory.
func (m *sliceMemory) Reallocate(size uint64) []byte {
	if m.mem == nil {
		m.mem = make([]byte, 0, max(m.max, size))
	}
	if size > uint64(cap(m.mem)) {
		return nil
	}
	return m.mem[:size:size]
}

// Free implements experimental.LinearMemory.
func (m *sliceMemory) Free() { m.mem = nil }
