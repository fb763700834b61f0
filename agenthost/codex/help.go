package codex

import "github.com/baton-md/baton/agenthost"

// What `baton help hook codex-stop` and `codex-prompt` say.
var (
	stopHelp = &agenthost.HookHelp{
		Summary: "a Codex Stop hook: the one stop policy every host's stop hook asks (docs/hosts.md)",
		Text: `A Codex Stop hook (docs/hosts.md). It asks the one stop policy every host's
stop hook asks, and answers in Codex's output contract: the same message in
the same workspace gets the same verdict and reason on every host. It fails
open on its own errors, and bounds the loop with the host's own signal where
there is one and baton's count of blocks in a row (--max-blocks) in every
case.`,
		Reads: `the Stop event as JSON on standard input; the agent's last message from
last_assistant_message, else the rollout file at transcript_path; the Git work
tree and the specrew workspace above cwd; its per-session state.`,
		Writes: `{"decision":"block","reason":…} on standard output when it blocks, nothing
when it lets the stop through; its per-session state in --state-dir or the
user cache folder; why it failed open on standard error.`,
	}
	promptHelp = &agenthost.HookHelp{
		Summary: "a Codex UserPromptSubmit hook: takes the turn's baseline",
		Text: `A Codex UserPromptSubmit hook: at the start of a turn it records what the work
tree holds, so that codex-stop bills the turn only for what changed since. It
never blocks the prompt.`,
		Reads:  "the event as JSON on standard input (session and cwd); the Git work tree.",
		Writes: "what the host needs to let the prompt through, on standard output; the turn's baseline in its per-session state; errors on standard error.",
	}
)

// help is what the commands' help says of Codex.
var help = agenthost.HostHelp{
	ProjectFolder: ".codex/", UserFolder: "~/.codex/", UserSettings: "~/.codex/ ($CODEX_HOME)", HomeEnv: "$CODEX_HOME",
	Install:      "Codex trusts a hook by a hash of its command, so change the flags with install, then trust the hook again in Codex.",
	Runs:         "Codex only in a trusted project and with the hook's hash trusted ($CODEX_HOME/config.toml)",
	TrustRecords: "Codex's config.toml",
	MCPStarts:    "Codex's trusted projects",
}
