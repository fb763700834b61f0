package hosts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// What every host's scenarios share: the scripted packets, and the checks
// of the model's requests and of baton audit.

// The stop packets the scripted model sends: examples/bad/review-auto-continue.md
// (a review request, "I'll proceed", "Nothing blocking"), and the same
// packet fixed (the work held, the exact response asked for).
const (
	packetPrompt = "Migrate the session store to SQLite."
	fixedPacket  = `## What I Just Did

Moved the session store from JSON files to SQLite and migrated the existing sessions.

## Why I Stopped

The migration deletes the JSON files once it has copied them.

## What Needs Your Review

- Do you approve deleting the JSON files after migration, or should they be kept as a backup?

## What Happens Next

I will wait for your answer before deleting anything.

## What I Need From You

Reply "delete" to remove the JSON files, or "keep" to keep them as a backup.
`
	// blockReason is the start of every reason baton's stop hook gives.
	blockReason = "baton: this stop does not meet the stop contract"
)

func badPacket(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", "bad", "review-auto-continue.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// turnHas reports whether any message of the request contains s.
func turnHas(r recordedRequest, s string) bool {
	for _, msg := range r.Messages {
		if strings.Contains(msg.Text, s) {
			return true
		}
	}
	return false
}

// auditCounts is what `baton audit` must count in one session: its stops,
// those baton would block (judged as under --lint), and those the host
// recorded its hook blocking.
type auditCounts struct {
	Stops       int `json:"stops"`
	Blocked     int `json:"blocked"`
	HookBlocked int `json:"hook_blocked"`
}

// checkAudit runs `baton audit --format json` on the session file a host
// wrote and compares its counts with want; when baton would block a stop,
// the bad packet's rule must be named.
func checkAudit(t *testing.T, s *scratch, session string, want auditCounts) {
	t.Helper()
	out, err := s.exec(s.repo, nil, time.Minute, s.baton, "audit", "--format", "json", session)
	if err != nil {
		t.Fatalf("baton audit: %v\n%s", err, out)
	}
	var rep struct {
		auditCounts
		ByRule []struct {
			Rule string `json:"rule"`
		} `json:"by_rule"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("baton audit --format json: %v\n%s", err, out)
	}
	if rep.auditCounts != want {
		t.Errorf("baton audit counts %+v, want %+v\n%s", rep.auditCounts, want, out)
	}
	if want.Blocked == 0 {
		return
	}
	if !slices.ContainsFunc(rep.ByRule, func(r struct {
		Rule string `json:"rule"`
	}) bool {
		return r.Rule == "packet/review-auto-continue"
	}) {
		t.Errorf("baton audit names no packet/review-auto-continue:\n%s", out)
	}
}

// hostStatus is what `baton hook status --json` says of a host's hooks in
// the scratch repository.
type hostStatus struct {
	Installed string `json:"installed"`
	Posture   string `json:"posture"`
	// Trust is what the host needs before it runs the hook (none for
	// Claude Code).
	Trust struct {
		Runs  bool   `json:"runs"`
		State string `json:"state"`
	} `json:"trust"`
}

func hookStatus(t *testing.T, s *scratch, host string) hostStatus {
	t.Helper()
	out := s.run(t, s.repo, s.baton, "hook", "status", "--json")
	var st struct {
		Hosts []struct {
			Host  string `json:"host"`
			Scope string `json:"scope"`
			hostStatus
		} `json:"hosts"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("baton hook status --json: %v\n%s", err, out)
	}
	for _, h := range st.Hosts {
		if h.Host == host && h.Scope == "project" {
			return h.hostStatus
		}
	}
	t.Fatalf("baton hook status --json lists no %s project hooks:\n%s", host, out)
	return hostStatus{}
}
