package packet

import "testing"

// TestVerdictReplyFollowsSpecrew: a line of code is a verdict reply when
// specrew's verdict reader takes it as a verdict (the phrasings of
// tests/integration/verdict-capture-blocks.tests.ps1, which tests
// Test-SpecrewHumanVerdictToken), except where baton wants the send-back,
// rejection or discussion to start the line.
func TestVerdictReplyFollowsSpecrew(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		// specrew: approve.
		{"Approve as-is", true},
		{"Approve with instructions: keep FR-022 as an amendment", true},
		{"approve plan -> tasks with instructions", true},
		{"Approved for tasks", true},
		{"I approve for tasks", true},
		{"Yes - approved for tasks", true},
		{"2. Approve with instructions: retain the drift note", true},
		{"approved, no changes needed", true},
		{"approved, no further changes required", true},
		// specrew: send back, discuss.
		{"Send back: the spec needs a non-functional section", true},
		{"Approve the idea, but send back the diagram", true},
		{"  3. Send back — describe what to change before this boundary can advance", true},
		{"4. Discuss prompt #N — discuss that prompt only, then return for explicit approval", true},
		{"rejected for tasks", true},
		// specrew: discuss, but not at the start of the line: a mention, here.
		{"Let's discuss prompt #2 before I decide", false},
		// specrew: none.
		{"3", false},
		{"4", false},
		{"1", false},
		{"option 1", false},
		{"2.", false},
		{"do not approve yet", false},
		{"don't approve until the tests pass", false},
		{"approve later, once you fix the clobber", false},
		{"what about the antigravity case?", false},
		{"I have 1 concern about the plan", false},
		{"if you already approved, please re-confirm", false},
		{"please reply with approved for tasks", false},
		{"the approval phrase is approved for tasks", false},
		{`"approved for tasks"`, false},
		{"start", false},
		{"approve?", false},
		{"is this ready to approve?", false},
		{"should I approve this or not?", false},
		{"can you explain before I approve?", false},
		{"", false},
		// A log line mentioning a rejection is not an option.
		{"2026-01-02 PR #12 rejected by the bot", false},
	} {
		if got := isVerdictReply(c.line); got != c.want {
			t.Errorf("isVerdictReply(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}
