package config

import (
	"path"
	"strings"
)

// Match reports whether name, a slash-separated relative path, matches
// pattern. Within a path segment, `*` matches any run of characters, `?` one
// character, `[abc]`, `[a-z]` and `[^a-z]` one character of a class, and `\`
// escapes the next character (as in path.Match); none of them matches a `/`.
// A segment that is exactly `**` matches zero or more whole segments, so
// `drafts/**` matches everything below drafts and `**/*.draft.md` a draft at
// any depth; `**` inside a segment (`a**b`) is a plain `*`. The pattern is
// anchored at both ends. The only error is path.ErrBadPattern, for a
// malformed pattern, whatever name is.
func Match(pattern, name string) (bool, error) {
	ps := strings.Split(pattern, "/")
	for _, p := range ps {
		if p != "**" {
			if _, err := path.Match(p, ""); err != nil {
				return false, err
			}
		}
	}
	ns := strings.Split(name, "/")
	// ok[i][j]: ps[i:] matches ns[j:]; filled from the ends, so that `**`
	// costs no backtracking.
	ok := make([][]bool, len(ps)+1)
	for i := range ok {
		ok[i] = make([]bool, len(ns)+1)
	}
	ok[len(ps)][len(ns)] = true
	for i := len(ps) - 1; i >= 0; i-- {
		for j := len(ns); j >= 0; j-- {
			if ps[i] == "**" {
				ok[i][j] = ok[i+1][j] || j < len(ns) && ok[i][j+1]
				continue
			}
			if j < len(ns) && ok[i+1][j+1] {
				m, _ := path.Match(ps[i], ns[j])
				ok[i][j] = m
			}
		}
	}
	return ok[0][0], nil
}
