package packet

// SetParallel makes the packets of every document, whatever its size, be
// read in n runs at once (n < 2: one after the other), until restore.
func SetParallel(n int) (restore func()) {
	from, r := parallelFrom, readers
	parallelFrom, readers = 0, func() int { return n }
	return func() { parallelFrom, readers = from, r }
}
