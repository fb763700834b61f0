package transcript

// SetTailWindow sets how much of a JSON-lines file ReadTail reads, for a
// test, and returns what puts it back.
func SetTailWindow(w int64) (restore func()) {
	old := tailWindow
	tailWindow = w
	return func() { tailWindow = old }
}
