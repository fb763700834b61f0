// Package conformance holds baton to the projects that define its formats:
// its tests run the fixtures of their own test suites (kept in the shared
// corpus, with the verdict each of their tests expects) through baton, and
// assert baton's verdict equals theirs, fixture by fixture. It has no code
// of its own.
package conformance
