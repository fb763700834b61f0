package copilot

import "github.com/baton-md/baton/agenthost"

// What `baton help hook copilot-stop` and `copilot-prompt` say.
var (
	stopHelp = &agenthost.HookHelp{
		Summary: "a Copilot CLI agentStop hook: the one stop policy every host's stop hook asks (docs/hosts.md)",
		Text: `A Copilot CLI agentStop hook (docs/hosts.md). It asks the one stop policy
every host's stop hook asks, and answers in Copilot CLI's output contract: the
same message in the same workspace gets the same verdict and reason on every
host. It fails open on its own errors, and bounds the loop with the host's own
signal where there is one and baton's count of blocks in a row (--max-blocks)
in every case.`,
		Reads: `the agentStop event as JSON on standard input (stop_hook_active too); the
agent's last message from the session's events file (transcriptPath), once
the hook's own hook.start record is there (Copilot writes it after the hook
starts: waited for up to 2 s); when it never comes, the stop goes through and
standard error says so; the Git work tree and the specrew workspace above
cwd; its per-session state.`,
		Writes: `{"decision":"block","reason":…} on standard output when it blocks, nothing
when it lets the stop through; its per-session state in --state-dir or the
user cache folder; why it failed open on standard error.`,
	}
	promptHelp = &agenthost.HookHelp{
		Summary: "a Copilot CLI userPromptSubmitted hook: takes the turn's baseline",
		Text: `A Copilot CLI userPromptSubmitted hook: at the start of a turn it records what
the work tree holds, so that copilot-stop bills the turn only for what changed
since. It never blocks the prompt.`,
		Reads:  "the event as JSON on standard input (session and cwd); the Git work tree.",
		Writes: "what the host needs to let the prompt through, on standard output; the turn's baseline in its per-session state; errors on standard error.",
	}
)

// help is what the commands' help says of Copilot CLI.
var help = agenthost.HostHelp{
	ProjectFolder: ".github/hooks/", UserFolder: "~/.copilot/", UserSettings: "~/.copilot/hooks/ ($COPILOT_HOME/hooks)", HomeEnv: "$COPILOT_HOME",
	Uninstall:    "For Copilot CLI every .github/hooks/*.json (or ~/.copilot/hooks/*.json) is looked at.",
	Runs:         "Copilot CLI a repository's hooks only in a trusted folder (~/.copilot/config.json)",
	TrustRecords: "Copilot CLI's config.json",
	MCPStarts:    "Copilot CLI's trusted folders",
}
