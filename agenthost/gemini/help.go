package gemini

import "github.com/baton-md/baton/agenthost"

// What `baton help hook gemini-stop` and `gemini-prompt` say.
var (
	stopHelp = &agenthost.HookHelp{
		Summary: "a Gemini CLI AfterAgent hook: the one stop policy every host's stop hook asks (docs/hosts.md)",
		Text: `A Gemini CLI AfterAgent hook (docs/hosts.md). It asks the one stop policy
every host's stop hook asks, and answers in Gemini CLI's output contract: the
same message in the same workspace gets the same verdict and reason on every
host. It fails open on its own errors, and bounds the loop with the host's own
signal where there is one and baton's count of blocks in a row (--max-blocks)
in every case.`,
		Reads: `the AfterAgent event as JSON on standard input; the agent's last response:
the chat file's at transcript_path, with the HTML comments of prompt_response
(which joins streamed chunks with a space and, after a deny, holds every
response of the prompt) put back, unless prompt_response ends with it as
written; the Git work tree and the specrew workspace above cwd; its
per-session state.`,
		Writes: `{"decision":"deny","reason":…} on standard output when it blocks (Gemini CLI
retries with the reason), {} when it lets the turn end; its per-session state
in --state-dir or the user cache folder; why it failed open on standard error.`,
	}
	promptHelp = &agenthost.HookHelp{
		Summary: "a Gemini CLI BeforeAgent hook: takes the turn's baseline",
		Text: `A Gemini CLI BeforeAgent hook: at the start of a turn it records what the work
tree holds, so that gemini-stop bills the turn only for what changed since. It
never blocks the prompt.`,
		Reads:  "the event as JSON on standard input (session and cwd); the Git work tree.",
		Writes: "what the host needs to let the prompt through, on standard output; the turn's baseline in its per-session state; errors on standard error.",
	}
)

// help is what the commands' help says of Gemini CLI.
var help = agenthost.HostHelp{
	ProjectFolder: ".gemini/", UserFolder: "~/.gemini/", UserSettings: "~/.gemini/", Env: []string{"$GEMINI_CLI_TRUSTED_FOLDERS_PATH"},
	Installed:    "baton's Gemini CLI extension (~/.gemini/extensions/baton)",
	Runs:         "Gemini CLI only in a trusted folder (~/.gemini/trustedFolders.json)",
	TrustRecords: "Gemini CLI's trustedFolders.json",
	MCPStarts:    "Gemini CLI's trusted folders (without one it starts no MCP server at all)",
}
