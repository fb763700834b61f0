package stoppolicy

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
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
			if _, _, err := c.add(1000); err != nil {
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
		if _, _, err := c.add(1000); err != nil {
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
			if _, _, err := c.add(1000); err != nil {
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

// TestMaxBlocksConcurrentStops: stops of one session evaluated at once,
// each with a message that blocks, never block more than MaxBlocks times
// in a row. Each block takes the count from below the bound to one more,
// and only a release at the bound starts it afresh, so the blocks are at
// most MaxBlocks for each release and once more before the first. Read,
// decide and add one apart, fifty stops all read a count of 0 and all
// blocked.
func TestMaxBlocksConcurrentStops(t *testing.T) {
	for _, c := range []struct {
		name         string
		maxBlocks    int
		noActiveFlag bool
	}{
		{"after a block, max 1", 1, false},
		{"after a block, max 2", 2, false},
		{"host without the flag, max 1", 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := Options{MaxBlocks: c.maxBlocks, Lint: true, StateDir: t.TempDir()}
			cwd := t.TempDir()
			const stops = 50
			outcomes := make([]Outcome, stops)
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i := range stops {
				wg.Go(func() {
					<-start
					// Each message its own, so that none is a duplicate delivery.
					s := Stop{Host: "codex", SessionID: "concurrent", Cwd: cwd, Message: autoContinue + strings.Repeat("\n", i),
						Active: !c.noActiveFlag, NoActiveFlag: c.noActiveFlag}
					if c.noActiveFlag {
						s.Host = "copilot"
					}
					outcomes[i] = Evaluate(s, o)
				})
			}
			close(start)
			wg.Wait()
			var blocks, releases int
			for i, out := range outcomes {
				switch {
				case out.Reason != "":
					blocks++
				case strings.Contains(out.Released, "(--max-blocks)"):
					releases++
				default:
					t.Errorf("stop %d neither blocked nor released at the bound: %+v", i, out)
				}
			}
			if blocks > c.maxBlocks*(releases+1) {
				t.Errorf("%d blocks and %d releases of %d stops: more than %d blocks in a row", blocks, releases, stops, c.maxBlocks)
			}
			if n, err := (Counter{Dir: o.StateDir, Session: "concurrent"}).count(); err != nil || n > c.maxBlocks {
				t.Errorf("count after the stops: %d, %v", n, err)
			}
		})
	}
}
