package governance

// ParallelFacts is the message length from which the facts are read
// beside the other checks.
func ParallelFacts() int { return parallelFacts }

// SetParallelFacts sets it, and returns what sets it back.
func SetParallelFacts(n int) (restore func()) {
	old := parallelFacts
	parallelFacts = n
	return func() { parallelFacts = old }
}
