package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/baton-md/baton/agenthost"
	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/stoppolicy"
	"github.com/baton-md/baton/transcript"
)

// The stop hooks: an agent host runs one when its agent is about to stop,
// with a JSON description on standard input. Each host has an adapter
// (hook_hosts.go) that reads that host's input, finds the agent's last
// message (in the input, else in the host's transcript), asks the one stop
// policy (package stoppolicy) and answers in the host's output contract.
// Every adapter fails open: on its own error it lets the stop through and
// says why on standard error. docs/hosts.md says what each host's contract
// is and where it is documented.

const defaultMaxBlocks = stoppolicy.DefaultMaxBlocks

// hookUsage is the usage of baton hook, naming every host's hooks and the
// events they run on.
var hookUsage = func() string {
	var stops, prompts []string
	for _, h := range hosts.All {
		stops = append(stops, fmt.Sprintf("%s-stop (%s)", h.ID, h.StopEvent))
		prompts = append(prompts, fmt.Sprintf("%s-prompt on %s", h.ID, h.PromptEvent))
	}
	return `usage: baton hook HOST-stop [--max-blocks N] [--lint] [--require-packet] [--state-dir DIR]
       baton hook HOST-prompt|claude-tool [--require-packet] [--state-dir DIR]

` + fill("HOST-stop is a stop hook for one agent host: "+strings.Join(stops, ", ")+". "+
		"It reads the host's hook input (JSON) on standard input, and the session's "+
		"transcript the input names when the input lacks the agent's last message; "+
		"it writes the host's reply on standard output (a block with the reason, or "+
		"nothing / {} to let the stop through) and why it let a stop through on "+
		"standard error. It keeps a small count of blocks per session in --state-dir "+
		"(default: the user cache folder) and never loops. Undecided after 15 s, "+
		"it lets the stop through and says why. docs/hosts.md has each "+
		"host's settings and contract.") + "\n" +
		fill("HOST-prompt, at the start of a turn ("+strings.Join(prompts, ", ")+"), "+
			"takes the turn's baseline, so that only this turn's changes count as its work; "+
			"claude-tool (PostToolUse) records which session made a change. They read the "+
			"hook input, write only --state-dir, and never block.")
}()

// fill breaks text into lines of at most 78 characters, at spaces, and
// ends it with a newline.
func fill(text string) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(text) {
		if n > 0 && n+1+len(w) > 78 {
			b.WriteByte('\n')
			n = 0
		}
		if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String() + "\n"
}

func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "baton: name a hook or a subcommand (baton help hook lists them)\n\n%s", hookUsage)
		return exitUsage
	}
	switch sub := args[0]; sub {
	case "install":
		return runHookInstall(args[1:], stdout, stderr)
	case "uninstall":
		return runHookUninstall(args[1:], stdout, stderr)
	case "status":
		return runHookStatus(args[1:], stdout, stderr)
	case "claude-tool":
		return runClaudeToolHook(args, stdin, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, hookUsage)
		return exitOK
	default:
		if a, ok := hostHook(sub, "-stop"); ok {
			return runStopHook(a, args, stdin, stdout, stderr)
		}
		if a, ok := hostHook(sub, "-prompt"); ok {
			return runPromptHook(a, args, stdin, stdout, stderr)
		}
		fmt.Fprintf(stderr, "baton: unknown hook %q\n\n%s", sub, hookUsage)
		return exitUsage
	}
}

// hookFlags parses a hook's flags; ok false means return code now.
func hookFlags(args []string, stderr io.Writer) (o stoppolicy.Options, code int, ok bool) {
	fl := flag.NewFlagSet("hook "+args[0], flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.IntVar(&o.MaxBlocks, "max-blocks", defaultMaxBlocks, "block at most this many times in a row in one session")
	fl.BoolVar(&o.Lint, "lint", false, "also block a message that breaks baton's rules (errors), in any project")
	fl.BoolVar(&o.RequirePacket, "require-packet", false, "demand the packet after material work in any Git project, not only a specrew one")
	fl.StringVar(&o.StateDir, "state-dir", "", "where the hook keeps its per-session state (default: the user cache folder)")
	// Asked for, help is printed on standard output from the help table
	// (help.go) before a hook runs; -h reaching here prints the flags on
	// standard error, which is how the table reads them.
	fl.Usage = func() {
		fmt.Fprint(stderr, hookUsage+"\nflags:\n")
		fl.PrintDefaults()
	}
	rest, code, ok := parseCommand("hook "+args[0], fl, args[1:], stderr)
	if !ok {
		return o, code, false
	}
	if len(rest) > 0 {
		usageError(stderr, "hook "+args[0], fmt.Sprintf("unexpected argument %q: the hook reads its input on standard input", rest[0]))
		return o, exitUsage, false
	}
	return o, 0, true
}

// runPromptHook is the turn's start on a host (Claude Code's and Codex's
// UserPromptSubmit, Gemini CLI's BeforeAgent, Cursor's beforeSubmitPrompt,
// Copilot's userPromptSubmitted): it takes the turn's baseline, so that
// what the tree held before the person's prompt is not this turn's work.
// It never blocks the prompt.
func runPromptHook(a stopAdapter, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, code, ok := hookFlags(args, stderr)
	if !ok {
		return code
	}
	defer func() {
		if a.promptPass != nil {
			fmt.Fprintln(stdout, a.promptPass)
		}
	}()
	raw, err := io.ReadAll(io.LimitReader(stdin, 64<<20))
	if err != nil {
		fmt.Fprintf(stderr, "baton: read the hook input: %v; no baseline taken\n", err)
		return exitOK
	}
	in, err := a.parse(raw)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v; no baseline taken\n", err)
		return exitOK
	}
	// Every host's prompt hook input names the prompt "prompt".
	var p struct {
		Prompt string `json:"prompt"`
	}
	_ = json.Unmarshal(agenthost.TrimBOM(raw), &p)
	kept, err := stoppolicy.TurnStart(in.stop.Cwd, in.stop.SessionID, p.Prompt, o)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
	}
	if kept != "" {
		fmt.Fprintf(stderr, "baton: %s; the turn's baseline is kept\n", kept)
	}
	return exitOK
}

// runClaudeToolHook is Claude Code's PostToolUse lane: a change a tool
// made is this session's, so another session's stop is not billed for it.
func runClaudeToolHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, code, ok := hookFlags(args, stderr)
	if !ok {
		return code
	}
	raw, err := io.ReadAll(io.LimitReader(stdin, 64<<20))
	if err != nil {
		fmt.Fprintf(stderr, "baton: read the hook input: %v\n", err)
		return exitOK
	}
	var in hookInput
	if err := json.Unmarshal(raw, &in); err != nil {
		fmt.Fprintf(stderr, "baton: the hook input is not JSON: %v\n", err)
		return exitOK
	}
	if err := stoppolicy.ToolDone(in.Cwd, in.SessionID, o); err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
	}
	return exitOK
}

// hookBudget is how long a stop hook works at a stop before it lets the
// stop through: below the shortest timeout a host gives the hook (Claude
// Code's 20 s, as hook install writes it; the others' 30 s), so that a
// stop the hook cannot judge in time goes through with the hook saying
// why, instead of the host killing it with nothing said.
var hookBudget = 15 * time.Second

// runStopHook runs one host's stop hook within hookBudget. The judgement
// runs aside: what it says on standard error is passed on as it says it;
// its reply, once it is made. When the budget runs out first, the hook
// lets the stop through in the host's contract and says so on standard
// error, and nothing the judgement writes after reaches either stream.
// (A block it records after that is not made; the host's
// stop_hook_active, false at the next stop, or the count's own bound
// keeps that from holding a stop back.)
func runStopHook(a stopAdapter, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, code, ok := hookFlags(args, stderr)
	if !ok {
		return code
	}
	var reply bytes.Buffer
	errs := &gatedWriter{w: stderr}
	var phase atomic.Pointer[string]
	done := make(chan int, 1)
	judgements.Add(1)
	go func() {
		defer judgements.Done()
		done <- judgeStop(a, o, args, stdin, &reply, errs, &phase)
	}()
	timer := time.NewTimer(hookBudget)
	defer timer.Stop()
	select {
	case code := <-done:
		stdout.Write(reply.Bytes())
		return code
	case <-timer.C:
		errs.close()
		doing := "reading the hook input"
		if p := phase.Load(); p != nil {
			doing = *p
		}
		fmt.Fprintf(stderr, "baton: no decision within the stop hook's budget of %v (it was %s); letting the stop through\n", hookBudget, doing)
		if a.pass != nil {
			fmt.Fprintln(stdout, a.pass)
		}
		return exitOK
	}
}

// judgements are the stop hooks' judgements still running: the process
// ends without them, and a test waits for those its budget let go.
var judgements sync.WaitGroup

// gatedWriter passes writes on to w until it is closed, and drops them
// after.
type gatedWriter struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return len(p), nil
	}
	return g.w.Write(p)
}

func (g *gatedWriter) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

// judgeStop is the stop hook's work: it reads the host's input, finds the
// message, asks the policy and writes the reply. phase says what it is
// doing, for the budget's message.
func judgeStop(a stopAdapter, o stoppolicy.Options, args []string, stdin io.Reader, stdout, stderr io.Writer, phase *atomic.Pointer[string]) int {
	doing := func(what string) { phase.Store(&what) }
	failOpen := func(format string, v ...any) int {
		fmt.Fprintf(stderr, "baton: "+format+"; letting the stop through\n", v...)
		if a.pass != nil {
			fmt.Fprintln(stdout, a.pass)
		}
		return exitOK
	}
	raw, err := io.ReadAll(io.LimitReader(stdin, 64<<20))
	if err != nil {
		return failOpen("read the hook input: %v", err)
	}
	in, err := a.parse(raw)
	if err != nil {
		return failOpen("%v", err)
	}
	if in.skip != "" {
		fmt.Fprintf(stderr, "baton: %s; not judged\n", in.skip)
		if a.pass != nil {
			fmt.Fprintln(stdout, a.pass)
		}
		return exitOK
	}
	stop := in.stop
	stop.Host, stop.Args = a.host, args
	// fh is the host whose transcript it is: another host may run this
	// host's hooks with its own (Copilot CLI, Claude Code's).
	fh := a.Host
	if in.transcript != "" {
		for _, h := range hosts.All {
			if h != a.Host && h.Owns != nil && h.Owns(in.transcript) {
				fh = h
			}
		}
	}
	if in.transcript != "" && fh.Await != nil {
		doing("waiting for the host to write its transcript")
		if err := fh.Await(in.transcript, in.stamp, awaitLimit); err != nil {
			if strings.TrimSpace(stop.Message) == "" {
				return failOpen("%v", err)
			}
			fmt.Fprintf(stderr, "baton: %v; judging the message alone\n", err)
			in.transcript = ""
		}
	}
	if in.transcript != "" {
		doing("reading the transcript")
		stop.History, err = history(fh, in.transcript)
		if err != nil {
			if strings.TrimSpace(stop.Message) == "" {
				return failOpen("read the transcript: %v", err)
			}
			fmt.Fprintf(stderr, "baton: read the transcript: %v; judging the message alone\n", err)
		}
	}
	if in.cumulative && a.Response != nil {
		var reply, note string
		if s, ok := stop.History.(*transcript.Session); ok {
			reply = s.TurnReply()
		}
		if stop.Message, note = a.Response(stop, o, reply); note != "" {
			fmt.Fprintf(stderr, "baton: %s\n", note)
		}
	}
	if strings.TrimSpace(stop.Message) == "" {
		if in.transcript == "" {
			return failOpen("no %s and no %s", a.messageField, a.transcriptField)
		}
		stop.Message, err = lastMessage(fh, in.transcript, stop.History)
		if err != nil {
			return failOpen("read the transcript: %v", err)
		}
		if strings.TrimSpace(stop.Message) == "" {
			return failOpen("the transcript has no assistant message")
		}
	}
	doing(fmt.Sprintf("judging the message (%d KB)", len(stop.Message)>>10))
	out := stoppolicy.Evaluate(stop, o)
	if out.Released != "" {
		return failOpen("%s", out.Released)
	}
	for _, w := range out.Warnings {
		fmt.Fprintf(stderr, "baton: %s\n", w)
	}
	if out.Reason == "" {
		if a.pass != nil {
			fmt.Fprintln(stdout, a.pass)
		}
		return exitOK
	}
	if err := json.NewEncoder(stdout).Encode(a.block(out.Reason)); err != nil {
		return failOpen("write the decision: %v", err)
	}
	return exitOK
}

// history opens the session's transcript as the policy reads it: as
// its host opens it (Claude Code's raw end, as specrew's provider reads
// it), else its end read into entries (transcript.ReadTail).
func history(h *agenthost.Host, path string) (stoppolicy.History, error) {
	if h.History != nil {
		return h.History(path)
	}
	s, err := transcript.ReadTail(path, h.Transcript.Host)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// lastMessage is the agent's last message in the session's transcript:
// the turn's (after the person's last message) for a host that may run
// its hook before it writes the reply, so that an older reply is never
// taken for it.
func lastMessage(h *agenthost.Host, path string, hist stoppolicy.History) (string, error) {
	if s, ok := hist.(*transcript.Session); ok {
		if h.TurnReply {
			return s.TurnReply(), nil
		}
		return s.LastMessage(), nil
	}
	if h.LastMessage != nil {
		return h.LastMessage(path)
	}
	return transcript.LastMessage(h.Transcript.Host, path)
}
