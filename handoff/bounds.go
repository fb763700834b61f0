package handoff

import (
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The goal gate and the bounds, as clio-coder's handoff.ts states them.
const (
	// MinGoalLength is the shortest goal accepted, in JavaScript string
	// length (UTF-16 code units) after trimming.
	MinGoalLength = 12
	// MaxStringBytes bounds every string of the extraction, in UTF-8 bytes,
	// the truncation marker included.
	MaxStringBytes = 512
	// TruncationMarker flags a string the byte bound cut (14 bytes).
	TruncationMarker = "…[truncated]"
)

// GoalStoplist are the goals that name no goal (compared trimmed and
// lower-cased).
var GoalStoplist = []string{"continue", "keep going", "same", "next", "go on", "proceed", "resume"}

// List is one of the model's lists and its bound.
type List struct {
	Label   string    // the JSON key clio names it by in Bounds applied
	Section string    // the section(s) its items are in
	Also    string    // a second section holding the same list ("" if none)
	Bound   int       // at most this many items
	Noun    [2]string // singular and plural
	// Records: the list's items are records with required fields
	// (decisions: summary; files: path and why; commands: argv and why).
	// clio's parseHandoffExtraction (src/domains/session/handoff.ts)
	// applies the bound to the records first and then discards those
	// missing a required field, so its note may count more kept than it
	// renders. Facts and open questions are strings, filtered (blank or
	// not a string) before the bound: their note counts what is rendered.
	Records bool
}

// Lists are the model's lists, in the order Bounds applied notes them.
var Lists = []List{
	{"decisions", Decisions, "", 24, [2]string{"decision", "decisions"}, true},
	{"facts", Facts, "", 32, [2]string{"fact", "facts"}, false},
	{"files", Files, Dropped, 48, [2]string{"file", "files"}, true},
	{"commands", Commands, "", 16, [2]string{"command", "commands"}, true},
	{"openQuestions", OpenQuestions, "", 16, [2]string{"open question", "open questions"}, false},
}

// GoalProblem is why clio's gate refuses a goal: "stoplist", "short", or ""
// when it passes. The stoplist is checked first.
func GoalProblem(goal string) string {
	g := strings.TrimSpace(goal)
	if slices.Contains(GoalStoplist, strings.ToLower(g)) {
		return "stoplist"
	}
	if GoalLength(g) < MinGoalLength {
		return "short"
	}
	return ""
}

// GoalLength is a goal's length as JavaScript counts it: UTF-16 code units.
func GoalLength(s string) int {
	n := 0
	for _, r := range s {
		n += max(utf16.RuneLen(r), 1)
	}
	return n
}

// BoundString trims s and, when it is over MaxStringBytes, cuts it on a
// whole code point and appends TruncationMarker, so the result is a prefix
// of the trimmed string plus the marker and at most MaxStringBytes long.
func BoundString(s string) (text string, truncated bool) {
	s = strings.TrimSpace(s)
	if len(s) <= MaxStringBytes {
		return s, false
	}
	return cut(s), true
}

// cut keeps the longest prefix of s that leaves room for the marker and
// ends on a code point boundary. Like clio, it also drops invalid bytes (and
// U+FFFD) the cut would leave at the end.
func cut(s string) string {
	room := MaxStringBytes - len(TruncationMarker)
	end := min(room, len(s))
	for end > 0 && end < len(s) && !utf8.RuneStart(s[end]) {
		end--
	}
	for end > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:end])
		if r != utf8.RuneError {
			break
		}
		end -= size
	}
	return s[:end] + TruncationMarker
}

// MinCutBytes is the shortest string clio's boundHandoffString
// (src/domains/session/handoff.ts) leaves when it cuts: the first 498 bytes
// (512 less the 14 of the marker), less at most 3 bytes of a code point the
// cut split, and the marker.
const MinCutBytes = MaxStringBytes - 3

// ClioCut reports whether s ends as a string clio's byte bound cut: with
// TruncationMarker, and 509 to 512 bytes long. A shorter string that ends
// with the marker is text the model (or the operator) wrote; clio renders it
// verbatim and never counts it as cut. (A cut that also dropped U+FFFD
// characters the model wrote right at the cut would be shorter still:
// baton takes that for written text too.)
func ClioCut(s string) bool {
	if !strings.HasSuffix(s, TruncationMarker) {
		return false
	}
	n := byteLen(s)
	return n >= MinCutBytes && n <= MaxStringBytes
}
