package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/analysis/suite"
)

// The Stop hook: Claude Code runs it when the agent is about to stop, with
// a JSON description on standard input. baton lints the agent's last
// message as a stop packet and, when a review request is inconsistent or a
// packet is demanded and malformed, blocks the stop with a reason telling
// the agent what to fix. It never loops (a bounded number of blocks per
// session, reset by a stop it did not cause) and fails open: on its own
// errors it lets the stop through and says why on standard error.

// hookInput is what Claude Code sends a Stop hook.
type hookInput struct {
	SessionID            string `json:"session_id"`
	TranscriptPath       string `json:"transcript_path"`
	Cwd                  string `json:"cwd"`
	HookEventName        string `json:"hook_event_name"`
	StopHookActive       bool   `json:"stop_hook_active"`
	LastAssistantMessage string `json:"last_assistant_message"`
}

// hookDecision is the reply that blocks the stop.
type hookDecision struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

const defaultMaxBlocks = 3

func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "claude-stop" {
		fmt.Fprintln(stderr, "usage: baton hook claude-stop [--max-blocks N] [--require-packet] [--state-dir DIR]")
		return exitUsage
	}
	fl := flag.NewFlagSet("hook claude-stop", flag.ContinueOnError)
	fl.SetOutput(stderr)
	maxBlocks := fl.Int("max-blocks", defaultMaxBlocks, "block at most this many times in a row in one session")
	requirePacket := fl.Bool("require-packet", false, "demand a packet at every real stop, even outside a specrew project")
	counterDir := fl.String("state-dir", "", "where the per-session block count is kept (default: the user cache folder)")
	if err := fl.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	failOpen := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "baton hook: "+format+"; letting the stop through\n", a...)
		return exitOK
	}

	raw, err := io.ReadAll(io.LimitReader(stdin, 64<<20))
	if err != nil {
		return failOpen("read the hook input: %v", err)
	}
	var in hookInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return failOpen("the hook input is not JSON: %v", err)
	}
	msg := in.LastAssistantMessage
	if strings.TrimSpace(msg) == "" {
		if in.TranscriptPath == "" {
			return failOpen("no last_assistant_message and no transcript_path")
		}
		msg, err = lastAssistantMessage(in.TranscriptPath)
		if err != nil {
			return failOpen("read the transcript: %v", err)
		}
		if strings.TrimSpace(msg) == "" {
			return failOpen("the transcript has no assistant message")
		}
	}

	counter := blockCounter{dir: *counterDir, session: in.SessionID}
	if !in.StopHookActive {
		counter.reset() // a stop this hook did not cause: start counting afresh
	} else if n := counter.get(); n >= *maxBlocks {
		counter.reset()
		return failOpen("already blocked %d times in a row in session %s (--max-blocks)", n, in.SessionID)
	}

	reasons := hookReasons(msg, in.Cwd, *requirePacket)
	if len(reasons) == 0 {
		return exitOK
	}
	counter.add()
	reason := "baton: this stop message does not meet the stop contract. Fix it and stop again:\n- " + strings.Join(reasons, "\n- ")
	enc := json.NewEncoder(stdout)
	if err := enc.Encode(hookDecision{Decision: "block", Reason: reason}); err != nil {
		return failOpen("write the decision: %v", err)
	}
	return exitOK
}

// hookReasons lints the message and returns what must be fixed, one line
// each, or nothing when the stop may go through.
func hookReasons(msg, cwd string, requirePacket bool) []string {
	env := analysis.Env{}
	specrew := false
	if root := specrewRootAbove(cwd); root != "" {
		env[stopintent.EnvWorkspace] = stopintent.NewWorkspace(root).State("")
		specrew = true
	}
	doc := analysis.Parse("last-message.md", msg)
	res := suite.Registry().AnalyzeEnv(doc, nil, env)
	var out []string
	for _, f := range res.Findings {
		blocking := f.Severity == analysis.Error && (strings.HasPrefix(f.Rule, "packet/") || strings.HasPrefix(f.Rule, "stopintent/")) ||
			f.Rule == stopintent.RuleNearMiss.ID || f.Rule == stopintent.RuleInertContinue.ID
		if blocking {
			p := doc.Lines.Position(f.Span.Start, analysis.UTF8)
			out = append(out, fmt.Sprintf("line %d: %s (%s)", p.Line+1, f.Message, f.Rule))
		}
	}
	si, _ := res.Model(stopintent.Analyzer).(*stopintent.Model)
	hasPacket := false
	if si != nil {
		for _, st := range si.Stops {
			hasPacket = hasPacket || st.Packet != nil
		}
	}
	if !hasPacket && (specrew || requirePacket) {
		// A real stop hands control back with a packet; a message that may
		// be real and is not a packet is blocked only when real is certain.
		if si == nil || len(si.Stops) == 0 || si.Stops[0].Class.Outcome == stopintent.Real {
			reason := "no current-turn continue marker with authorization, no async in flight, and no other trigger"
			if si != nil && len(si.Stops) > 0 {
				reason = si.Stops[0].Class.Possible[0].Reason
			}
			out = append(out, "this is a real stop ("+reason+") and needs a packet: ## What I Just Did, ## Why I Stopped, ## What Needs Your Review, ## What Happens Next, ## What I Need From You (and ## Discussion Prompts at a lifecycle boundary); or declare <!-- SPECREW-STOP-INTENT: continue --> if authorized work remains")
		}
	}
	return out
}

func specrewRootAbove(dir string) string {
	if dir == "" {
		return ""
	}
	for d := filepath.Clean(dir); ; {
		if fi, err := os.Stat(filepath.Join(d, ".specrew")); err == nil && fi.IsDir() {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// lastAssistantMessage reads a Claude Code transcript (JSONL) and returns
// the text of the last assistant turn: the assistant entries after the
// last user entry, text blocks joined.
func lastAssistantMessage(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	var texts []string
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var e struct {
				Type    string `json:"type"`
				IsMeta  bool   `json:"isMeta"`
				Message struct {
					Role    string          `json:"role"`
					Content json.RawMessage `json:"content"`
				} `json:"message"`
			}
			if json.Unmarshal(line, &e) == nil {
				switch {
				case e.Type == "assistant" || e.Message.Role == "assistant":
					texts = append(texts, contentText(e.Message.Content)...)
				case (e.Type == "user" || e.Message.Role == "user") && !isToolResult(e.Message.Content) && !e.IsMeta && !hookPrompt(e.Message.Content):
					texts = nil // a person's message starts a new turn; tool results and hook text don't
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
	}
	return strings.Join(texts, "\n\n"), nil
}

// contentText returns the text of a message's content: a string, or the
// text blocks of a block list.
func contentText(raw json.RawMessage) []string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return nil
	}
	var out []string
	for _, b := range blocks {
		if b.Type == "text" && strings.TrimSpace(b.Text) != "" {
			out = append(out, b.Text)
		}
	}
	return out
}

// hookPrompt reports text a hook injected as a user message (Codex wraps it
// in <hook_prompt>).
func hookPrompt(raw json.RawMessage) bool {
	for _, t := range contentText(raw) {
		if strings.HasPrefix(strings.TrimSpace(t), "<hook_prompt") {
			return true
		}
	}
	return false
}

func isToolResult(raw json.RawMessage) bool {
	var blocks []struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(raw, &blocks) != nil || len(blocks) == 0 {
		return false
	}
	for _, b := range blocks {
		if b.Type != "tool_result" {
			return false
		}
	}
	return true
}

// blockCounter counts the hook's consecutive blocks in a session, in a
// small file of the user's cache folder.
type blockCounter struct {
	dir, session string
}

func (c blockCounter) path() string {
	dir := c.dir
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(cache, "baton", "stop-hook")
	}
	sum := sha256.Sum256([]byte(c.session))
	return filepath.Join(dir, hex.EncodeToString(sum[:8]))
}

func (c blockCounter) get() int {
	p := c.path()
	if p == "" {
		return 0
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return 0
	}
	var n int
	fmt.Sscanf(string(b), "%d", &n)
	return n
}

func (c blockCounter) add() {
	if p := c.path(); p != "" {
		n := c.get() + 1
		_ = os.MkdirAll(filepath.Dir(p), 0o700)
		_ = os.WriteFile(p, []byte(fmt.Sprintf("%d\n", n)), 0o600)
	}
}

func (c blockCounter) reset() {
	if p := c.path(); p != "" {
		_ = os.Remove(p)
	}
}
