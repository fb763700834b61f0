// Package ascii holds byte-level text checks that ignore ASCII case, for
// the analyzers' quick rejections before a regular expression runs.
package ascii

// ContainsFold reports whether s holds lower (lower-case ASCII letters) in
// any ASCII case.
func ContainsFold[T ~string | ~[]byte](s T, lower string) bool {
	for i := 0; i+len(lower) <= len(s); i++ {
		if s[i]|0x20 != lower[0] {
			continue
		}
		k := 1
		for k < len(lower) && s[i+k]|0x20 == lower[k] {
			k++
		}
		if k == len(lower) {
			return true
		}
	}
	return false
}
