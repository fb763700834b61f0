package main

import (
	"os"
	"testing"
)

// stressScale is small in make test and full under make stress
// (BATON_STRESS=1), for the tests of large inputs: they are generated, not
// stored.
func stressScale(small, full int) int {
	if os.Getenv("BATON_STRESS") != "" {
		return full
	}
	if testing.Short() {
		return small / 4
	}
	return small
}
