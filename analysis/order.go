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
