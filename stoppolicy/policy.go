package stoppolicy

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/internal/safefile"
)

// materialRoot is the project whose Git state decides material work: the
// specrew workspace above cwd, or with --require-packet the Git work tree.
func materialRoot(cwd string, requirePacket bool) string {
	if root := engine.SpecrewRoot(cwd); root != "" {
		return root
	}
	if requirePacket && cwd != "" {
		if top, err := gitOut(cwd, "rev-parse", "--show-toplevel"); err == nil {
			return strings.TrimSpace(top)
		}
	}
	return ""
}

// dedupWindow is how long a fire is remembered: a second delivery of the
// same stop within it is answered once, as specrew's provider does
// ($SpecrewFireDedupWindowSec, 145 IDEMP-1).
const dedupWindow = 60 * time.Second

// specrewBlockCount is how many times in a row specrew's own provider has
// blocked for this crossing (its conformance-stop-block.json, keyed
// "<working>|<last authorized>"), so that baton releases the stop when
// specrew's cap does.
func specrewBlockCount(root, sessionDir string, c *stopintent.Crossing) int {
	paths := []string{filepath.Join(root, ".specrew", "runtime", "conformance-stop-block.json")}
	if sessionDir != "" {
		paths = append(paths, filepath.Join(root, ".specrew", "runtime", "conformance-sessions", sessionDir, "stop-block.json"))
	}
	most := 0
	for _, p := range paths {
		b, err := readState(p)
		if err != nil {
			continue
		}
		var rec struct {
			Key   string `json:"key"`
			Count int    `json:"count"`
		}
		if json.Unmarshal(bytes.TrimPrefix(b, []byte("\uFEFF")), &rec) == nil && rec.Key == c.Working+"|"+c.LastAuthorized {
			most = max(most, rec.Count)
		}
	}
	return most
}

// The section headings specrew's provider looks for
// ($SpecrewReentryHeaders): four of them anywhere in the message are a
// rendered packet (Test-SpecrewReentryPacketPresent).
var reentryHeadings = []string{"What I Just Did", "Why I Stopped", "What Needs Your Review", "What Happens Next", "Discussion Prompts", "What I Need From You"}

func packetPresent(msg string) bool {
	hits := 0
	low := strings.ToLower(msg)
	for _, h := range reentryHeadings {
		if strings.Contains(low, strings.ToLower(h)) {
			hits++
		}
	}
	return hits >= 4
}

// intakeQuestion is specrew's provider's intake-question pattern
// (specrew-conformance-provider.ps1, #1): asking the person what to build.
var intakeQuestion = lazyre.New(`(?i)\bwhat\b[^.?!]{0,60}\b(?:do you want|would you like|are you looking|should we|are we|can i help you)\b[^.?!]{0,40}\b(?:build|create|make|work on)\b|\bwhat\b[^.?!]{0,40}\b(?:feature|app|project|product)\b[^.?!]{0,40}\b(?:build|create|want|like)\b|\bwhat (?:do you want|would you like) to build\b`)

// activeSpec is the first specs/*/spec.md of a specrew project (a feature
// in flight), or "".
func activeSpec(root string) string {
	m, _ := filepath.Glob(filepath.Join(root, "specs", "*", "spec.md"))
	if len(m) == 0 {
		return ""
	}
	return m[0]
}

// verdictMarker is the marker as specrew's capture reads it
// (Get-SpecrewCapturedBoundaryPacket): case-insensitive, anywhere in the
// text; the first one of a message counts.
var verdictMarker = lazyre.New(`(?i)SPECREW-VERDICT-BOUNDARY:\s*([a-z-]+)\s*(?:->|→|to)\s*([a-z-]+)`)

// minPacketChars is specrew's -MinPacketChars: a marker in a shorter
// message is a marker without substance, not a rendered packet.
const minPacketChars = 200

// crossingRendered reports whether the verdict for this crossing has been
// asked for, as specrew's provider decides it: the last assistant message
// carrying a verdict marker (this one, else the last such in the
// transcript's last 500 lines) names exactly this crossing and is a packet
// of some substance. So a follow-up answer after the packet does not owe it
// again, a packet for another crossing does not count, and neither does a
// bare marker.
func crossingRendered(msg string, h History, c *stopintent.Crossing) bool {
	text := msg
	if !verdictMarker.MatchString(text) && h != nil {
		text = h.LastMarked(verdictMarker.MatchString)
	}
	m := verdictMarker.FindStringSubmatch(text)
	if m == nil || len(strings.TrimSpace(text)) < minPacketChars {
		return false
	}
	return stopintent.NormalizeBoundary(m[1]) == c.From && stopintent.NormalizeBoundary(m[2]) == c.To
}

const (
	sixSections  = "## What I Just Did / ## Why I Stopped / ## What Needs Your Review / ## What Happens Next / ## Discussion Prompts / ## What I Need From You"
	fiveSections = "## What I Just Did / ## Why I Stopped / ## What Needs Your Review / ## What Happens Next / ## What I Need From You"
)

// reasonOpening is the first sentence of every reason the policy gives.
const reasonOpening = "baton: this stop does not meet the stop contract."

// ReasonPrefix opens every reason the policy gives.
const ReasonPrefix = reasonOpening + " Fix it and stop again:\n- "

// readState reads one of the small state files the hook keeps or reads
// (its counter, .specrew's records, .baton.yaml): a regular file, bounded.
func readState(path string) ([]byte, error) { return safefile.ReadFile(path, 4<<20) }

// escapedMarker reports a verdict marker written HTML-escaped.
func escapedMarker(msg string) bool {
	i := strings.Index(msg, "&lt;!--")
	return i >= 0 && strings.Contains(msg[i:], "SPECREW-VERDICT-BOUNDARY")
}
