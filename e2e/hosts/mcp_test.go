package hosts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// With baton's MCP server registered (baton mcp install), an agent that
// checks its stop message with check_stop before it stops gets baton's
// findings in the host's next request to the model, fixes the packet, and
// stops once: the stop hook passes it at the first try. Without the tool
// (BadPacketBlockedUntilFixed) the same packet is blocked first.

// checkStopCall is the scripted model's call of check_stop with the bad
// packet, as the host names baton's tool.
func checkStopCall(t *testing.T, tool string) string {
	t.Helper()
	input, _ := json.Marshal(map[string]string{"message": badPacket(t)})
	return toolCall(tool, string(input))
}

// checkMCPRun checks the model's requests of an agent that called
// check_stop, then sent the fixed packet: the request after the call holds
// baton's findings, and no request holds a block.
func checkMCPRun(t *testing.T, m *modelMock, calls int) {
	t.Helper()
	turns := m.Turns()
	if len(turns) != calls+1 {
		t.Fatalf("the model was asked %d times, want %d (the tool calls, then the fixed packet, never blocked)", len(turns), calls+1)
	}
	for _, want := range []string{"packet/review-auto-continue", "packet/review-not-held"} {
		if !turnHas(turns[calls], want) {
			t.Errorf("the request after check_stop does not hold %q: baton's findings did not reach the model", want)
		}
	}
	for i, r := range turns {
		if turnHas(r, blockReason) {
			t.Errorf("request %d holds the stop hook's block: the checked packet was blocked", i+1)
		}
	}
}

func TestMCPInClaudeCode(t *testing.T) {
	claude := hostBinary(t, "claude", "claude")
	s := newScratch(t, batonBinary(t))
	installClaude(t, s)
	s.run(t, s.repo, s.baton, "mcp", "install", "--host", "claude")
	// Claude Code starts a project's .mcp.json server once the person
	// approves it: baton mcp status says so, and how (the user's approval,
	// which counts without the folder's trust dialog).
	if out := s.run(t, s.repo, s.baton, "mcp", "status"); !strings.Contains(out, "Claude Code will not start it") {
		t.Errorf("before the approval, baton mcp status does not say Claude Code will not start the server:\n%s", out)
	}
	writeFile(t, filepath.Join(s.home, ".claude", "settings.json"), `{"enabledMcpjsonServers": ["baton"]}`+"\n")
	if out := s.run(t, s.repo, s.baton, "mcp", "status"); strings.Contains(out, "Claude Code will not start it") || !strings.Contains(out, "registered: baton mcp") {
		t.Errorf("once approved, baton mcp status says:\n%s", out)
	}
	// Claude Code defers MCP tools: the model loads check_stop's schema
	// with ToolSearch, calls it, then stops with the fixed packet.
	m := newModelMock(t,
		toolCall("ToolSearch", `{"query": "select:mcp__baton__check_stop"}`),
		checkStopCall(t, "mcp__baton__check_stop"),
		fixedPacket)
	run := runClaude(t, s, claude, m, newUUID(t), false, packetPrompt, "--allowedTools", "mcp__baton")
	t.Logf("claude -p took %v", run.took.Round(time.Millisecond))
	checkMCPRun(t, m, 2)
	if strings.TrimSpace(run.result) != strings.TrimSpace(fixedPacket) {
		t.Errorf("claude ended the turn with %q, want the fixed packet", run.result)
	}
	ct := readClaudeTranscript(t, run.transcript)
	if ct.stops != 1 || ct.blocked != 0 {
		t.Errorf("transcript: %d stops, %d blocked; want one stop, not blocked", ct.stops, ct.blocked)
	}
	checkAudit(t, s, run.transcript, auditCounts{Stops: 1})
}

func TestMCPInCodex(t *testing.T) {
	codex := hostBinary(t, "codex", "codex")
	s := newScratch(t, batonBinary(t))
	installCodex(t, s)
	// Codex offers an MCP server's tools as the namespace mcp__SERVER.
	m := newModelMock(t, checkStopCall(t, "mcp__baton/check_stop"), fixedPacket)
	writeCodexConfig(t, s, m) // the project trusted
	s.run(t, s.repo, s.baton, "mcp", "install", "--host", "codex")
	if out := s.run(t, s.repo, s.baton, "mcp", "status"); strings.Contains(out, "Codex will not start it") {
		t.Errorf("in a trusted project, baton mcp status says Codex will not start the server:\n%s", out)
	}
	run := runCodex(t, s, codex, "", packetPrompt)
	t.Logf("codex exec took %v", run.took.Round(time.Millisecond))
	checkMCPRun(t, m, 1)
	if strings.TrimSpace(run.result) != strings.TrimSpace(fixedPacket) {
		t.Errorf("codex ended the turn with %q, want the fixed packet", run.result)
	}
	checkAudit(t, s, run.rollout, auditCounts{Stops: 1})
}

func TestMCPInCopilotCLI(t *testing.T) {
	copilot := filepath.Join(cacheDir(t), "copilot", "bin", "copilot")
	if _, err := os.Stat(copilot); err != nil {
		t.Skipf("copilot is not installed (%v): run e2e/setup-hosts.sh", err)
	}
	s := newScratch(t, batonBinary(t))
	installCopilot(t, s)
	s.run(t, s.repo, s.baton, "mcp", "install", "--host", "copilot")
	if out := s.run(t, s.repo, s.baton, "mcp", "status"); strings.Contains(out, "Copilot CLI will not start it") || !strings.Contains(out, "registered: baton mcp") {
		t.Errorf("in a trusted folder, baton mcp status says:\n%s", out)
	}
	// Copilot CLI offers an MCP server's tools as SERVER-TOOL.
	m := newModelMock(t, checkStopCall(t, "baton-check_stop"), fixedPacket)
	run := runCopilot(t, s, copilot, m, packetPrompt)
	t.Logf("copilot -p took %v", run.took.Round(time.Millisecond))
	checkMCPRun(t, m, 1)
	if !strings.Contains(run.result, strings.TrimSpace(fixedPacket)) {
		t.Errorf("copilot ended the turn with %q, want the fixed packet", run.result)
	}
	checkAudit(t, s, run.events, auditCounts{Stops: 1})
}

func TestMCPInGeminiCLI(t *testing.T) {
	gemini := geminiBinary(t)
	s := newScratch(t, batonBinary(t))
	s.run(t, s.repo, s.baton, "hook", "install", "--host", "gemini", "--project")
	s.run(t, s.repo, s.baton, "mcp", "install", "--host", "gemini")
	writeGeminiSettings(t, s)
	// Gemini CLI names an MCP server's tools mcp_SERVER_TOOL; headless, it
	// offers only the tools allowed to run without asking.
	m := newModelMock(t, checkStopCall(t, "mcp_baton_check_stop"), fixedPacket)
	got, took := runGemini(t, s, gemini, m, packetPrompt, "--allowed-tools", "mcp_baton_check_stop")
	t.Logf("gemini -p took %v", took.Round(time.Millisecond))
	checkMCPRun(t, m, 1)
	if !strings.Contains(got, "Reply \"delete\" to remove the JSON files") {
		t.Errorf("gemini ended the turn with %q, want the fixed packet", got)
	}
	checkAudit(t, s, filepath.Join(s.home, ".gemini", "tmp"), auditCounts{Stops: 1})
}
