package hosts

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestStopHookLatency measures, in each real host, how long baton's stop
// hook takes from its start to its reply, over conversational stops,
// blocked packets and fixed ones, in a scratch repository and in one of
// 10,000 committed files with uncommitted changes (where the turn's
// baseline, the work tree's state, is the part that grows). It is a
// measurement, not a test of speed (the hooks installed with
// --require-packet, so that every stop reads the work tree): it asserts only that the hooks ran,
// and prints p50 and p99 per host and repository. Opt in with
// BATON_E2E_LATENCY=1 (docs/performance.md has the figures).
//
// The time is taken around the baton process the host starts (a wrapper
// in the hook's PATH records its start and end), so it holds baton's
// start-up and everything it reads, and none of the host's own work.
func TestStopHookLatency(t *testing.T) {
	if os.Getenv("BATON_E2E_LATENCY") == "" {
		t.Skip("a measurement: set BATON_E2E_LATENCY=1 to run it")
	}
	baton := batonBinary(t)
	const rounds = 10
	type host struct {
		name string
		run  func(t *testing.T, s *scratch, m *modelMock, i int)
	}
	hosts := []host{
		{"claude", func(t *testing.T, s *scratch, m *modelMock, i int) {
			runClaude(t, s, hostBinary(t, "claude", "claude"), m, newUUID(t), false, fmt.Sprintf("Question %d", i))
		}},
		{"codex", func(t *testing.T, s *scratch, m *modelMock, i int) {
			if i == 0 {
				writeCodexConfig(t, s, m)
			}
			runCodex(t, s, hostBinary(t, "codex", "codex"), "", fmt.Sprintf("Question %d", i))
		}},
		{"gemini", func(t *testing.T, s *scratch, m *modelMock, i int) {
			if i == 0 {
				writeGeminiSettings(t, s)
			}
			runGemini(t, s, geminiBinary(t), m, fmt.Sprintf("Question %d", i))
		}},
		{"copilot", func(t *testing.T, s *scratch, m *modelMock, i int) {
			if i == 0 {
				trustCopilotFolder(t, s)
			}
			runCopilot(t, s, filepath.Join(cacheDir(t), "copilot", "bin", "copilot"), m, fmt.Sprintf("Question %d", i))
		}},
	}
	for _, files := range []int{0, 10000} {
		for _, h := range hosts {
			t.Run(fmt.Sprintf("%s/%d-files", h.name, files), func(t *testing.T) {
				s := newScratch(t, baton)
				log := timedBaton(t, s, baton)
				if files > 0 {
					bigRepo(t, s, files)
				}
				s.run(t, s.repo, s.baton, "hook", "install", "--host", h.name, "--project", "--require-packet")
				// Each round: a conversational reply, then the bad packet
				// blocked and the fixed one passing.
				var script []string
				for i := range rounds {
					script = append(script, fmt.Sprintf("Reply %d.", i), badPacket(t), fixedPacket)
				}
				m := newModelMock(t, script...)
				for i := range rounds {
					h.run(t, s, m, 2*i)
					h.run(t, s, m, 2*i+1)
				}
				ms := stopTimes(t, log)
				if len(ms) < 3*rounds {
					t.Fatalf("%d stop hooks ran, want %d", len(ms), 3*rounds)
				}
				t.Logf("LATENCY %s, %d files: %d stops, p50 %.0f ms, p99 %.0f ms, worst %.0f ms",
					h.name, files, len(ms), quantile(ms, 0.50), quantile(ms, 0.99), ms[len(ms)-1])
			})
		}
	}
}

// timedBaton puts a wrapper named baton first in the hooks' PATH that
// records each stop hook's start and end (nanoseconds) in the log it
// returns.
func timedBaton(t *testing.T, s *scratch, baton string) string {
	t.Helper()
	log := filepath.Join(t.TempDir(), "hook-times")
	script := fmt.Sprintf(`#!/bin/sh
case "$2" in *-stop) ;; *) exec %q "$@" ;; esac
start=$(date +%%s%%N)
%q "$@"
rc=$?
echo "$start $(date +%%s%%N)" >> %q
exit $rc
`, baton, baton, log)
	for i, kv := range s.env {
		if strings.HasPrefix(kv, "PATH=") {
			bin := filepath.Join(t.TempDir(), "timed")
			writeFile(t, filepath.Join(bin, "baton"), script)
			if err := os.Chmod(filepath.Join(bin, "baton"), 0o755); err != nil {
				t.Fatal(err)
			}
			s.env[i] = "PATH=" + bin + string(os.PathListSeparator) + strings.TrimPrefix(kv, "PATH=")
		}
	}
	return log
}

// bigRepo commits n files in 100 folders, then leaves 20 of them changed
// and 5 new ones uncommitted.
func bigRepo(t *testing.T, s *scratch, n int) {
	t.Helper()
	for i := range n {
		writeFile(t, filepath.Join(s.repo, "src", fmt.Sprintf("d%02d", i%100), fmt.Sprintf("f%05d.go", i)), fmt.Sprintf("package d\n\n// File %d.\nconst F%d = %d\n", i, i, i))
	}
	s.run(t, s.repo, "git", "add", "src")
	s.run(t, s.repo, "git", "commit", "-q", "-m", "many files")
	for i := range 20 {
		writeFile(t, filepath.Join(s.repo, "src", fmt.Sprintf("d%02d", i), fmt.Sprintf("f%05d.go", i)), "package d\n\n// Changed.\n")
	}
	for i := range 5 {
		writeFile(t, filepath.Join(s.repo, "src", "new", fmt.Sprintf("n%d.go", i)), "package new\n")
	}
}

// stopTimes reads the wrapper's log: each stop hook's time in
// milliseconds, sorted.
func stopTimes(t *testing.T, log string) []float64 {
	t.Helper()
	f, err := os.Open(log)
	if err != nil {
		t.Fatalf("no stop hook ran: %v", err)
	}
	defer f.Close()
	var ms []float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		a, b, _ := strings.Cut(sc.Text(), " ")
		start, err1 := strconv.ParseInt(a, 10, 64)
		end, err2 := strconv.ParseInt(b, 10, 64)
		if err1 == nil && err2 == nil {
			ms = append(ms, float64(end-start)/float64(time.Millisecond))
		}
	}
	slices.Sort(ms)
	return ms
}

// quantile is the q-quantile of sorted values (nearest rank).
func quantile(sorted []float64, q float64) float64 {
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}
