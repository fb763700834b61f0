package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-md/baton/engine/enginetest"
)

// Each host's documented contract, as this package reads and writes it.
// The input builders write what the host sends; the output checkers accept
// exactly what the host's documentation allows, and nothing else.
//
//   - Codex: codex-rs/hooks/schema/generated/stop.command.input.schema.json
//     and stop.command.output.schema.json in openai/codex.
//   - Gemini CLI: docs/hooks/reference.md in google-gemini/gemini-cli
//     (base input fields; AfterAgent: prompt, prompt_response,
//     stop_hook_active; output decision "deny" with reason).
//   - Cursor: cursor.com/docs/agent/hooks (stop: status, loop_count;
//     output followup_message).
//   - Copilot: content/copilot/reference/hooks-reference.md in github/docs
//     (agentStop: sessionId, timestamp, cwd, transcriptPath, stopReason;
//     decision "block"|"allow", reason).
//   - Claude Code: code.claude.com/docs/en/hooks (Stop: decision "block",
//     reason).
type hostCase struct {
	sub string
	// input is the host's stop input for a message (msg "" for none in the
	// payload) with the transcript at path ("" for none); active says the
	// stop follows a block, the way this host says it (Cursor: loop_count).
	input func(cwd, session, msg, path string, active bool) []byte
	// transcript writes a session file of this host's format whose last
	// assistant message is msg.
	transcript func(msg string) string
	// payloadMessage: the host sends the last message in its input.
	payloadMessage bool
	// check parses a reply under the host's schema: the reason of a block,
	// or "" for a reply that lets the stop through.
	check func(t *testing.T, out []byte) string
}

func hostJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// strict decodes a JSON object that may hold only the named fields.
func strict(t *testing.T, out []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("reply %q does not parse under the host's schema: %v", out, err)
	}
	if dec.More() {
		t.Fatalf("reply %q holds more than one JSON value", out)
	}
}

// jsonl joins lines of JSON.
func jsonl(vs ...any) string {
	var b strings.Builder
	for _, v := range vs {
		b.Write(hostJSON(v))
		b.WriteByte('\n')
	}
	return b.String()
}

var hostCases = []hostCase{
	{
		sub: "claude-stop", payloadMessage: true,
		input: func(cwd, session, msg, path string, active bool) []byte {
			return hostJSON(map[string]any{"session_id": session, "transcript_path": path, "cwd": cwd, "hook_event_name": "Stop", "stop_hook_active": active, "last_assistant_message": msg})
		},
		transcript: func(msg string) string {
			return jsonl(
				map[string]any{"type": "user", "sessionId": "s", "message": map[string]any{"role": "user", "content": "Add the cap."}},
				map[string]any{"type": "assistant", "sessionId": "s", "message": map[string]any{"id": "msg_1", "role": "assistant", "content": []any{map[string]any{"type": "text", "text": msg}}}})
		},
		check: func(t *testing.T, out []byte) string {
			if len(out) == 0 {
				return ""
			}
			var r struct {
				Decision string `json:"decision"`
				Reason   string `json:"reason"`
			}
			strict(t, out, &r)
			if r.Decision != "block" || r.Reason == "" {
				t.Fatalf("Claude Code reply %q: decision must be \"block\" with a reason", out)
			}
			return r.Reason
		},
	},
	{
		sub: "codex-stop", payloadMessage: true,
		input: func(cwd, session, msg, path string, active bool) []byte {
			in := map[string]any{"session_id": session, "turn_id": "turn-1", "transcript_path": nil, "cwd": cwd, "hook_event_name": "Stop", "model": "gpt-5", "permission_mode": "default", "stop_hook_active": active, "last_assistant_message": nil}
			if msg != "" {
				in["last_assistant_message"] = msg
			}
			if path != "" {
				in["transcript_path"] = path
			}
			return hostJSON(in)
		},
		transcript: func(msg string) string {
			return jsonl(
				map[string]any{"timestamp": "2026-11-30T10:00:00Z", "type": "session_meta", "payload": map[string]any{"id": "c1", "cwd": "/w"}},
				map[string]any{"timestamp": "2026-11-30T10:00:01Z", "type": "event_msg", "payload": map[string]any{"type": "user_message", "message": "Add the cap."}},
				map[string]any{"timestamp": "2026-11-30T10:00:05Z", "type": "response_item", "payload": map[string]any{"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": msg}}}})
		},
		check: func(t *testing.T, out []byte) string {
			if len(out) == 0 {
				return ""
			}
			// stop.command.output: additionalProperties false.
			var r struct {
				Continue       *bool   `json:"continue"`
				Decision       *string `json:"decision"`
				Reason         *string `json:"reason"`
				StopReason     *string `json:"stopReason"`
				SuppressOutput *bool   `json:"suppressOutput"`
				SystemMessage  *string `json:"systemMessage"`
			}
			strict(t, out, &r)
			if r.Decision == nil || *r.Decision != "block" || r.Reason == nil || *r.Reason == "" {
				t.Fatalf("Codex reply %q: decision must be \"block\" with a reason", out)
			}
			return *r.Reason
		},
	},
	{
		sub: "gemini-stop", payloadMessage: true,
		input: func(cwd, session, msg, path string, active bool) []byte {
			return hostJSON(map[string]any{"session_id": session, "transcript_path": path, "cwd": cwd, "hook_event_name": "AfterAgent", "timestamp": "2026-11-30T10:00:00Z", "prompt": "Add the cap.", "prompt_response": msg, "stop_hook_active": active})
		},
		transcript: func(msg string) string {
			return string(hostJSON(map[string]any{"sessionId": "g1", "projectHash": "abc", "startTime": "2026-11-30T10:00:00Z", "lastUpdated": "2026-11-30T10:01:00Z", "messages": []any{
				map[string]any{"id": "1", "timestamp": "2026-11-30T10:00:00Z", "type": "user", "content": "Add the cap."},
				map[string]any{"id": "2", "timestamp": "2026-11-30T10:00:30Z", "type": "gemini", "content": msg},
			}}))
		},
		check: func(t *testing.T, out []byte) string {
			var r struct {
				Decision           *string        `json:"decision"`
				Reason             *string        `json:"reason"`
				Continue           *bool          `json:"continue"`
				StopReason         *string        `json:"stopReason"`
				SuppressOutput     *bool          `json:"suppressOutput"`
				SystemMessage      *string        `json:"systemMessage"`
				HookSpecificOutput map[string]any `json:"hookSpecificOutput"`
			}
			// Silence is mandatory but for the JSON: stdout is one object.
			strict(t, out, &r)
			if r.Decision == nil {
				return ""
			}
			if *r.Decision != "deny" || r.Reason == nil || *r.Reason == "" {
				t.Fatalf("Gemini CLI reply %q: decision must be \"deny\" with a reason", out)
			}
			return *r.Reason
		},
	},
	{
		sub: "cursor-stop",
		input: func(cwd, session, msg, path string, active bool) []byte {
			n := 0
			if active {
				n = 1
			}
			return hostJSON(map[string]any{"conversation_id": session, "generation_id": "gen-1", "model": "m", "hook_event_name": "stop", "cursor_version": "2.0.0", "workspace_roots": []string{cwd}, "user_email": nil, "transcript_path": path, "status": "completed", "loop_count": n})
		},
		transcript: func(msg string) string {
			return jsonl(
				map[string]any{"role": "user", "message": map[string]any{"content": []any{map[string]any{"type": "text", "text": "<user_query>\nAdd the cap.\n</user_query>"}}}},
				map[string]any{"role": "assistant", "message": map[string]any{"content": []any{map[string]any{"type": "text", "text": msg}}}})
		},
		check: func(t *testing.T, out []byte) string {
			var r struct {
				FollowupMessage *string `json:"followup_message"`
			}
			strict(t, out, &r)
			if r.FollowupMessage == nil {
				return ""
			}
			if *r.FollowupMessage == "" {
				t.Fatalf("Cursor reply %q: an empty followup_message", out)
			}
			return *r.FollowupMessage
		},
	},
	{
		sub: "copilot-stop",
		input: func(cwd, session, msg, path string, active bool) []byte {
			return hostJSON(map[string]any{"timestamp": 1764496800000, "cwd": cwd, "sessionId": session, "transcriptPath": path, "stopReason": "end_turn"})
		},
		transcript: func(msg string) string {
			return jsonl(
				map[string]any{"type": "session.start", "id": "e1", "timestamp": "2026-11-30T10:00:00Z", "parentId": nil, "data": map[string]any{"sessionId": "p1"}},
				map[string]any{"type": "user.message", "id": "e2", "timestamp": "2026-11-30T10:00:01Z", "parentId": "e1", "data": map[string]any{"content": "Add the cap."}},
				map[string]any{"type": "assistant.message", "id": "e3", "timestamp": "2026-11-30T10:00:09Z", "parentId": "e2", "data": map[string]any{"messageId": "m1", "content": msg}})
		},
		check: func(t *testing.T, out []byte) string {
			if len(out) == 0 {
				return ""
			}
			var r struct {
				Decision string `json:"decision"`
				Reason   string `json:"reason"`
			}
			strict(t, out, &r)
			if r.Decision != "block" && r.Decision != "allow" {
				t.Fatalf("Copilot reply %q: decision must be \"block\" or \"allow\"", out)
			}
			if r.Decision == "allow" {
				return ""
			}
			if r.Reason == "" {
				t.Fatalf("Copilot reply %q: a block without a reason", out)
			}
			return r.Reason
		},
	},
}

const (
	proceedMsg    = "## What I Just Did\n\nAdded the retry cap.\n\n## Why I Stopped\n\nThe cap changes caller behaviour.\n\n## What Needs Your Review\n\n- Do you approve a 60 second cap?\n\n## What Happens Next\n\nI'll proceed with the callers tonight.\n\n## What I Need From You\n\nReply \"approve\" or \"no cap\".\n"
	consistentMsg = "## What I Just Did\n\nAdded the retry cap.\n\n## Why I Stopped\n\nThe cap changes caller behaviour.\n\n## What Needs Your Review\n\n- Do you approve a 60 second cap?\n\n## What Happens Next\n\nOn approval, I will update the callers.\n\n## What I Need From You\n\nReply \"approve\" or \"no cap\".\n"
)

// fireHost runs a host's stop hook once; the reply's reason ("" for a
// pass) and standard error.
func fireHost(t *testing.T, hc hostCase, cwd, session, msg, state string, active bool, extra ...string) (reason, stderr string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(path, []byte(hc.transcript(msg)), 0o644); err != nil {
		t.Fatal(err)
	}
	payload := ""
	if hc.payloadMessage {
		payload = msg
	}
	var out, errb bytes.Buffer
	args := append([]string{hc.sub, "--state-dir", state}, extra...)
	if code := runHook(args, bytes.NewReader(hc.input(cwd, session, payload, path, active)), &out, &errb); code != exitOK {
		t.Fatalf("%s exited %d: %s", hc.sub, code, errb.String())
	}
	return hc.check(t, out.Bytes()), errb.String()
}

// The same message in the same workspace gets the same verdict, and the
// same reason, from every host's adapter: in a plain project under --lint,
// and in a specrew workspace whose boundary is pending.
func TestHostAdaptersSameVerdict(t *testing.T) {
	plain := t.TempDir()
	specrew, stopText := enginetest.Workspace(t)
	cases := []struct {
		name, cwd, msg string
		lint, block    bool
		want           []string
	}{
		{"auto-continue under --lint", plain, proceedMsg, true, true, []string{"line 15:", "packet/review-auto-continue", "packet/review-not-held"}},
		{"a consistent packet", plain, consistentMsg, true, false, nil},
		{"conversation without --lint", plain, proceedMsg, false, false, nil},
		{"a pending boundary without its marker", specrew, "Done for now.", false, true, []string{"the clarify -> plan boundary is pending"}},
		{"the workspace's own packet", specrew, stopText, true, true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var first, firstHost string
			for i, hc := range hostCases {
				var extra []string
				if c.lint {
					extra = append(extra, "--lint")
				}
				reason, errs := fireHost(t, hc, c.cwd, fmt.Sprintf("same-%d", i), c.msg, t.TempDir(), false, extra...)
				if (reason != "") != c.block {
					t.Fatalf("%s: blocked=%v, want %v (reason %q, stderr %q)", hc.sub, reason != "", c.block, reason, errs)
				}
				for _, w := range c.want {
					if !strings.Contains(reason, w) {
						t.Errorf("%s: reason lacks %q:\n%s", hc.sub, w, reason)
					}
				}
				if i == 0 {
					first, firstHost = reason, hc.sub
				} else if reason != first {
					t.Errorf("%s and %s differ:\n%s\n---\n%s", firstHost, hc.sub, first, reason)
				}
			}
		})
	}
}

// Every adapter bounds the loop: a stop that follows a block (each host's
// way of saying so; Copilot cannot, so baton's count decides) is blocked
// at most --max-blocks times in a row, then let through, saying why.
func TestHostAdaptersBoundTheLoop(t *testing.T) {
	cwd := t.TempDir()
	for _, hc := range hostCases {
		t.Run(hc.sub, func(t *testing.T) {
			state := t.TempDir()
			r, _ := fireHost(t, hc, cwd, "loop", proceedMsg, state, false, "--lint", "--max-blocks", "2")
			if r == "" {
				t.Fatal("the first stop was not blocked")
			}
			r, _ = fireHost(t, hc, cwd, "loop", proceedMsg+"\n", state, true, "--lint", "--max-blocks", "2")
			if r == "" {
				t.Fatal("the second stop was not blocked")
			}
			r, errs := fireHost(t, hc, cwd, "loop", proceedMsg+"\n\n", state, true, "--lint", "--max-blocks", "2")
			if r != "" || !strings.Contains(errs, "already blocked 2 times in a row") {
				t.Fatalf("the third stop: reason %q, stderr %q; want it let through, saying why", r, errs)
			}
			// After the release the count starts afresh.
			if r, _ := fireHost(t, hc, cwd, "loop", proceedMsg+"\n\n\n", state, false, "--lint", "--max-blocks", "2"); r == "" {
				t.Fatal("a fresh stop after the release was not blocked")
			}
		})
	}
}

// On its own error every adapter lets the stop through, answers in its
// host's contract, and says why on standard error.
func TestHostAdaptersFailOpen(t *testing.T) {
	for _, hc := range hostCases {
		t.Run(hc.sub, func(t *testing.T) {
			for name, in := range map[string][]byte{
				"not JSON":       []byte("{ nope"),
				"no transcript":  hc.input(t.TempDir(), "s", "", filepath.Join(t.TempDir(), "gone.jsonl"), false),
				"no message":     hc.input(t.TempDir(), "s", "", "", false),
				"empty session":  hc.input(t.TempDir(), "s", "", os.DevNull, false),
				"a bad BOM/JSON": append([]byte{0xEF, 0xBB, 0xBF}, '['),
			} {
				var out, errb bytes.Buffer
				if code := runHook([]string{hc.sub, "--lint", "--state-dir", t.TempDir()}, bytes.NewReader(in), &out, &errb); code != exitOK {
					t.Fatalf("%s: exit %d", name, code)
				}
				if r := hc.check(t, out.Bytes()); r != "" {
					t.Errorf("%s: blocked: %q", name, r)
				}
				if !strings.Contains(errb.String(), "letting the stop through") {
					t.Errorf("%s: stderr %q does not say why", name, errb.String())
				}
			}
		})
	}
}

// Cursor's stop also fires when the person aborts the run or it fails: a
// follow-up there would restart what the person stopped, so it is not
// judged.
func TestCursorStopAbortedIsNotJudged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	hc := hostCases[3]
	if err := os.WriteFile(path, []byte(hc.transcript(proceedMsg)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, status := range []string{"aborted", "error"} {
		in := hostJSON(map[string]any{"conversation_id": "c", "workspace_roots": []string{t.TempDir()}, "transcript_path": path, "status": status, "loop_count": 0, "hook_event_name": "stop"})
		var out, errb bytes.Buffer
		runHook([]string{"cursor-stop", "--lint", "--state-dir", t.TempDir()}, bytes.NewReader(in), &out, &errb)
		if r := hc.check(t, out.Bytes()); r != "" || !strings.Contains(errb.String(), status) {
			t.Errorf("status %s: reason %q, stderr %q", status, r, errb.String())
		}
	}
}

// A transcript that cannot be read, when the input carries the message,
// leaves the message to judge alone, and says so.
func TestHostAdapterUnreadableTranscriptWithMessage(t *testing.T) {
	hc := hostCases[1] // codex-stop: the message comes in the input
	in := hc.input(t.TempDir(), "s", proceedMsg, filepath.Join(t.TempDir(), "gone.jsonl"), false)
	var out, errb bytes.Buffer
	runHook([]string{hc.sub, "--lint", "--state-dir", t.TempDir()}, bytes.NewReader(in), &out, &errb)
	if r := hc.check(t, out.Bytes()); r == "" || !strings.Contains(errb.String(), "judging the message alone") {
		t.Errorf("reason %q, stderr %q", r, errb.String())
	}
}

// Every host's prompt hook takes the turn's baseline: a change made before
// the person's prompt is not the turn's work, so with --require-packet a
// stop after it owes no packet; without the baseline it is billed for it.
// The prompt hooks' inputs carry the same session and folder fields as the
// stop hooks' (each host's hooks reference: UserPromptSubmit, BeforeAgent,
// beforeSubmitPrompt, userPromptSubmitted).
func TestHostPromptHooksTakeTheBaseline(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, hc := range hostCases {
		host := strings.TrimSuffix(hc.sub, "-stop")
		t.Run(host, func(t *testing.T) {
			repo := t.TempDir()
			for _, args := range [][]string{{"init", "-q"}, {"config", "user.email", "t@example.com"}, {"config", "user.name", "t"}} {
				if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v %s", args, err, out)
				}
			}
			os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a\n"), 0o644)
			exec.Command("git", "-C", repo, "add", ".").Run()
			if out, err := exec.Command("git", "-C", repo, "commit", "-qm", "a").CombinedOutput(); err != nil {
				t.Fatalf("commit: %v %s", err, out)
			}
			os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a // edited before the prompt\n"), 0o644)

			withoutBaseline, _ := fireHost(t, hc, repo, "nobase", "Done.", t.TempDir(), false, "--require-packet")
			if !strings.Contains(withoutBaseline, "material work") {
				t.Fatalf("without a baseline the stop was not billed for the change: %q", withoutBaseline)
			}
			state := t.TempDir()
			var out, errb bytes.Buffer
			if code := runHook([]string{host + "-prompt", "--require-packet", "--state-dir", state}, bytes.NewReader(hc.input(repo, "base", "", "", false)), &out, &errb); code != exitOK || errb.Len() > 0 {
				t.Fatalf("%s-prompt: exit %d, stderr %q", host, code, errb.String())
			}
			if s := strings.TrimSpace(out.String()); s != "" && !json.Valid([]byte(s)) {
				t.Fatalf("%s-prompt wrote %q: not JSON", host, s)
			}
			if r, errs := fireHost(t, hc, repo, "base", "Done.", state, false, "--require-packet"); r != "" {
				t.Fatalf("after the baseline the stop was blocked: %q (%s)", r, errs)
			}
		})
	}
}

// docs/hosts.md's table gives each adapter's command and the posture the
// adapter claims, so the docs never claim more than the code.
func TestHostsDocTable(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "hosts.md"))
	if err != nil {
		t.Fatal(err)
	}
	for host, a := range stopAdapters {
		row := fmt.Sprintf("| %s | `baton hook %s-stop` | %s |", a.name, host, a.posture)
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/hosts.md has no row starting %q", row)
		}
	}
}

// copilotStamp is an agentStop input's timestamp, in Unix milliseconds.
const copilotStamp = 1764496800000

// Gemini CLI (BeforeAgent) and Copilot CLI (userPromptSubmitted) run the
// prompt hook again for the retry after a block, with the block's reason
// as the prompt. That is no new turn: the work that caused the block is
// still owed, so with --require-packet the stops go block, block, pass
// (the packet), not block, pass.
func TestPromptHookRetryKeepsTheBaseline(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	prompts := map[string]func(cwd, session, prompt string) []byte{
		"gemini": func(cwd, session, prompt string) []byte {
			return hostJSON(map[string]any{"session_id": session, "transcript_path": "", "cwd": cwd, "hook_event_name": "BeforeAgent", "timestamp": "2026-11-30T10:00:00.000Z", "prompt": prompt})
		},
		"copilot": func(cwd, session, prompt string) []byte {
			return hostJSON(map[string]any{"sessionId": session, "timestamp": copilotStamp, "cwd": cwd, "prompt": prompt})
		},
	}
	for _, host := range []string{"gemini", "copilot"} {
		t.Run(host, func(t *testing.T) {
			repo := gitRepo(t)
			state := t.TempDir()
			prompt := func(text string) string {
				var out, errb bytes.Buffer
				runHook([]string{host + "-prompt", "--require-packet", "--state-dir", state}, bytes.NewReader(prompts[host](repo, "r", text)), &out, &errb)
				return errb.String()
			}
			stop := func(msg string, active bool) string {
				hc := hostCases[2]
				if host == "copilot" {
					hc = hostCases[4]
				}
				r, _ := fireHost(t, hc, repo, "r", msg, state, active, "--require-packet")
				return r
			}
			if e := prompt("Add the cap."); e != "" {
				t.Fatalf("the person's prompt: %s", e)
			}
			os.WriteFile(filepath.Join(repo, "cap.go"), []byte("package a // the cap\n"), 0o644)
			reason := stop("Done.", false)
			if !strings.Contains(reason, "material work") {
				t.Fatalf("the first stop: %q", reason)
			}
			if e := prompt(reason); !strings.Contains(e, "baseline is kept") {
				t.Errorf("the retry's prompt hook: stderr %q", e)
			}
			if r := stop("Done, really.", true); !strings.Contains(r, "material work") {
				t.Fatalf("after the retry's prompt hook the work was forgotten: %q", r)
			}
			if r := stop(consistentMsg, true); r != "" {
				t.Fatalf("the packet: %q", r)
			}
		})
	}
}

// gitRepo is a Git work tree with one commit.
func gitRepo(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"config", "user.email", "t@example.com"}, {"config", "user.name", "t"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a\n"), 0o644)
	exec.Command("git", "-C", repo, "add", ".").Run()
	if out, err := exec.Command("git", "-C", repo, "commit", "-qm", "a").CombinedOutput(); err != nil {
		t.Fatalf("commit: %v %s", err, out)
	}
	return repo
}
