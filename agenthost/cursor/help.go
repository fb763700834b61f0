package cursor

import "github.com/baton-md/baton/agenthost"

// What `baton help hook cursor-stop` and `cursor-prompt` say.
var (
	stopHelp = &agenthost.HookHelp{
		Summary: "a Cursor stop hook: the one stop policy every host's stop hook asks (docs/hosts.md)",
		Text: `A Cursor stop hook (docs/hosts.md). It asks the one stop policy every host's
stop hook asks, and answers in Cursor's output contract: the same message in
the same workspace gets the same verdict and reason on every host. It fails
open on its own errors, and bounds the loop with the host's own signal where
there is one and baton's count of blocks in a row (--max-blocks) in every
case.`,
		Reads: `the stop event as JSON on standard input; the agent's last message from the
agent transcript at transcript_path (with loop_count and status from the
event); the Git work tree and the specrew workspace above cwd; its per-session
state.`,
		Writes: `{"followup_message":…} on standard output when it blocks (Cursor sends it as
the next prompt), {} when it lets the stop through; its per-session state in
--state-dir or the user cache folder; why it failed open on standard error.`,
	}
	promptHelp = &agenthost.HookHelp{
		Summary: "a Cursor beforeSubmitPrompt hook: takes the turn's baseline",
		Text: `A Cursor beforeSubmitPrompt hook: at the start of a turn it records what the
work tree holds, so that cursor-stop bills the turn only for what changed
since. It never blocks the prompt.`,
		Reads:  "the event as JSON on standard input (session and cwd); the Git work tree.",
		Writes: "what the host needs to let the prompt through, on standard output; the turn's baseline in its per-session state; errors on standard error.",
	}
)

// help is what the commands' help says of Cursor.
var help = agenthost.HostHelp{ProjectFolder: ".cursor/", UserFolder: "~/.cursor/", UserSettings: "~/.cursor/"}
