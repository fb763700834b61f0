package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/baton-md/baton/agenthost"
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

const hookUsage = `usage: baton hook HOST-stop [--max-blocks N] [--lint] [--require-packet] [--state-dir DIR]
       baton hook HOST-prompt|claude-tool [--require-packet] [--state-dir DIR]

HOST-stop is a stop hook for one agent host: claude-stop (Claude Code's Stop),
codex-stop (Codex's Stop), gemini-stop (Gemini CLI's AfterAgent), cursor-stop
(Cursor's stop), copilot-stop (GitHub Copilot CLI's and cloud agent's agentStop).
It reads the host's hook input (JSON) on standard input, and the session's
transcript the input names when the input lacks the agent's last message;
it writes the host's reply on standard output (a block with the reason, or
nothing / {} to let the stop through) and why it let a stop through on
standard error. It keeps a small count of blocks per session in --state-dir
(default: the user cache folder) and never loops. docs/hosts.md has each
host's settings and contract.

HOST-prompt, at the start of a turn (claude-prompt and codex-prompt on
UserPromptSubmit, gemini-prompt on BeforeAgent, cursor-prompt on
beforeSubmitPrompt, copilot-prompt on userPromptSubmitted), takes the turn's
baseline, so that only this turn's changes count as its work; claude-tool
(PostToolUse) records which session made a change. They read the hook input,
write only --state-dir, and never block.
`

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

// runStopHook runs one host's stop hook.
func runStopHook(a stopAdapter, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, code, ok := hookFlags(args, stderr)
	if !ok {
		return code
	}
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
	// format is the transcript's: Copilot CLI runs the hooks of
	// .claude/settings.json with a Claude Code input naming its own events.
	format := a.host
	if in.transcript != "" && a.host == transcript.Claude && copilotEvents(in.transcript) {
		format = transcript.Copilot
	}
	if in.transcript != "" && format == transcript.Copilot {
		if err := copilotAwait(in.transcript, in.stamp, copilotWait); err != nil {
			if strings.TrimSpace(stop.Message) == "" {
				return failOpen("%v", err)
			}
			fmt.Fprintf(stderr, "baton: %v; judging the message alone\n", err)
			in.transcript = ""
		}
	}
	if in.transcript != "" {
		stop.History, err = history(format, in.transcript)
		if err != nil {
			if strings.TrimSpace(stop.Message) == "" {
				return failOpen("read the transcript: %v", err)
			}
			fmt.Fprintf(stderr, "baton: read the transcript: %v; judging the message alone\n", err)
		}
	}
	if in.cumulative {
		var note string
		if stop.Message, note = lastResponse(stop, o); note != "" {
			fmt.Fprintf(stderr, "baton: %s\n", note)
		}
	}
	if strings.TrimSpace(stop.Message) == "" {
		if in.transcript == "" {
			return failOpen("no %s and no %s", a.messageField, a.transcriptField)
		}
		stop.Message, err = lastMessage(format, in.transcript, stop.History)
		if err != nil {
			return failOpen("read the transcript: %v", err)
		}
		if strings.TrimSpace(stop.Message) == "" {
			return failOpen("the transcript has no assistant message")
		}
	}
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

// history opens the session's transcript as the policy reads it: Claude
// Code's raw end, as specrew's provider does; the others' end, read into
// entries (transcript.ReadTail).
func history(host, path string) (stoppolicy.History, error) {
	if host == transcript.Claude {
		return transcript.ClaudeHistory{Path: path}, nil
	}
	s, err := transcript.ReadTail(path, host)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// lastMessage is the agent's last message in the session's transcript:
// in Copilot CLI's events and Gemini CLI's chat file, the turn's (after
// the person's last message), so that a reply the host has not written
// yet is never taken for an older one.
func lastMessage(host, path string, h stoppolicy.History) (string, error) {
	if s, ok := h.(*transcript.Session); ok {
		if host == transcript.Copilot || host == transcript.Gemini {
			return turnReply(s), nil
		}
		return s.LastMessage(), nil
	}
	return transcript.LastMessage(host, path)
}

// turnReply is the last assistant text since the person's last message;
// "" when the turn has none.
func turnReply(s *transcript.Session) string {
	for i := len(s.Entries) - 1; i >= 0; i-- {
		e := s.Entries[i]
		switch {
		case e.Role == transcript.Assistant && strings.TrimSpace(e.Text) != "":
			return e.Text
		case e.Role == transcript.User && e.Person:
			return ""
		}
	}
	return ""
}

// lastResponse is the response to judge when the input holds every
// response of the turn so far (Gemini CLI's prompt_response), and what to
// say on standard error about it. prompt_response is no faithful copy of
// the text: Gemini CLI joins a response's streamed chunks with a space
// (Turn.getResponseText), may hold a chunk twice, and joins the turn's
// responses with a newline (cumulativeResponse). The chat file holds the
// last response as the model wrote it, but without its HTML comments
// (where specrew's verdict marker is) and zero-width characters, trimmed.
// So: where the input ends with the chat file's response, compared as
// Gemini CLI records them, white space aside, the response is cut from the
// input, comments and all; else the chat file's response is judged, with
// the HTML comments of the input's own part (on a retry, what it added to
// the last stop's text) put back at its end. Without the chat file's
// response, the retry's added part, or the whole text.
func lastResponse(stop stoppolicy.Stop, o stoppolicy.Options) (msg, note string) {
	all := stop.Message
	own := all
	if added, split := (stoppolicy.Counter{Dir: o.StateDir, Session: stop.SessionID}).Appended(all); stop.Active && split {
		own = added
	}
	var last string
	if s, ok := stop.History.(*transcript.Session); ok {
		last = turnReply(s)
	}
	kept, _ := geminiKept(last)
	if len(kept) == 0 {
		return own, ""
	}
	if keptAll, at := geminiKept(all); bytes.HasSuffix(keptAll, kept) {
		start := at[len(keptAll)-len(kept)]
		cut := all[strings.LastIndexByte(all[:start], '\n')+1:]
		// Only a faithful cut: a space joining two chunks inside a word
		// or a heading would be judged as the model's.
		if geminiWords(cut) == geminiWords(last) {
			return cut, ""
		}
	}
	note = "judging the response as the chat file holds it: prompt_response does not end with it as the model wrote it"
	comments := htmlComments(own)
	if len(comments) == 0 {
		return last, note
	}
	return strings.TrimRight(last, "\n") + "\n\n" + strings.Join(comments, "\n") + "\n",
		fmt.Sprintf("%s; its HTML comments (%d) are put back at the end", note, len(comments))
}

// geminiWords is text as Gemini CLI's chat file keeps it (geminiKept),
// with each run of white space one space: two texts the same but for the
// white space a chunk's join may add or the file's trim removes.
func geminiWords(text string) string {
	var b strings.Builder
	space := false
	kept := geminiStripped(text)
	for _, r := range kept {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// geminiStripped is text without its HTML comments and zero-width
// characters.
func geminiStripped(text string) string {
	var b strings.Builder
	for i := 0; i < len(text); {
		if strings.HasPrefix(text[i:], "<!--") {
			if end := strings.Index(text[i+4:], "-->"); end >= 0 {
				i += 4 + end + 3
				continue
			}
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if !(r >= 0x200B && r <= 0x200F) && r != 0xFEFF {
			b.WriteString(text[i : i+n])
		}
		i += n
	}
	return b.String()
}

// htmlComments are the HTML comments of text, in order.
func htmlComments(text string) []string {
	var out []string
	for {
		i := strings.Index(text, "<!--")
		if i < 0 {
			return out
		}
		j := strings.Index(text[i+4:], "-->")
		if j < 0 {
			return out
		}
		out = append(out, text[i:i+4+j+3])
		text = text[i+4+j+3:]
	}
}

// geminiKept is what of a response's text Gemini CLI's chat file keeps,
// less all white space, for comparing: no HTML comment, no zero-width
// character. at holds each kept byte's offset in text.
func geminiKept(text string) (kept []byte, at []int) {
	for i := 0; i < len(text); {
		if strings.HasPrefix(text[i:], "<!--") {
			if end := strings.Index(text[i+4:], "-->"); end >= 0 {
				i += 4 + end + 3
				continue
			}
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsSpace(r) && !(r >= 0x200B && r <= 0x200F) && r != 0xFEFF {
			for k := range n {
				kept = append(kept, text[i+k])
				at = append(at, i+k)
			}
		}
		i += n
	}
	return kept, at
}
