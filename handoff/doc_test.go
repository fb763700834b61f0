package handoff_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/handoff"
	"github.com/google/go-cmp/cmp"
)

// TestParse reads every part of a document and checks that each span
// covers exactly the text the model gives for it.
func TestParse(t *testing.T) {
	for _, nl := range []string{"\n", "\r\n"} {
		text := strings.ReplaceAll(`# Handoff

**Goal:**  finish the terminal lease work 

Carried from session `+"`k3x9m2p7q1wz`"+`.

## Decisions

- Test runner: vitest _(settled)_
  Which runner?
- keep the lease in terminal-lease.ts

## Facts

- the lease owns raw mode
  and restores it on exit

## Files

- `+"`src/a b.ts`"+`: read here

### dropped (not in this session's read ledger)

- `+"`src/invented.ts`"+`: never opened

## Commands

- `+"`npm run typecheck`"+`: the gate

## Open questions

1. does stage 0 need the editor?

## Bounds applied

- facts: kept 32 of 41; the rest were dropped by the facts bound
- 2 entries were cut to 512 bytes and marked with …[truncated]
- something else

## Notes

- free text
`, "\n", nl)
		doc := markdown.Parse("f.md", text)
		d := handoff.Parse(doc)
		s := func(sp markdown.Span) string { return text[sp.Start:sp.End] }
		if doc.Kind != markdown.KindHandoff || s(d.Title) != "# Handoff" {
			t.Fatalf("kind %v, title %q", doc.Kind, s(d.Title))
		}
		if d.Goal != "finish the terminal lease work" || s(d.GoalSpan) != d.Goal || s(d.GoalLine) != "**Goal:**  finish the terminal lease work" {
			t.Errorf("goal %q %q %q", d.Goal, s(d.GoalSpan), s(d.GoalLine))
		}
		if d.SessionID != "k3x9m2p7q1wz" || s(d.SessionSpan) != d.SessionID || s(d.SessionLine) != "Carried from session `k3x9m2p7q1wz`." || d.SessionMalformed != "" {
			t.Errorf("session %q %q %q %q", d.SessionID, s(d.SessionSpan), s(d.SessionLine), d.SessionMalformed)
		}
		var names []string
		for _, sec := range d.Sections {
			names = append(names, sec.Name)
			if !strings.HasPrefix(s(sec.Span), s(sec.Heading.Span)) || sec.Body.End != sec.Span.End {
				t.Errorf("section %s: span %q", sec.Name, s(sec.Span))
			}
		}
		if diff := cmp.Diff([]string{"Decisions", "Facts", "Files", "Dropped", "Commands", "Open questions", "Bounds applied", "Notes"}, names); diff != "" {
			t.Errorf("sections (-want +got):\n%s", diff)
		}
		if sec := d.Sections[7]; sec.Known || sec.Index != -1 || sec.Items[0].Kind != handoff.KindOther {
			t.Errorf("unknown section: %+v", sec)
		}

		dec := d.Section(handoff.Decisions).Items
		if len(dec) != 2 || !dec[0].Settled || dec[1].Settled || dec[0].Kind != handoff.KindDecision {
			t.Fatalf("decisions %+v", dec)
		}
		if s(dec[0].SummarySpan) != "Test runner: vitest" || dec[0].Summary != "Test runner: vitest" || s(dec[0].SettledSpan) != "_(settled)_" ||
			s(dec[0].RationaleSpan) != "Which runner?" || dec[0].Rationale != "Which runner?" {
			t.Errorf("settled decision %q / %q / %q", dec[0].Summary, s(dec[0].SettledSpan), dec[0].Rationale)
		}
		if s(dec[0].Span) != strings.ReplaceAll("- Test runner: vitest _(settled)_\n  Which runner?", "\n", nl) {
			t.Errorf("decision span %q", s(dec[0].Span))
		}
		if dec[1].Summary != "keep the lease in terminal-lease.ts" || dec[1].RationaleSpan.Len() != 0 {
			t.Errorf("decision %q %q", dec[1].Summary, dec[1].Rationale)
		}
		fact := d.Section(handoff.Facts).Items[0]
		if fact.Text != strings.ReplaceAll("the lease owns raw mode\n  and restores it on exit", "\n", nl) || s(fact.TextSpan) != fact.Text {
			t.Errorf("fact %q", fact.Text)
		}
		file := d.Section(handoff.Files).Items[0]
		if file.Path != "src/a b.ts" || s(file.PathSpan) != file.Path || file.Why != "read here" || s(file.WhySpan) != "read here" || file.Malformed != "" {
			t.Errorf("file %+v", file)
		}
		if dr := d.Section(handoff.Dropped).Items[0]; dr.Path != "src/invented.ts" || dr.Kind != handoff.KindFile {
			t.Errorf("dropped %+v", dr)
		}
		if c := d.Section(handoff.Commands).Items[0]; c.Path != "npm run typecheck" || c.Why != "the gate" || c.Kind != handoff.KindCommand {
			t.Errorf("command %+v", c)
		}
		if q := d.Section(handoff.OpenQuestions).Items[0]; q.Text != "does stage 0 need the editor?" || s(q.Span) != "1. does stage 0 need the editor?" {
			t.Errorf("question %+v", q)
		}
		b := d.Section(handoff.BoundsApplied).Items
		if diff := cmp.Diff([]*handoff.Note{{List: "facts", Kept: 32, Of: 41}, {Cut: 2}, nil}, []*handoff.Note{b[0].Note, b[1].Note, b[2].Note}); diff != "" {
			t.Errorf("notes (-want +got):\n%s", diff)
		}
		if b[2].Malformed == "" || b[0].Note.String() != b[0].Text || b[1].Note.String() != b[1].Text {
			t.Errorf("notes %q %q %q", b[0].Text, b[1].Text, b[2].Malformed)
		}
		if sec, it := d.ItemAt(file.PathSpan.Start); sec.Name != handoff.Files || it != file {
			t.Errorf("ItemAt: %v %v", sec, it)
		}
	}
}

func TestParseSessionLine(t *testing.T) {
	for _, tc := range []struct{ line, id, malformed string }{
		{"Carried from session `session-a`.", "session-a", ""},
		{"Carried from session `session-a`", "session-a", "full stop"},
		{"Carried from session session-a.", "session-a", "single backticks"},
		{"Carried from session: k3x9m2p7q1wz", "k3x9m2p7q1wz", "single backticks, and the line does not end with a full stop"},
		{"Carried from session ``.", "", "empty"},
		{"Carried from session", "", "no session id"},
		{"Carried from session `a b`.", "a b", ""},
	} {
		text := "# Handoff\n\n**Goal:** finish the eviction rules\n\n" + tc.line + "\n"
		d := handoff.Parse(markdown.Parse("f.md", text))
		if d.SessionID != tc.id || (tc.malformed == "") != (d.SessionMalformed == "") || !strings.Contains(d.SessionMalformed, tc.malformed) {
			t.Errorf("%q: id %q, malformed %q", tc.line, d.SessionID, d.SessionMalformed)
		}
		if d.SessionID != "" && text[d.SessionSpan.Start:d.SessionSpan.End] != d.SessionID {
			t.Errorf("%q: span %q", tc.line, text[d.SessionSpan.Start:d.SessionSpan.End])
		}
	}
}

// TestNoResolverNoLedgerFindings: without a resolver in the environment
// (or with one of another type) the model has no lookup and no ledger
// rule reports, even for a document full of invented paths.
func TestNoResolverNoLedgerFindings(t *testing.T) {
	reg, _ := analysis.NewRegistry(handoff.Analyzer)
	text := "# Handoff\n\n**Goal:** finish the eviction rules\n\nCarried from session `session-a`.\n\n## Decisions\n\n- X: y _(settled)_\n\n## Files\n\n- `src/never.ts`: invented\n"
	doc := markdown.Parse("f.md", text)
	for _, env := range []analysis.Env{nil, {}, {handoff.EnvLedger: "not a resolver"}} {
		res := reg.AnalyzeEnv(doc, nil, env)
		if len(res.Findings) != 0 {
			t.Errorf("env %v: %v", env, res.Findings)
		}
		if m := res.Model(handoff.Analyzer).(*handoff.Model); m.Lookup != nil || m.Doc == nil {
			t.Errorf("env %v: model %+v", env, m)
		}
	}
	// A plain func of the Resolver's signature works too.
	called := false
	res := reg.AnalyzeEnv(doc, nil, analysis.Env{handoff.EnvLedger: func(id string) handoff.Lookup {
		called = true
		return handoff.Lookup{Err: errors.New("no state folder")}
	}})
	if !called || len(res.Findings) != 1 || res.Findings[0].Rule != handoff.RuleLedgerUnavailable.ID {
		t.Errorf("plain func: called %v, %v", called, res.Findings)
	}
}
