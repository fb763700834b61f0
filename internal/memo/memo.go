// Package memo computes a value once per key: the first caller of a key
// computes it, the callers of the same key meanwhile wait for that answer
// (rather than compute it too), and later callers are given it. Callers of
// other keys are not held up by a computation in progress. For what a run
// over files that do not change reads once: a folder's listing, a file, a
// configuration, a session.
package memo

import "sync"

// Map holds the values by key. The zero Map is ready to use, with no
// bound; a Map must not be copied after first use.
type Map[K comparable, V any] struct {
	// Max, when above 0, bounds the keys kept: a key asked once Max are
	// kept is computed for its caller, and not kept.
	Max int

	mu sync.Mutex
	m  map[K]*cell[V]
}

type cell[V any] struct {
	once sync.Once
	v    V
}

// Get returns k's value, computing it with compute when no caller has.
// compute runs without the Map's lock held.
func (m *Map[K, V]) Get(k K, compute func() V) V {
	m.mu.Lock()
	c := m.m[k]
	if c == nil {
		if m.Max > 0 && len(m.m) >= m.Max {
			m.mu.Unlock()
			return compute()
		}
		if m.m == nil {
			m.m = map[K]*cell[V]{}
		}
		c = &cell[V]{}
		m.m[k] = c
	}
	m.mu.Unlock()
	c.once.Do(func() { c.v = compute() })
	return c.v
}
