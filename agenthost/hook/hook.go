// Package hook runs baton's hooks for every agent host: an agent host runs
// one when its agent is about to stop (or a turn starts, or a tool is
// done), with a JSON description on standard input. Each host's adapter
// (agenthost.Host.Stop, in the host's package, listed in agenthost/hosts)
// reads that host's input into an agenthost.Stop; the runner here finds
// the agent's last message (in the input, else in the host's transcript),
// asks the one stop policy (package stoppolicy) and answers in the host's
// output contract. Every hook fails open: on its own error it lets the
// stop through and says why on standard error. docs/hosts.md says what
// each host's contract is and where it is documented.
//
// The command line (cmd/baton) parses the hook's flags and calls Stop,
// Prompt or Tool with the host Lookup names.
package hook

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
	"github.com/baton-md/baton/internal/heapbudget"
	"github.com/baton-md/baton/stoppolicy"
	"github.com/baton-md/baton/transcript"
)

// Lookup is the host of a hook's name ("ID-stop" with suffix "-stop"),
// and whether name is one.
func Lookup(name, suffix string) (*agenthost.Host, bool) {
	id, ok := strings.CutSuffix(name, suffix)
	if !ok {
		return nil, false
	}
	h := hosts.Lookup(id)
	if h == nil || (suffix == "-tool" && !h.ToolHook) {
		return nil, false
	}
	return h, true
}

// Flags defines a hook's flags on fl, and returns the options they set.
func Flags(fl *flag.FlagSet) *stoppolicy.Options {
	o := new(stoppolicy.Options)
	fl.IntVar(&o.MaxBlocks, "max-blocks", stoppolicy.DefaultMaxBlocks, "block at most this many times in a row in one session")
	fl.BoolVar(&o.Lint, "lint", false, "also block a message that breaks baton's rules (errors), in any project")
	fl.BoolVar(&o.RequirePacket, "require-packet", false, "demand the packet after material work in any Git project, not only a specrew one")
	fl.StringVar(&o.StateDir, "state-dir", "", "where the hook keeps its per-session state (default: the user cache folder)")
	return o
}

// Known says whether name is a hook Run runs.
func Known(name string) bool {
	for _, suffix := range []string{"-stop", "-prompt", "-tool"} {
		if _, ok := Lookup(name, suffix); ok {
			return true
		}
	}
	return false
}

// Run runs the hook args[0] names (HOST-stop, HOST-prompt, HOST-tool)
// with options o, args being its command line; false when there is no
// such hook.
func Run(args []string, o stoppolicy.Options, stdin io.Reader, stdout, stderr io.Writer) bool {
	if h, ok := Lookup(args[0], "-stop"); ok {
		Stop(h, o, args, stdin, stdout, stderr)
	} else if h, ok := Lookup(args[0], "-prompt"); ok {
		Prompt(h, o, stdin, stdout, stderr)
	} else if h, ok := Lookup(args[0], "-tool"); ok {
		Tool(h, o, stdin, stdout, stderr)
	} else {
		return false
	}
	return true
}

// Usage is the usage of baton hook, naming every host's hooks and the
// events they run on.
var Usage = func() string {
	var stops, prompts, tools []string
	for _, h := range hosts.All {
		stops = append(stops, fmt.Sprintf("%s-stop (%s)", h.ID, h.StopEvent))
		prompts = append(prompts, fmt.Sprintf("%s-prompt on %s", h.ID, h.PromptEvent))
		if h.ToolHook {
			tools = append(tools, h.ID+"-tool")
		}
	}
	return `usage: baton hook HOST-stop [--max-blocks N] [--lint] [--require-packet] [--state-dir DIR]
       baton hook HOST-prompt|` + strings.Join(tools, "|") + ` [--require-packet] [--state-dir DIR]

` + Fill("HOST-stop is a stop hook for one agent host: "+strings.Join(stops, ", ")+". "+
		"It reads the host's hook input (JSON) on standard input, and the session's "+
		"transcript the input names when the input lacks the agent's last message; "+
		"it writes the host's reply on standard output (a block with the reason, or "+
		"nothing / {} to let the stop through) and why it let a stop through on "+
		"standard error. It keeps a small count of blocks per session in --state-dir "+
		"(default: the user cache folder) and never loops. Undecided after 15 s, "+
		"it lets the stop through and says why. docs/hosts.md has each "+
		"host's settings and contract.") + "\n" +
		Fill("HOST-prompt, at the start of a turn ("+strings.Join(prompts, ", ")+"), "+
			"takes the turn's baseline, so that only this turn's changes count as its work; "+
			strings.Join(tools, ", ")+" (PostToolUse) records which session made a change. They read the "+
			"hook input, write only --state-dir, and never block.")
}()

// Fill breaks text into lines of at most 78 characters, at spaces, and
// ends it with a newline.
func Fill(text string) string {
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

// readInput is the hook's input, at most 64 MiB.
func readInput(stdin io.Reader) ([]byte, error) {
	return io.ReadAll(io.LimitReader(stdin, 64<<20))
}

// pass writes the reply that lets the stop through, if the host has one.
func pass(h *agenthost.Host, stdout io.Writer) {
	if h.Stop.Pass != nil {
		fmt.Fprintln(stdout, h.Stop.Pass)
	}
}

// Prompt is the turn's start on a host (the event Host.PromptEvent
// names): it takes the turn's baseline, so that
// what the tree held before the person's prompt is not this turn's work.
// It never blocks the prompt.
func Prompt(h *agenthost.Host, o stoppolicy.Options, stdin io.Reader, stdout, stderr io.Writer) {
	defer func() {
		if h.Stop.PromptPass != nil {
			fmt.Fprintln(stdout, h.Stop.PromptPass)
		}
	}()
	raw, err := readInput(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "baton: read the hook input: %v; no baseline taken\n", err)
		return
	}
	in, err := h.Stop.Parse(raw)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v; no baseline taken\n", err)
		return
	}
	// Every host's prompt hook input names the prompt "prompt".
	var p struct {
		Prompt string `json:"prompt"`
	}
	_ = json.Unmarshal(agenthost.TrimBOM(raw), &p)
	kept, err := stoppolicy.TurnStart(in.Stop.Cwd, in.Stop.SessionID, p.Prompt, o)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
	}
	if kept != "" {
		fmt.Fprintf(stderr, "baton: %s; the turn's baseline is kept\n", kept)
	}
}

// Tool is a host's tool hook (Host.ToolHook): a change a tool
// made is this session's, so another session's stop is not billed for it.
func Tool(h *agenthost.Host, o stoppolicy.Options, stdin io.Reader, stdout, stderr io.Writer) {
	raw, err := readInput(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "baton: read the hook input: %v\n", err)
		return
	}
	in, err := h.Stop.Parse(raw)
	if err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
		return
	}
	if err := stoppolicy.ToolDone(in.Stop.Cwd, in.Stop.SessionID, o); err != nil {
		fmt.Fprintf(stderr, "baton: %v\n", err)
	}
}

// Budget is how long a stop hook works at a stop before it lets the stop
// through: below the shortest timeout a host gives the hook (20 s, as
// hook install writes it for some hosts; 30 s for the others), so that a
// stop the hook cannot judge in time goes through with the hook saying
// why, instead of the host killing it with nothing said.
var Budget = 15 * time.Second

// AwaitLimit bounds how long a hook waits for its host to write the
// stop's records (agenthost.Host.Await): the host that waits for one
// (docs/hosts.md) wrote it 0.09 to 0.15 s after the hook started.
var AwaitLimit = 2 * time.Second

// Judgements are the stop hooks' judgements still running: the process
// ends without them, and a test waits for those its budget let go.
var Judgements sync.WaitGroup

// Stop runs one host's stop hook within Budget; args are the hook's
// command line, as the stop policy records it. The judgement runs aside:
// what it says on standard error is passed on as it says it; its reply,
// once it is made. When the budget runs out first, the hook lets the stop
// through in the host's contract and says so on standard error, and
// nothing the judgement writes after reaches either stream. (A block it
// records after that is not made; the host's stop_hook_active, false at
// the next stop, or the count's own bound keeps that from holding a stop
// back.)
func Stop(h *agenthost.Host, o stoppolicy.Options, args []string, stdin io.Reader, stdout, stderr io.Writer) {
	var reply bytes.Buffer
	errs := &gatedWriter{w: stderr}
	var phase atomic.Pointer[string]
	done := make(chan struct{}, 1)
	Judgements.Add(1)
	go func() {
		defer Judgements.Done()
		judge(h, o, args, stdin, &reply, errs, &phase)
		done <- struct{}{}
	}()
	timer := time.NewTimer(Budget)
	defer timer.Stop()
	select {
	case <-done:
		stdout.Write(reply.Bytes())
	case <-timer.C:
		errs.close()
		doing := "reading the hook input"
		if p := phase.Load(); p != nil {
			doing = *p
		}
		fmt.Fprintf(stderr, "baton: no decision within the stop hook's budget of %v (it was %s); letting the stop through\n", Budget, doing)
		pass(h, stdout)
	}
}

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

// judge is the stop hook's work: it reads the host's input, finds the
// message, asks the policy and writes the reply. phase says what it is
// doing, for the budget's message.
func judge(h *agenthost.Host, o stoppolicy.Options, args []string, stdin io.Reader, stdout, stderr io.Writer, phase *atomic.Pointer[string]) {
	doing := func(what string) { phase.Store(&what) }
	failOpen := func(format string, v ...any) {
		fmt.Fprintf(stderr, "baton: "+format+"; letting the stop through\n", v...)
		pass(h, stdout)
	}
	raw, err := readInput(stdin)
	if err != nil {
		failOpen("read the hook input: %v", err)
		return
	}
	// The message is in the input or the transcript: room for it, as
	// check makes for a document, under a collector paced to it.
	heapbudget.Enable()
	releaseInput := heapbudget.Admit(len(raw))
	defer func() { releaseInput() }()
	in, err := h.Stop.Parse(raw)
	if err != nil {
		failOpen("%v", err)
		return
	}
	if in.Skip != "" {
		fmt.Fprintf(stderr, "baton: %s; not judged\n", in.Skip)
		pass(h, stdout)
		return
	}
	stop := in.Stop
	stop.Host, stop.Args = h.ID, args
	// fh is the host whose transcript it is: another host may run this
	// host's hooks with its own (Host.Owns).
	fh := h
	if in.Transcript != "" {
		for _, other := range hosts.All {
			if other != h && other.Owns != nil && other.Owns(in.Transcript) {
				fh = other
			}
		}
	}
	if in.Transcript != "" && fh.Await != nil {
		doing("waiting for the host to write its transcript")
		if err := fh.Await(in.Transcript, in.Stamp, AwaitLimit); err != nil {
			if strings.TrimSpace(stop.Message) == "" {
				failOpen("%v", err)
				return
			}
			fmt.Fprintf(stderr, "baton: %v; judging the message alone\n", err)
			in.Transcript = ""
		}
	}
	if in.Transcript != "" {
		doing("reading the transcript")
		stop.History, err = history(fh, in.Transcript)
		if err != nil {
			if strings.TrimSpace(stop.Message) == "" {
				failOpen("read the transcript: %v", err)
				return
			}
			fmt.Fprintf(stderr, "baton: read the transcript: %v; judging the message alone\n", err)
		}
	}
	if in.Cumulative && h.Response != nil {
		var reply, note string
		if s, ok := stop.History.(*transcript.Session); ok {
			reply = s.TurnReply()
		}
		if stop.Message, note = h.Response(stop, o, reply); note != "" {
			fmt.Fprintf(stderr, "baton: %s\n", note)
		}
	}
	if strings.TrimSpace(stop.Message) == "" {
		if in.Transcript == "" {
			failOpen("no %s and no %s", h.Stop.MessageField, h.Stop.TranscriptField)
			return
		}
		stop.Message, err = lastMessage(fh, in.Transcript, stop.History)
		if err != nil {
			failOpen("read the transcript: %v", err)
			return
		}
		if strings.TrimSpace(stop.Message) == "" {
			failOpen("the transcript has no assistant message")
			return
		}
	}
	// The input is decoded: the room is the message's now, not both.
	releaseInput()
	releaseInput = heapbudget.Admit(len(stop.Message))
	doing(fmt.Sprintf("judging the message (%d KB)", len(stop.Message)>>10))
	out := stoppolicy.Evaluate(stop, o)
	if out.Released != "" {
		failOpen("%s", out.Released)
		return
	}
	for _, w := range out.Warnings {
		fmt.Fprintf(stderr, "baton: %s\n", w)
	}
	if out.Reason == "" {
		pass(h, stdout)
		return
	}
	if err := json.NewEncoder(stdout).Encode(h.Stop.Block(out.Reason)); err != nil {
		failOpen("write the decision: %v", err)
	}
}

// history opens the session's transcript as the policy reads it: as
// its host opens it (Host.History), else its end read into entries
// (transcript.ReadTail).
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
