package claude_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/baton-md/baton/agenthost/claude"
	"github.com/baton-md/baton/agenthost/hook/hooktest"
	"github.com/baton-md/baton/stoppolicy"
)

// The hook fails open within --max-blocks + 1 stops whatever its state
// folder holds: a block it cannot count could loop for ever. A message
// baton's rules refuse (with --lint) is stopped again and again, each stop
// caused by the hook's own block (stop_hook_active), the first by one
// whose count is in the state folder as the case leaves it.
func TestHookFailsOpenWithoutAUsableCounter(t *testing.T) {
	const session = "sess-reliability"
	sum := sha256.Sum256([]byte(session))
	counterName := hex.EncodeToString(sum[:8])
	// A boundary packet (it has Discussion Prompts) missing Why I Stopped and
	// What Happens Next: errors, which block.
	msg := "## What I Just Did\n\nWork.\n\n## What Needs Your Review\n\nApprove option B?\n\n" +
		"## Discussion Prompts\n\n1. Because option B narrows the scope, should we take it? Recommended default: yes.\n\n## What I Need From You\n\nReply \"approved\".\n"

	type setup func(t *testing.T) (stateDir string)
	folder := func(t *testing.T) string { return t.TempDir() }
	withCounter := func(text string) setup {
		return func(t *testing.T) string {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, counterName), []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			return dir
		}
	}
	cases := map[string]struct {
		state     setup
		maxBlocks int // the most blocks the case may give
	}{
		"a usable folder": {folder, 3},
		"the folder is a file": {func(t *testing.T) string {
			f := filepath.Join(t.TempDir(), "file")
			if err := os.WriteFile(f, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			return f
		}, 0},
		"a folder no one can create": {func(t *testing.T) string { return "/proc/self/no-such-folder/baton" }, 0},
		"no HOME and no XDG": {func(t *testing.T) string {
			t.Setenv("HOME", "")
			t.Setenv("XDG_CACHE_HOME", "")
			return ""
		}, 0},
		"a corrupt counter":  {withCounter("garbage"), 0},
		"a negative counter": {withCounter("-5"), 0},
		"a huge counter":     {withCounter("99999999999999999999"), 0},
		"the counter is a named pipe": {func(t *testing.T) string {
			dir := t.TempDir()
			if err := syscall.Mkfifo(filepath.Join(dir, counterName), 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			return dir
		}, 0},
		"the counter is /dev/zero": {func(t *testing.T) string {
			dir := t.TempDir()
			if err := os.Symlink("/dev/zero", filepath.Join(dir, counterName)); err != nil {
				t.Fatal(err)
			}
			return dir
		}, 0},
	}
	if os.Geteuid() != 0 {
		cases["a read-only folder"] = struct {
			state     setup
			maxBlocks int
		}{func(t *testing.T) string {
			dir := t.TempDir()
			if err := os.Chmod(dir, 0o500); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(dir, 0o700) })
			return dir
		}, 0}
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			state := c.state(t)
			cwd := t.TempDir()
			blocks := 0
			for stop := 0; stop <= stoppolicy.DefaultMaxBlocks; stop++ {
				raw, _ := json.Marshal(hookInput{SessionID: session, Cwd: cwd, HookEventName: "Stop", StopHookActive: true, LastAssistantMessage: msg})
				args := []string{"claude-stop", "--lint"}
				if state != "" {
					args = append(args, "--state-dir", state)
				}
				out, errb := hooktest.Run(t, args, raw)
				if out == "" {
					if blocks < c.maxBlocks && name == "a usable folder" {
						t.Fatalf("stop %d let through after %d blocks; want %d", stop, blocks, c.maxBlocks)
					}
					if blocks < c.maxBlocks && !strings.Contains(errb, "letting the stop through") {
						t.Errorf("stop %d let through without saying why: %q", stop, errb)
					}
					return // failed open
				}
				blocks++
				if blocks > c.maxBlocks {
					t.Fatalf("blocked %d times; at most %d with this state folder (stderr %q)", blocks, c.maxBlocks, errb)
				}
			}
			t.Fatalf("blocked every one of %d stops", stoppolicy.DefaultMaxBlocks+1)
		})
	}
}

// A transcript_path that is a named pipe or a device is refused at once,
// and the stop goes through, said on standard error.
func TestHookTranscriptSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zero := filepath.Join(dir, "zero.jsonl")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, zero, "/dev/urandom"} {
		raw, _ := json.Marshal(hookInput{SessionID: "s", Cwd: dir, HookEventName: "Stop", TranscriptPath: path})
		out, errb := hooktest.Run(t, []string{"claude-stop", "--lint", "--state-dir", t.TempDir()}, raw)
		if out != "" {
			t.Errorf("%s: stdout %q", path, out)
		}
		if !strings.Contains(errb, "not a regular file") || !strings.Contains(errb, "letting the stop through") {
			t.Errorf("%s: stderr %q does not say why the stop went through", path, errb)
		}
	}
}

// A large transcript is read from its end: the hook finds the last
// message at the size of a long session without reading it all
// (stressScale raises it to 1 GB under make stress).
func TestHookLargeTranscript(t *testing.T) {
	size := stressScale(16<<20, 1<<30)
	path := filepath.Join(t.TempDir(), "big.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	filler, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": strings.Repeat("tool output ", 80)}})
	filler = append(filler, '\n')
	for written := 0; written < size; written += len(filler) {
		if _, err := f.Write(filler); err != nil {
			t.Fatal(err)
		}
	}
	last, _ := json.Marshal(map[string]any{"type": "assistant", "message": map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "## What I Just Did\n\nWork.\n\n## What Needs Your Review\n\nApprove option B?\n"}}}})
	if _, err := f.Write(append(last, '\n')); err != nil {
		t.Fatal(err)
	}
	f.Close()
	msg, err := claude.LastMessage(path)
	if err != nil || !strings.HasPrefix(msg, "## What I Just Did") {
		t.Fatalf("ClaudeLastMessage = %q, %v", msg, err)
	}
}

// stressScale is small, a quarter of it under -short, or full under
// BATON_STRESS (make stress).
func stressScale(small, full int) int {
	if os.Getenv("BATON_STRESS") != "" {
		return full
	}
	if testing.Short() {
		return small / 4
	}
	return small
}
