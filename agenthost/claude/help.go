package claude

import "github.com/baton-md/baton/agenthost"

// What `baton help hook claude-stop`, `claude-prompt` and `claude-tool`
// say.
var (
	stopHelp = &agenthost.HookHelp{
		Summary: "a Claude Code Stop hook: blocks the stops specrew's stop provider blocks",
		Text: `A Claude Code Stop hook. In a specrew project it blocks the stops specrew's
stop provider blocks, and no others: at a pending boundary, a message without
that crossing's verdict marker; after material work (files changed or commits
made since the turn's baseline), a message without the packet. With --lint a
message breaking baton's rules (errors) is blocked too, in any project.
Conversation is never blocked, and it never loops: at most --max-blocks blocks
in a row per session. Undecided after 15 s (below the 20 s Claude Code is
given for it), it lets the stop through and says why.`,
		Reads: `the Stop event as JSON on standard input (session_id, transcript_path, cwd,
stop_hook_active, last_assistant_message); the transcript; the Git work tree
and the specrew workspace above cwd; its per-session state.`,
		Writes: `{"decision":"block","reason":…} on standard output when it blocks, nothing
when it lets the stop through; its per-session state (block count, turn
baseline) in --state-dir or the user cache folder; warnings and why it failed
open on standard error.`,
	}
	promptHelp = &agenthost.HookHelp{
		Summary: "a Claude Code UserPromptSubmit hook: takes the turn's baseline",
		Text: `A Claude Code UserPromptSubmit hook: at the start of a turn it records what
the work tree holds, so that the Stop hook bills the turn only for what
changed since.`,
		Reads:  "the event as JSON on standard input (session_id, cwd); the Git work tree.",
		Writes: "nothing on standard output; the turn's baseline in its per-session state; errors on standard error.",
	}
	toolHelp = &agenthost.HookHelp{
		Summary: "a Claude Code PostToolUse hook: records which session made a change",
		Text: `A Claude Code PostToolUse hook: after a tool call it records that the change
it made is this session's, so that another session's stop is not billed for
it.`,
		Reads:  "the event as JSON on standard input (session_id, cwd); the Git work tree.",
		Writes: "nothing on standard output; the claim in its per-session state; errors on standard error.",
	}
)

// help is what the commands' help says of Claude Code.
var help = agenthost.HostHelp{
	ProjectFolder: ".claude/", UserFolder: "~/.claude/", UserSettings: "~/.claude/",
	Installed: "baton's Claude Code plugin (enabled in enabledPlugins)",
	MCPStarts: "Claude Code's enabledMcpjsonServers (a project's approval counting once its folder is trusted)",
}
