package analysis

// LongestIncreasing marks the elements that form the longest run whose keys
// strictly increase (the first such run when several are as long); the
// rest are out of order. Rules use it to say which sections moved.
func LongestIncreasing(keys []int) []bool {
	n := len(keys)
	length, prev := make([]int, n), make([]int, n)
	best := -1
	for i := range keys {
		length[i], prev[i] = 1, -1
		for j := range i {
			if keys[j] < keys[i] && length[j]+1 > length[i] {
				length[i], prev[i] = length[j]+1, j
			}
		}
		if best < 0 || length[i] > length[best] {
			best = i
		}
	}
	in := make([]bool, n)
	for i := best; i >= 0; i = prev[i] {
		in[i] = true
	}
	return in
}

// Moved is an element out of the longest increasing run, with where it
// belongs: before the run's first element with a larger key, else after
// its last element with a smaller one (indices into the keys; -1 for none).
type Moved struct {
	I, Before, After int
}

// OutOfOrder lists the elements of keys that LongestIncreasing leaves out,
// in order, each with its place in the run.
func OutOfOrder(keys []int) []Moved {
	in := LongestIncreasing(keys)
	var out []Moved
	for k := range keys {
		if in[k] {
			continue
		}
		m := Moved{I: k, Before: -1, After: -1}
		for j := range keys {
			if !in[j] {
				continue
			}
			if keys[j] > keys[k] && m.Before < 0 {
				m.Before = j
			}
			if keys[j] < keys[k] {
				m.After = j
			}
		}
		out = append(out, m)
	}
	return out
}
