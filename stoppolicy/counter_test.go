package stoppolicy

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
)

// TestCounterConcurrentGoroutines: twenty blocks of one session counted at
// once count twenty.
func TestCounterConcurrentGoroutines(t *testing.T) {
	c := Counter{Dir: t.TempDir(), Session: "s-1"}
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			if err := c.add(); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("add: %v", err)
	}
	if got, err := c.count(); err != nil || got != n {
		t.Errorf("count after %d concurrent blocks: %d, %v", n, got, err)
	}
}

// counterChildEnv makes the test binary a hook process that counts
// blocks: TestCounterConcurrentProcesses starts it.
const counterChildEnv = "BATON_COUNTER_CHILD"

// TestCounterConcurrentProcesses: hook processes of one session blocking
// at once (as a host firing its stop hook twice) lose no count.
func TestCounterConcurrentProcesses(t *testing.T) {
	if spec := os.Getenv(counterChildEnv); spec != "" {
		t.Skip("a child process")
	}
	dir := t.TempDir()
	const procs, each = 8, 5
	var wg sync.WaitGroup
	for i := range procs {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^TestCounterChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), counterChildEnv+"="+dir, "BATON_COUNTER_ADDS="+strconv.Itoa(each))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("child %d: %v\n%s", i, err, out)
			}
		})
	}
	wg.Wait()
	c := Counter{Dir: dir, Session: "s-procs"}
	if got, err := c.count(); err != nil || got != procs*each {
		t.Errorf("count after %d processes of %d blocks: %d, %v", procs, each, got, err)
	}
}

// TestCounterChild is the child of TestCounterConcurrentProcesses.
func TestCounterChild(t *testing.T) {
	dir := os.Getenv(counterChildEnv)
	if dir == "" {
		t.Skip("run by TestCounterConcurrentProcesses")
	}
	n, _ := strconv.Atoi(os.Getenv("BATON_COUNTER_ADDS"))
	c := Counter{Dir: dir, Session: "s-procs"}
	for i := range n {
		if err := c.add(); err != nil {
			fmt.Fprintf(os.Stderr, "add %d: %v\n", i, err)
			t.Fatal(err)
		}
	}
}

// TestCounterResetUnderLock: a reset and a count never leave a torn or
// half-written count; the count after is a number.
func TestCounterResetUnderLock(t *testing.T) {
	c := Counter{Dir: t.TempDir(), Session: "s-reset"}
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			if i%4 == 0 {
				c.reset()
				return
			}
			if err := c.add(); err != nil {
				t.Errorf("add: %v", err)
			}
		})
	}
	wg.Wait()
	if n, err := c.count(); err != nil || n < 0 || n > 30 {
		t.Errorf("count: %d, %v", n, err)
	}
	entries, _ := os.ReadDir(c.Dir)
	for _, e := range entries {
		if name := e.Name(); len(name) > 4 && name[len(name)-4:] == ".tmp" {
			t.Errorf("a temporary file left behind: %s", name)
		}
	}
}
