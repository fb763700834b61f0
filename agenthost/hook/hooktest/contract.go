package hooktest

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/baton-md/baton/agenthost/hook"
	"github.com/baton-md/baton/engine/enginetest"
	"github.com/baton-md/baton/stoppolicy"
)

// Contract holds a host's stop and prompt hooks to what every host's
// keeps: the policy's verdict, answered in the host's contract; the loop
// bounded; open on the hook's own error; the turn's baseline taken; an
// answer within the hook's budget.
func Contract(t *testing.T, c Case) {
	t.Run("same verdict as the policy", func(t *testing.T) { sameVerdict(t, c) })
	t.Run("bounds the loop", func(t *testing.T) { boundsTheLoop(t, c) })
	t.Run("fails open", func(t *testing.T) { failsOpen(t, c) })
	t.Run("prompt takes the baseline", func(t *testing.T) { promptTakesTheBaseline(t, c) })
	t.Run("answers within its budget", func(t *testing.T) { answersWithinItsBudget(t, c) })
}

// The same message in the same workspace gets, from the host's hook, the
// verdict and the reason the stop policy gives the message itself: so
// every host's hook gives the same. In a plain project under --lint, and
// in a specrew workspace whose boundary is pending.
func sameVerdict(t *testing.T, c Case) {
	plain := t.TempDir()
	specrew, stopText := enginetest.Workspace(t)
	for _, tc := range []struct {
		name, cwd, msg string
		lint, block    bool
		want           []string
	}{
		{"auto-continue under --lint", plain, ProceedMsg, true, true, []string{"line 15:", "packet/review-auto-continue", "packet/review-not-held"}},
		{"a consistent packet", plain, ConsistentMsg, true, false, nil},
		{"conversation without --lint", plain, ProceedMsg, false, false, nil},
		{"a pending boundary without its marker", specrew, "Done for now.", false, true, []string{"the clarify -> plan boundary is pending"}},
		{"the workspace's own packet", specrew, stopText, true, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var extra []string
			if tc.lint {
				extra = append(extra, "--lint")
			}
			reason, errs := c.Fire(t, tc.cwd, "same", tc.msg, t.TempDir(), false, extra...)
			if (reason != "") != tc.block {
				t.Fatalf("blocked=%v, want %v (reason %q, stderr %q)", reason != "", tc.block, reason, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(reason, w) {
					t.Errorf("reason lacks %q:\n%s", w, reason)
				}
			}
			want := stoppolicy.Evaluate(stoppolicy.Stop{SessionID: "reference", Cwd: tc.cwd, Message: tc.msg}, stoppolicy.Options{Lint: tc.lint, StateDir: t.TempDir()})
			if reason != want.Reason {
				t.Errorf("the hook's reason differs from the policy's:\n%s\n---\n%s", reason, want.Reason)
			}
		})
	}
}

// A stop that follows a block (each host's way of saying so; where a
// host cannot, baton's count decides) is blocked at most --max-blocks times
// in a row, then let through, saying why.
func boundsTheLoop(t *testing.T, c Case) {
	cwd, state := t.TempDir(), t.TempDir()
	r, _ := c.Fire(t, cwd, "loop", ProceedMsg, state, false, "--lint", "--max-blocks", "2")
	if r == "" {
		t.Fatal("the first stop was not blocked")
	}
	r, _ = c.Fire(t, cwd, "loop", ProceedMsg+"\n", state, true, "--lint", "--max-blocks", "2")
	if r == "" {
		t.Fatal("the second stop was not blocked")
	}
	r, errs := c.Fire(t, cwd, "loop", ProceedMsg+"\n\n", state, true, "--lint", "--max-blocks", "2")
	if r != "" || !strings.Contains(errs, "already blocked 2 times in a row") {
		t.Fatalf("the third stop: reason %q, stderr %q; want it let through, saying why", r, errs)
	}
	// After the release the count starts afresh.
	if r, _ := c.Fire(t, cwd, "loop", ProceedMsg+"\n\n\n", state, false, "--lint", "--max-blocks", "2"); r == "" {
		t.Fatal("a fresh stop after the release was not blocked")
	}
}

// On its own error the hook lets the stop through, answers in its host's
// contract, and says why on standard error.
func failsOpen(t *testing.T, c Case) {
	defer func(w time.Duration) { hook.AwaitLimit = w }(hook.AwaitLimit)
	hook.AwaitLimit = 200 * time.Millisecond // a transcript that never comes
	for name, in := range map[string][]byte{
		"not JSON":       []byte("{ nope"),
		"no transcript":  c.Input(t.TempDir(), "s", "", filepath.Join(t.TempDir(), "gone.jsonl"), false),
		"no message":     c.Input(t.TempDir(), "s", "", "", false),
		"empty session":  c.Input(t.TempDir(), "s", "", os.DevNull, false),
		"a bad BOM/JSON": append([]byte{0xEF, 0xBB, 0xBF}, '['),
	} {
		out, errs := Run(t, []string{c.Stop(), "--lint", "--state-dir", t.TempDir()}, in)
		if r := c.Check(t, []byte(out)); r != "" {
			t.Errorf("%s: blocked: %q", name, r)
		}
		if !strings.Contains(errs, "letting the stop through") {
			t.Errorf("%s: stderr %q does not say why", name, errs)
		}
	}
}

// The host's prompt hook takes the turn's baseline: a change made before
// the person's prompt is not the turn's work, so with --require-packet a
// stop after it owes no packet; without the baseline it is billed for
// it. The prompt hook's input carries the same session and folder fields
// as the stop hook's.
func promptTakesTheBaseline(t *testing.T, c Case) {
	repo := GitRepo(t)
	os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a // edited before the prompt\n"), 0o644)
	withoutBaseline, _ := c.Fire(t, repo, "nobase", "Done.", t.TempDir(), false, "--require-packet")
	if !strings.Contains(withoutBaseline, "material work") {
		t.Fatalf("without a baseline the stop was not billed for the change: %q", withoutBaseline)
	}
	state := t.TempDir()
	prompt := c.Host.ID + "-prompt"
	out, errs := Run(t, []string{prompt, "--require-packet", "--state-dir", state}, c.Input(repo, "base", "", "", false))
	if errs != "" {
		t.Fatalf("%s: stderr %q", prompt, errs)
	}
	if s := strings.TrimSpace(out); s != "" && !json.Valid([]byte(s)) {
		t.Fatalf("%s wrote %q: not JSON", prompt, s)
	}
	if r, errs := c.Fire(t, repo, "base", "Done.", state, false, "--require-packet"); r != "" {
		t.Fatalf("after the baseline the stop was blocked: %q (%s)", r, errs)
	}
}

// A stop hook whose host never closes its input lets the stop through
// within its budget, in its host's contract, saying so, and nothing its
// judgement writes after reaches the host.
func answersWithinItsBudget(t *testing.T, c Case) {
	r, w := io.Pipe()
	Expire(t, c, r, func() { w.Close() }, "reading the hook input")
}

// Expire runs the host's stop hook on stdin with a budget of 300 ms that
// runs out while the hook is doing what doing says, then calls release
// (which lets the judgement end), and checks that the hook answered
// within the budget, letting the stop through, and that nothing reached
// its streams after.
func Expire(t *testing.T, c Case, stdin io.Reader, release func(), doing string) {
	t.Helper()
	defer func(b, w time.Duration) { hook.Budget, hook.AwaitLimit = b, w }(hook.Budget, hook.AwaitLimit)
	if hook.Budget >= 20*time.Second {
		t.Fatalf("the budget, %v, must be below the 20 s hook install gives the shortest", hook.Budget)
	}
	hook.Budget, hook.AwaitLimit = 300*time.Millisecond, time.Second
	fl := []string{c.Stop(), "--lint", "--state-dir", t.TempDir()}
	var out, errb lockedBuffer
	start := time.Now()
	o := stoppolicy.Options{Lint: true, StateDir: fl[3], MaxBlocks: stoppolicy.DefaultMaxBlocks}
	h, _ := hook.Lookup(c.Stop(), "-stop")
	hook.Stop(h, o, fl, stdin, &out, &errb)
	if took := time.Since(start); took > hook.Budget+5*time.Second {
		t.Fatalf("answered after %v; want soon after the budget, %v", took, hook.Budget)
	}
	if r := c.Check(t, []byte(out.String())); r != "" {
		t.Errorf("blocked: %q", r)
	}
	want := "baton: no decision within the stop hook's budget of 300ms (it was " + doing + "); letting the stop through\n"
	if errb.String() != want {
		t.Errorf("stderr %q, want %q", errb.String(), want)
	}
	// What the judgement writes once let go goes nowhere.
	answered := out.String() + errb.String()
	release()
	hook.Judgements.Wait()
	if now := out.String() + errb.String(); now != answered {
		t.Errorf("written after the hook answered: %q", strings.TrimPrefix(now, answered))
	}
}

// RetryKeepsTheBaseline: a host that runs its prompt hook again for the
// retry after a block, with the block's reason as the prompt (prompt
// builds its input), starts no new turn there: the work that caused the
// block is still owed, so with --require-packet the stops go block,
// block, pass (the packet), not block, pass.
func RetryKeepsTheBaseline(t *testing.T, c Case, prompt func(cwd, session, prompt string) []byte) {
	repo := GitRepo(t)
	state := t.TempDir()
	runPrompt := func(text string) string {
		_, errs := Run(t, []string{c.Host.ID + "-prompt", "--require-packet", "--state-dir", state}, prompt(repo, "r", text))
		return errs
	}
	stop := func(msg string, active bool) string {
		r, _ := c.Fire(t, repo, "r", msg, state, active, "--require-packet")
		return r
	}
	if e := runPrompt("Add the cap."); e != "" {
		t.Fatalf("the person's prompt: %s", e)
	}
	os.WriteFile(filepath.Join(repo, "cap.go"), []byte("package a // the cap\n"), 0o644)
	reason := stop("Done.", false)
	if !strings.Contains(reason, "material work") {
		t.Fatalf("the first stop: %q", reason)
	}
	if e := runPrompt(reason); !strings.Contains(e, "baseline is kept") {
		t.Errorf("the retry's prompt hook: stderr %q", e)
	}
	if r := stop("Done, really.", true); !strings.Contains(r, "material work") {
		t.Fatalf("after the retry's prompt hook the work was forgotten: %q", r)
	}
	if r := stop(ConsistentMsg, true); r != "" {
		t.Fatalf("the packet: %q", r)
	}
}
