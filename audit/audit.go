// Package audit judges every stop in agents' session transcripts, as the
// stop hooks would have judged them: for each turn's end, the findings of
// baton's rules that block a stop and the outcome stop intent gives the
// message (stoppolicy.Env.Judge, the hooks' own judgement). It counts, per
// session and overall, the stops, how many a hook would have blocked, and
// why, by rule; and, where the host recorded it, what its stop hook did
// answer at each stop (a stop the hook blocked is a stop of its own, with
// the hook's reason).
//
// A transcript holds the messages but not the work tree or the specrew
// state of the moment, so the audit judges what a hook under --lint judges
// of the message itself; the policy's lanes that read the tree (material
// work without the packet, a pending boundary) are not replayed.
package audit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	_ "github.com/baton-md/baton/agenthost/hosts" // every host's transcript format, registered
	"github.com/baton-md/baton/stoppolicy"
	"github.com/baton-md/baton/transcript"
)

// Verdicts of a stop.
const (
	Pass  = "pass"
	Block = "block"
)

// Stop is one judged stop.
type Stop struct {
	N        int                  `json:"n"` // 1-based, in the session
	Line     int                  `json:"line,omitempty"`
	Time     *time.Time           `json:"time,omitempty"`
	Verdict  string               `json:"verdict"`
	Outcome  string               `json:"outcome"` // stop intent's: continue, intermediate or real
	Steps    int                  `json:"steps"`   // assistant steps since the turn began or the stop before it
	Findings []stoppolicy.Finding `json:"findings,omitempty"`
	Excerpt  string               `json:"excerpt"` // the message's first line
	// Hook is what the host recorded its stop hook answered: Block, Pass,
	// or "" when it recorded nothing (a host may record both, a block
	// only, or a block as baton's reason sent back as the next prompt:
	// docs/hosts.md). HookReason is the reason of a block.
	Hook       string `json:"hook,omitempty"`
	HookReason string `json:"hook_reason,omitempty"`
}

// Rules are the distinct rules of the stop's findings.
func (s Stop) Rules() []string {
	var out []string
	for _, f := range s.Findings {
		if !slices.Contains(out, f.Rule) {
			out = append(out, f.Rule)
		}
	}
	return out
}

// Session is one transcript's stops.
type Session struct {
	Host    string         `json:"host"`
	Path    string         `json:"path"`
	ID      string         `json:"id,omitempty"`
	Cwd     string         `json:"cwd,omitempty"`
	Stops   []Stop         `json:"stops"`
	Blocked int            `json:"blocked"`
	ByRule  map[string]int `json:"by_rule"` // stops each rule would have blocked
	Skipped int            `json:"skipped_lines"`
	// HookBlocked counts the stops the host recorded its hook blocked.
	HookBlocked int `json:"hook_blocked"`
}

// RuleCount is one rule's share of the blocks.
type RuleCount struct {
	Rule     string `json:"rule"`
	Stops    int    `json:"stops"`
	Sessions int    `json:"sessions"`
}

// Report is the audit of all the sessions read.
type Report struct {
	Sessions []Session `json:"sessions"`
	Stops    int       `json:"stops"`
	Blocked  int       `json:"blocked"`
	// HookBlocked counts the stops the hosts recorded their hooks blocked;
	// Hooked, the stops whose hook's answer they recorded at all.
	HookBlocked int            `json:"hook_blocked"`
	Hooked      int            `json:"hooked"`
	ByRule      []RuleCount    `json:"by_rule"` // most blocks first
	Outcomes    map[string]int `json:"outcomes"`
	// Problems are files that could not be read, said once each.
	Problems []string `json:"problems,omitempty"`
}

// Options say how to read and judge.
type Options struct {
	// Host reads every file as this host's (one of transcript.Hosts()); ""
	// tells each file's host from its content.
	Host string
	// Workspace is the folder whose .baton.yaml and workspace state the
	// stops are judged in; "" judges each session in the folder it
	// recorded, if that exists, else in the current one.
	Workspace string
	// Since, when set, keeps only the stops made at or after it: a stop
	// whose time the host did not record counts by its file's last change.
	Since time.Time
}

// maxFiles bounds a folder walk.
const maxFiles = 100000

// Run reads the transcripts at paths (files, or folders walked for session
// files) and judges their stops. A file named on its own that cannot be
// read is a problem of the report; in a folder, files that are no host's
// session are passed over. It fails only when nothing could be read.
func Run(paths []string, o Options) (*Report, error) {
	r := &Report{Outcomes: map[string]int{}}
	envs := map[string]*stoppolicy.Env{}
	var files []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			r.Problems = append(r.Problems, err.Error())
			continue
		}
		if !fi.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				r.Problems = append(r.Problems, err.Error())
				return nil
			}
			if d.Type().IsRegular() && (strings.HasSuffix(d.Name(), ".jsonl") || strings.HasSuffix(d.Name(), ".json")) {
				if len(files) >= maxFiles {
					return fmt.Errorf("more than %d session files under %s", maxFiles, p)
				}
				files = append(files, "\x00"+path) // found in a folder
			}
			return nil
		})
		if err != nil {
			r.Problems = append(r.Problems, err.Error())
		}
	}
	for _, f := range files {
		walked := strings.HasPrefix(f, "\x00")
		f = strings.TrimPrefix(f, "\x00")
		s, err := transcript.Read(f, o.Host)
		if err != nil {
			if !walked {
				r.Problems = append(r.Problems, err.Error())
			}
			continue
		}
		if walked && len(s.Entries) == 0 {
			continue // a JSON file of the host's that is no session
		}
		var changed time.Time
		if fi, err := os.Stat(f); err == nil {
			changed = fi.ModTime()
		}
		if !o.Since.IsZero() && changed.Before(o.Since) {
			continue // nothing in it is that recent
		}
		env, err := envFor(envs, s, o)
		if err != nil {
			r.Problems = append(r.Problems, fmt.Sprintf("%s: %v", f, err))
			continue
		}
		if js := judge(s, env, o.Since, changed); len(js.Stops) > 0 || o.Since.IsZero() {
			r.add(js)
		}
	}
	r.total()
	if len(r.Sessions) == 0 && len(r.Problems) > 0 {
		return r, errors.New(strings.Join(r.Problems, "\n"))
	}
	return r, nil
}

// envFor is the judging environment of a session's workspace, built once
// per folder.
func envFor(envs map[string]*stoppolicy.Env, s *transcript.Session, o Options) (*stoppolicy.Env, error) {
	dir := o.Workspace
	if dir == "" {
		if fi, err := os.Stat(s.Cwd); s.Cwd != "" && err == nil && fi.IsDir() {
			dir = s.Cwd
		} else if dir, _ = os.Getwd(); dir == "" {
			dir = "."
		}
	}
	if e, ok := envs[dir]; ok {
		return e, nil
	}
	e, err := stoppolicy.NewEnv(filepath.Join(dir, "last-message.md"), "", "")
	if err != nil {
		return nil, fmt.Errorf("read .baton.yaml: %w", err)
	}
	envs[dir] = e
	return e, nil
}

func judge(s *transcript.Session, env *stoppolicy.Env, since, changed time.Time) Session {
	out := Session{Host: s.Host, Path: s.Path, ID: s.ID, Cwd: s.Cwd, ByRule: map[string]int{}, Skipped: s.Skipped, Stops: []Stop{}}
	retries(s)
	for i, st := range s.Stops() {
		if at := st.Time; !since.IsZero() && (at.IsZero() && changed.Before(since) || !at.IsZero() && at.Before(since)) {
			continue
		}
		// The hooks' own decision on the message alone: no hook state
		// (counters, baselines) exists for a stop read back from a session.
		j := stoppolicy.Decide(stoppolicy.Stop{Message: st.Text}, stoppolicy.MessageOnly(env, true)).Judgement
		js := Stop{N: i + 1, Line: st.Line, Verdict: Pass, Outcome: string(j.Outcome), Steps: st.Steps, Findings: j.Findings, Excerpt: excerpt(st.Text)}
		if !st.Time.IsZero() {
			t := st.Time
			js.Time = &t
		}
		switch {
		case st.Blocked:
			js.Hook, js.HookReason = Block, st.Reason
			out.HookBlocked++
		case st.Hooked:
			js.Hook = Pass
		}
		if len(j.Findings) > 0 {
			js.Verdict = Block
			out.Blocked++
			for _, rule := range js.Rules() {
				out.ByRule[rule]++
			}
		}
		out.Stops = append(out.Stops, js)
	}
	return out
}

// retries makes a Hook entry of each prompt that is baton's own block
// reason: some hosts send a block's reason to the agent as the next
// prompt and record it as the user's, so it ends the blocked stop
// as the hook's record, not as a person's turn.
func retries(s *transcript.Session) {
	for i, e := range s.Entries {
		if e.Role == transcript.User && e.Person && stoppolicy.IsBlockReason(e.Text) {
			s.Entries[i] = transcript.Entry{Role: transcript.Hook, Text: strings.TrimSpace(e.Text), Blocked: true, Line: e.Line, Time: e.Time}
		}
	}
}

func (r *Report) add(s Session) { r.Sessions = append(r.Sessions, s) }

func (r *Report) total() {
	rules := map[string]*RuleCount{}
	for _, s := range r.Sessions {
		r.Stops += len(s.Stops)
		r.Blocked += s.Blocked
		r.HookBlocked += s.HookBlocked
		for _, st := range s.Stops {
			r.Outcomes[st.Outcome]++
			if st.Hook != "" {
				r.Hooked++
			}
		}
		for rule, n := range s.ByRule {
			c := rules[rule]
			if c == nil {
				c = &RuleCount{Rule: rule}
				rules[rule] = c
			}
			c.Stops += n
			c.Sessions++
		}
	}
	r.ByRule = []RuleCount{}
	for _, c := range rules {
		r.ByRule = append(r.ByRule, *c)
	}
	slices.SortFunc(r.ByRule, func(a, b RuleCount) int {
		if a.Stops != b.Stops {
			return b.Stops - a.Stops
		}
		return strings.Compare(a.Rule, b.Rule)
	})
}

// excerpt is the message's first line of prose (a heading when it has
// none), at most 100 characters.
func excerpt(msg string) string {
	first := ""
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if first == "" {
			first = l
		}
		if !strings.HasPrefix(l, "#") {
			first = l
			break
		}
	}
	if r := []rune(first); len(r) > 100 {
		return string(r[:99]) + "…"
	}
	return first
}
