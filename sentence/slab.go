package sentence

// slab hands out float32 slices from one block, front to back. The
// decoded layers are about 20 MB: taken from one block that the system
// can back with large pages, a process faults them in a few times
// instead of five thousand (page faults were half the cost of loading).
type slab struct {
	buf     []float32
	off     int
	spilled bool // some values went to the heap: buf does not hold them all
}

// take returns the next n values, or heap memory once the block is used.
func (s *slab) take(n int) []float32 {
	if s.off+n > len(s.buf) {
		s.spilled = true
		return make([]float32, n)
	}
	out := s.buf[s.off : s.off+n : s.off+n]
	s.off += n
	return out
}
