package handoff_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysistest"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/handoff/session"
	"github.com/baton-md/baton/internal/corpus"
)

// clioVerdict is what clio-verdict.json says. The shared corpus beside the
// repository (the project commits no copy) holds, in clio-real, session
// stores clio-coder itself wrote and the /handoff documents its own handoff
// code made of them, each with clio-verdict.json: clio's read ledger, the
// files it kept and dropped, its bound lines, its merged decisions and its
// decision board.
type clioVerdict struct {
	Session     string     `json:"session"`
	Goal        string     `json:"goal"`
	Cwd         string     `json:"cwd"`
	Ledger      []string   `json:"ledger"`
	Extracted   []clioFile `json:"extracted_files"`
	Kept        []clioFile `json:"kept"`
	Dropped     []clioFile `json:"dropped"`
	Truncations []string   `json:"truncations"`
	Decisions   []struct {
		Summary   string `json:"summary"`
		Rationale string `json:"rationale"`
		Settled   bool   `json:"settled"`
	} `json:"decisions"`
	Board []struct {
		Key    string `json:"key"`
		Value  string `json:"value"`
		Label  string `json:"label"`
		Status string `json:"status"`
	} `json:"board"`
	Commit struct {
		OK            bool   `json:"ok"`
		FromSessionID string `json:"fromSessionId"`
		ToSessionID   string `json:"toSessionId"`
	} `json:"commit"`
}

type clioFile struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

// clioRealKnown lists where baton reads a real case otherwise than clio
// did, by case and by what differs ("file <path>", "ledger", "finding
// <rule> <line>", "board", "decisions"), with the reason. The test fails on
// any difference not listed here, and on a listed one that is gone.
var clioRealKnown = map[string]map[string]string{}

// TestClioRealAgreement compares baton with clio-coder on every case of
// the shared clio-real corpus: file by file, whether baton keeps or drops
// each path the model named, and in which form it keeps it; the read ledger
// path by path; the decision board; and every finding baton reports on
// clio's own, untouched document (a bound line baton disputes, a path it
// would move, a settled decision it disowns). It logs the agreement.
func TestClioRealAgreement(t *testing.T) {
	cases := corpus.Glob(t, "clio-real/*/clio-verdict.json")
	reg, err := analysis.NewRegistry(handoff.Analyzer)
	if err != nil {
		t.Fatal(err)
	}
	var files, filesOK, ledgers, ledgersOK, bounds, boundsOK, boards, boardsOK, decs, decsOK int
	for _, vf := range cases {
		dir := filepath.Dir(vf)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			var v clioVerdict
			readJSON(t, vf, &v)
			known := clioRealKnown[name]
			seen := map[string]bool{}
			differ := func(what, format string, args ...any) {
				seen[what] = true
				if _, ok := known[what]; !ok {
					t.Errorf("%s: %s", what, fmt.Sprintf(format, args...))
				}
			}
			store := session.NewStore()
			state := filepath.Join(dir, "state")
			resolver := func(id string) handoff.Lookup {
				sdir, looked, err := session.Find([]string{state}, id)
				if err != nil {
					return handoff.Lookup{Err: err, Looked: looked}
				}
				l, err := store.Ledger(sdir)
				return handoff.Lookup{Ledger: l, Err: err, Looked: looked}
			}
			lk := resolver(v.Session)
			if lk.Err != nil {
				t.Fatalf("session %s: %v", v.Session, lk.Err)
			}
			l := lk.Ledger

			// The read ledger, path by path.
			ledgers++
			var got []string
			for p := range l.Paths {
				got = append(got, p)
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(v.Ledger))
			if slices.Equal(got, want) {
				ledgersOK++
			} else {
				differ("ledger", "baton's ledger %q, clio's %q", got, want)
			}

			// File by file: clio's validateHandoffFiles walks the
			// extracted files in order, keeping a path in its normalized
			// form or dropping it as written.
			ki, di := 0, 0
			for _, f := range v.Extracted {
				files++
				var clioKept bool
				switch {
				case di < len(v.Dropped) && v.Dropped[di] == f:
					di++
				case ki < len(v.Kept) && v.Kept[ki].Why == f.Why:
					clioKept = true
					ki++
				default:
					t.Fatalf("clio-verdict.json: %q is neither the next kept nor the next dropped file", f.Path)
				}
				_, batonKept := l.Lookup(f.Path)
				what := "file " + f.Path
				switch {
				case batonKept != clioKept:
					differ(what, "clio kept it: %v, baton keeps it: %v", clioKept, batonKept)
				case clioKept && session.Normalize(l.Cwd, f.Path) != v.Kept[ki-1].Path:
					differ(what, "clio keeps it as %q, baton as %q", v.Kept[ki-1].Path, session.Normalize(l.Cwd, f.Path))
				default:
					filesOK++
				}
			}
			if ki != len(v.Kept) || di != len(v.Dropped) {
				t.Fatalf("clio-verdict.json: %d kept and %d dropped, but the extracted files account for %d and %d", len(v.Kept), len(v.Dropped), ki, di)
			}

			// The decision board.
			boards++
			var board []string
			for _, d := range l.Board {
				board = append(board, d.Key+"="+d.Value)
			}
			var clioBoard []string
			for _, d := range v.Board {
				if d.Status == "" || d.Status == "active" {
					clioBoard = append(clioBoard, d.Key+"="+d.Value)
				}
			}
			if slices.Equal(board, clioBoard) {
				boardsOK++
			} else {
				differ("board", "baton's board %q, clio's %q", board, clioBoard)
			}

			// No warning on a store clio wrote, for every session in it.
			sessions, _ := filepath.Glob(filepath.Join(state, "sessions", "*", "*", "current.jsonl"))
			for _, s := range sessions {
				sl, err := store.Ledger(filepath.Dir(s))
				if err != nil {
					t.Errorf("%s: %v", s, err)
					continue
				}
				if len(sl.Warnings) > 0 || len(sl.InvalidLines) > 0 || sl.TornLastLine {
					differ("store "+filepath.Base(filepath.Dir(s)), "warnings %q, invalid lines %v, torn %v", sl.Warnings, sl.InvalidLines, sl.TornLastLine)
				}
			}

			// Where the work went and where it came from: the handoffNote
			// clio appended to this session and the handoffSeed the
			// successor it minted opens with.
			if !slices.ContainsFunc(l.HandedOffTo, func(h session.Handoff) bool {
				return h.Session == v.Commit.ToSessionID && h.Goal == v.Goal
			}) {
				t.Errorf("session %s: handed off to %+v, want session %s", v.Session, l.HandedOffTo, v.Commit.ToSessionID)
			}
			if next := resolver(v.Commit.ToSessionID); next.Err != nil {
				t.Errorf("successor %s: %v", v.Commit.ToSessionID, next.Err)
			} else if s := next.Ledger.SeededFrom; s == nil || s.Session != v.Session || s.Goal != v.Goal {
				t.Errorf("successor %s: seeded from %+v, want session %s", v.Commit.ToSessionID, s, v.Session)
			}

			// clio's own document: its bound lines are the verdict's, and
			// baton finds nothing to say about it.
			b, err := os.ReadFile(filepath.Join(dir, "handoff.md"))
			if err != nil {
				t.Fatal(err)
			}
			doc := markdown.Parse("handoff.md", string(b))
			m := handoff.Parse(doc)
			if m.Goal != v.Goal {
				t.Errorf("the document's goal %q, clio's %q", m.Goal, v.Goal)
			}
			var notes []string
			for _, it := range m.Items(handoff.BoundsApplied) {
				notes = append(notes, it.Text)
			}
			if !slices.Equal(notes, v.Truncations) && !(len(notes) == 0 && len(v.Truncations) == 0) {
				t.Fatalf("the document's Bounds applied %q, clio's truncations %q", notes, v.Truncations)
			}
			// The merged decisions, as baton reads them from the document.
			var decisions []string
			for _, it := range m.Items(handoff.Decisions) {
				decisions = append(decisions, fmt.Sprintf("%s|%s|%v", it.Summary, it.Rationale, it.Settled))
			}
			var clioDecisions []string
			for _, d := range v.Decisions {
				clioDecisions = append(clioDecisions, fmt.Sprintf("%s|%s|%v", d.Summary, d.Rationale, d.Settled))
			}
			decs += len(clioDecisions)
			for i := range min(len(decisions), len(clioDecisions)) {
				if decisions[i] == clioDecisions[i] {
					decsOK++
				}
			}
			if !slices.Equal(decisions, clioDecisions) {
				differ("decisions", "baton reads %q, clio merged %q", decisions, clioDecisions)
			}
			res := reg.AnalyzeEnv(doc, nil, analysis.Env{handoff.EnvLedger: handoff.Resolver(resolver)})
			disputed := map[string]bool{}
			for _, f := range res.Findings {
				line := analysistest.Format(doc, f)
				at, _, _ := strings.Cut(line, ":")
				differ("finding "+f.Rule+" "+at, "baton reports on clio's own document: %s", line)
				if strings.HasPrefix(f.Rule, "handoff/bounds-") || f.Rule == handoff.RuleListBound.ID || f.Rule == handoff.RuleStringBound.ID {
					disputed[at] = true
				}
			}
			bounds += len(v.Truncations)
			boundsOK += len(v.Truncations) - len(disputed)

			for what, why := range known {
				if !seen[what] {
					t.Errorf("listed difference %q (%s) is gone: take it out of clioRealKnown", what, why)
				}
			}
		})
	}
	t.Logf("clio-real: files agreed %d of %d, ledgers %d of %d, bound lines %d of %d, boards %d of %d, decisions %d of %d",
		filesOK, files, ledgersOK, ledgers, boundsOK, bounds, boardsOK, boards, decsOK, decs)
}

func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
