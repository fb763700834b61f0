package handoff_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysistest"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/handoff/session"
)

// This file ports clio-coder's handoff.ts (0.3.7, seeds/002) to Go, step by
// step, to render documents exactly as clio does: the extraction parse and
// its bounds, the read-ledger split, the decision merge and the renderer.
// Every document it renders must pass baton without a finding.

// jsBound is boundHandoffString: trim; over 512 bytes, keep the first 498,
// decode (a partial code point becomes U+FFFD), drop trailing U+FFFD,
// append the marker.
func jsBound(v string) (string, bool) {
	text := strings.TrimSpace(v)
	if len(text) <= 512 {
		return text, false
	}
	head := strings.TrimRight(strings.ToValidUTF8(text[:512-len("…[truncated]")], "\uFFFD"), "\uFFFD")
	return head + "…[truncated]", true
}

// rec is a record of the model's answer: a missing key is absent.
type rec map[string]string

type rawExtraction struct {
	Decisions     []rec
	Facts         []string
	Files         []rec
	Commands      []rec
	OpenQuestions []string
}

type decision struct {
	summary, rationale string
	settled            bool
}

type file struct{ path, why string }

type extraction struct {
	decisions     []decision
	facts         []string
	files         []file
	commands      []file
	openQuestions []string
	truncations   []string
}

func boundList[T any](items []T, limit int, label string, truncations *[]string) []T {
	if len(items) <= limit {
		return items
	}
	*truncations = append(*truncations, fmt.Sprintf("%s: kept %d of %d; the rest were dropped by the %s bound", label, limit, len(items), label))
	return items[:limit]
}

func required(r rec, key string) (string, bool) {
	v, ok := r[key]
	if !ok || strings.TrimSpace(v) == "" {
		return "", false
	}
	return strings.TrimSpace(v), true
}

func stringsFrom(xs []string) []string {
	var out []string
	for _, x := range xs {
		if strings.TrimSpace(x) != "" {
			out = append(out, strings.TrimSpace(x))
		}
	}
	return out
}

// parseExtraction is parseHandoffExtraction after the JSON is decoded.
func parseExtraction(raw rawExtraction) extraction {
	var x extraction
	cut := 0
	bound := func(s string) string {
		t, truncated := jsBound(s)
		if truncated {
			cut++
		}
		return t
	}
	for _, r := range boundList(raw.Decisions, 24, "decisions", &x.truncations) {
		s, ok := required(r, "summary")
		if !ok {
			continue
		}
		d := decision{summary: bound(s)}
		if ra, ok := required(r, "rationale"); ok {
			d.rationale = bound(ra)
		}
		x.decisions = append(x.decisions, d)
	}
	for _, f := range boundList(stringsFrom(raw.Facts), 32, "facts", &x.truncations) {
		x.facts = append(x.facts, bound(f))
	}
	for _, r := range boundList(raw.Files, 48, "files", &x.truncations) {
		p, ok1 := required(r, "path")
		w, ok2 := required(r, "why")
		if ok1 && ok2 {
			x.files = append(x.files, file{bound(p), bound(w)})
		}
	}
	for _, r := range boundList(raw.Commands, 16, "commands", &x.truncations) {
		a, ok1 := required(r, "argv")
		w, ok2 := required(r, "why")
		if ok1 && ok2 {
			x.commands = append(x.commands, file{bound(a), bound(w)})
		}
	}
	for _, q := range boundList(stringsFrom(raw.OpenQuestions), 16, "openQuestions", &x.truncations) {
		x.openQuestions = append(x.openQuestions, bound(q))
	}
	if cut > 0 {
		verb := "entries were"
		if cut == 1 {
			verb = "entry was"
		}
		x.truncations = append(x.truncations, fmt.Sprintf("%d %s cut to 512 bytes and marked with …[truncated]", cut, verb))
	}
	return x
}

// boardDecision is a decision of a decisionLedger snapshot.
type boardDecision struct {
	key, value, label, sourceQuestion, status string
}

var nonAlnum = regexp.MustCompile(`[^a-z0-9]+`)

func matchKey(s string) string {
	return strings.TrimSpace(nonAlnum.ReplaceAllString(strings.ToLower(s), " "))
}

// merge is mergeHandoffDecisions.
func merge(extracted []decision, board []boardDecision) []decision {
	var settled []decision
	var claimed []string
	for _, b := range board {
		if b.status != "active" {
			continue
		}
		name := b.label
		if name == "" {
			name = b.key
		}
		s, _ := jsBound(name + ": " + b.value)
		d := decision{summary: s, settled: true}
		if b.sourceQuestion != "" {
			d.rationale, _ = jsBound(b.sourceQuestion)
		}
		settled = append(settled, d)
		claimed = append(claimed, matchKey(name), matchKey(b.key))
	}
	var keys []string
	for _, k := range claimed {
		if k != "" {
			keys = append(keys, k)
		}
	}
	seen := map[string]bool{}
	for _, d := range settled {
		seen[matchKey(d.summary)] = true
	}
	merged := settled
	for _, d := range extracted {
		k := matchKey(d.summary)
		if seen[k] {
			continue
		}
		claimedBy := false
		for _, c := range keys {
			if strings.Contains(k, c) {
				claimedBy = true
			}
		}
		if claimedBy {
			continue
		}
		seen[k] = true
		merged = append(merged, d)
	}
	return merged
}

// split is validateHandoffFiles.
func split(files []file, ledger map[string]bool, cwd string) (kept, dropped []file) {
	for _, f := range files {
		n := session.Normalize(cwd, f.path)
		if n != "" && ledger[n] {
			kept = append(kept, file{n, f.why})
		} else {
			dropped = append(dropped, f)
		}
	}
	return kept, dropped
}

type renderInput struct {
	goal, from                 string
	decisions                  []decision
	facts                      []string
	files, dropped, commands   []file
	openQuestions, truncations []string
}

// render is renderHandoffDocument.
func render(in renderInput) string {
	var lines []string
	lines = append(lines, "# Handoff", "", "**Goal:** "+in.goal, "", "Carried from session `"+in.from+"`.", "")
	section := func(title string, body []string) {
		if len(body) == 0 {
			return
		}
		lines = append(lines, "## "+title, "")
		lines = append(lines, body...)
		lines = append(lines, "")
	}
	var body []string
	for _, d := range in.decisions {
		line := "- " + d.summary
		if d.settled {
			line += " _(settled)_"
		}
		if d.rationale != "" {
			line += "\n  " + d.rationale
		}
		body = append(body, line)
	}
	section("Decisions", body)
	body = nil
	for _, f := range in.facts {
		body = append(body, "- "+f)
	}
	section("Facts", body)
	body = nil
	for _, f := range in.files {
		body = append(body, "- `"+f.path+"`: "+f.why)
	}
	section("Files", body)
	if len(in.dropped) > 0 {
		lines = append(lines, "### dropped (not in this session's read ledger)", "")
		for _, f := range in.dropped {
			lines = append(lines, "- `"+f.path+"`: "+f.why)
		}
		lines = append(lines, "")
	}
	body = nil
	for _, c := range in.commands {
		body = append(body, "- `"+c.path+"`: "+c.why)
	}
	section("Commands", body)
	body = nil
	for _, q := range in.openQuestions {
		body = append(body, "- "+q)
	}
	section("Open questions", body)
	body = nil
	for _, n := range in.truncations {
		body = append(body, "- "+n)
	}
	section("Bounds applied", body)
	return strings.TrimRightFunc(strings.Join(lines, "\n"), func(r rune) bool { return r == ' ' || r == '\n' || r == '\t' }) + "\n"
}

// handoffCase is a session and the model's answer for it.
type handoffCase struct {
	name, goal, id, cwd string
	ledger              []string // raw paths the session touched
	board               []boardDecision
	raw                 rawExtraction
}

// build renders the case's document and the ledger the resolver returns.
func (hc handoffCase) build() (string, *session.Ledger) {
	l := &session.Ledger{SessionID: hc.id, Cwd: hc.cwd, Paths: map[string][]session.Evidence{}}
	set := map[string]bool{}
	for i, p := range hc.ledger {
		n := session.Normalize(hc.cwd, p)
		if n == "" {
			continue // buildHandoffReadLedger adds only what normalizes to something
		}
		set[n] = true
		l.Paths[n] = append(l.Paths[n], session.Evidence{Tool: "read", Line: i + 2, Raw: p})
	}
	for _, b := range hc.board {
		if b.status == "active" {
			l.Board = append(l.Board, session.Decision{Key: b.key, Value: b.value, Label: b.label})
		}
	}
	x := parseExtraction(hc.raw)
	kept, dropped := split(x.files, set, hc.cwd)
	doc := render(renderInput{
		goal: strings.TrimSpace(hc.goal), from: hc.id,
		decisions: merge(x.decisions, hc.board), facts: x.facts, files: kept, dropped: dropped,
		commands: x.commands, openQuestions: x.openQuestions, truncations: x.truncations,
	})
	return doc, l
}

// TestRenderedDocumentsPass renders documents as clio does and checks that
// baton reports nothing, without and with the session's ledger.
func TestRenderedDocumentsPass(t *testing.T) {
	reg, err := analysis.NewRegistry(handoff.Analyzer)
	if err != nil {
		t.Fatal(err)
	}
	cases := append(append(namedCases(), randomCases(60)...), missingFieldCases()...)
	for _, hc := range cases {
		t.Run(hc.name, func(t *testing.T) {
			text, l := hc.build()
			doc := markdown.Parse(hc.name+".md", text)
			if doc.Kind != markdown.KindHandoff {
				t.Fatalf("kind = %v\n%s", doc.Kind, text)
			}
			env := analysis.Env{handoff.EnvLedger: handoff.Resolver(func(string) handoff.Lookup { return handoff.Lookup{Ledger: l} })}
			for _, e := range []analysis.Env{nil, env} {
				res := reg.AnalyzeEnv(doc, nil, e)
				for _, f := range res.Findings {
					t.Errorf("env %v: %s", e != nil, analysistest.Format(doc, f))
				}
				if t.Failed() {
					t.Logf("document:\n%s", text)
					return
				}
			}
			m := handoff.Parse(doc)
			if m.Goal != strings.TrimSpace(hc.goal) || m.SessionID != hc.id {
				t.Errorf("goal %q, session %q", m.Goal, m.SessionID)
			}
		})
	}
}

// TestRenderedWithoutSessionLine deletes the session line from documents
// clio renders, as an operator may in $EDITOR: what is left is still clio's
// layout, so still a handoff, and the one finding is the missing line. With
// every list empty, "# Handoff" and a goal are all that is left, a shape
// anyone writes: no handoff.
func TestRenderedWithoutSessionLine(t *testing.T) {
	reg, err := analysis.NewRegistry(handoff.Analyzer)
	if err != nil {
		t.Fatal(err)
	}
	for _, hc := range append(namedCases(), randomCases(60)...) {
		t.Run(hc.name, func(t *testing.T) {
			text, _ := hc.build()
			line := "Carried from session `" + hc.id + "`.\n\n"
			if !strings.Contains(text, line) {
				line = strings.TrimSuffix(line, "\n")
			}
			text = strings.Replace(text, line, "", 1)
			doc := markdown.Parse(hc.name+".md", text)
			if want := strings.Contains(text, "\n#"); (doc.Kind == markdown.KindHandoff) != want {
				t.Fatalf("kind = %v, a handoff: %v\n%s", doc.Kind, want, text)
			}
			if doc.Kind != markdown.KindHandoff {
				return
			}
			var got []string
			for _, f := range reg.Analyze(doc, nil).Findings {
				got = append(got, analysistest.Format(doc, f))
			}
			if len(got) != 1 || !strings.HasPrefix(got[0], "1:1 handoff/session-line") {
				t.Errorf("findings %q, want the session line's alone\n%s", got, text)
			}
		})
	}
	// Every section clio renders, as CanonicalHeading writes it, in render
	// order: the detector's list of them is the handoff package's.
	var b strings.Builder
	b.WriteString("# Handoff\n\n**Goal:** finish the eviction rules\n\n")
	for _, name := range []string{handoff.Decisions, handoff.Facts, handoff.Files, handoff.Dropped, handoff.Commands, handoff.OpenQuestions, handoff.BoundsApplied} {
		b.WriteString(handoff.CanonicalHeading(name) + "\n\n- item\n\n")
		if k := markdown.Parse("one.md", "# Handoff\n\n**Goal:** finish the eviction rules\n\n"+handoff.CanonicalHeading(name)+"\n\n- item\n").Kind; k != markdown.KindHandoff {
			t.Errorf("a document of the goal and %q is %v", handoff.CanonicalHeading(name), k)
		}
	}
	if k := markdown.Parse("all.md", b.String()).Kind; k != markdown.KindHandoff {
		t.Errorf("a document of every section in render order is %v", k)
	}
}

func namedCases() []handoffCase {
	canned := rawExtraction{
		Decisions:     []rec{{"summary": "keep the lease in terminal-lease.ts", "rationale": "one terminal owner"}},
		Facts:         []string{"the lease owns raw mode"},
		Files:         []rec{{"path": "src/interactive/terminal-lease.ts", "why": "the lease lives here"}},
		Commands:      []rec{{"argv": "npm run typecheck", "why": "the gate"}},
		OpenQuestions: []string{"does stage 0 need the editor?"},
	}
	big := rawExtraction{}
	for i := range 30 {
		r := rec{"summary": fmt.Sprintf("decision %d: use the %s cache", i, []string{"lru", "lfu", "arc"}[i%3])}
		if i%2 == 0 {
			r["rationale"] = strings.Repeat("because é matters ", 1+i*2)
		}
		if i == 3 {
			delete(r, "summary") // counted by the bound, then dropped
		}
		big.Decisions = append(big.Decisions, r)
	}
	big.Decisions = append(big.Decisions[:5], append([]rec{{"summary": "storage backend is sqlite"}}, big.Decisions[5:]...)...)
	for i := range 41 {
		big.Facts = append(big.Facts, fmt.Sprintf("fact %d: %s", i, strings.Repeat([]string{"日本語のテキスト", "😀 emoji ", "plain words ", "ça déborde "}[i%4], 1+i*3)))
	}
	for i := range 60 {
		big.Files = append(big.Files, rec{"path": fmt.Sprintf("./src/mod%02d/file%02d.ts", i%7, i), "why": fmt.Sprintf("read for step %d", i)})
	}
	big.Files = append(big.Files[:2], append([]rec{{"path": "/work/repo/src/abs.ts", "why": "absolute, inside the cwd"}, {"path": "/elsewhere/x.ts", "why": "outside the cwd"}, {"path": "src/" + strings.Repeat("deep/", 120) + "x.ts", "why": "a long path"}}, big.Files[2:]...)...)
	for i := range 20 {
		big.Commands = append(big.Commands, rec{"argv": fmt.Sprintf("go test ./pkg%d/... -run 'Test%d'", i, i), "why": strings.Repeat("verifies `src/mod01/file01.ts` ", 1+i)})
	}
	for i := range 20 {
		big.OpenQuestions = append(big.OpenQuestions, fmt.Sprintf("question %d: %s?", i, strings.Repeat("what next ", 1+i*4)))
	}
	var bigLedger []string
	for i := range 60 {
		if i%3 != 0 {
			bigLedger = append(bigLedger, fmt.Sprintf("src/mod%02d/file%02d.ts", i%7, i))
		}
	}
	bigLedger = append(bigLedger, "src/abs.ts", "/work/repo/src/mod01/file01.ts", ".")
	return []handoffCase{
		{name: "example-a", goal: "finish the eviction rules", id: "session-a", cwd: "/work/repo", ledger: []string{"src/kept.ts"},
			raw: rawExtraction{Files: []rec{{"path": "src/kept.ts", "why": "read here"}, {"path": "src/invented.ts", "why": "never opened"}}}},
		{name: "example-b", goal: "finish the terminal lease work", id: "019a2b3c-4d5e-7f60-8a9b-0c1d2e3f4a5b", cwd: "/work/repo", raw: canned},
		{name: "example-c", goal: "finish the eviction rules", id: "session-a", cwd: "/work/repo", raw: rawExtraction{Facts: []string{strings.Repeat("y", 1024)}}},
		{name: "preamble-only", goal: "  finish the working-set eviction rules  ", id: "k3x9m2p7q1wz", cwd: "/work/repo"},
		{name: "canned-with-board", goal: "finish the terminal lease work", id: "k3x9m2p7q1wz", cwd: "/work/repo",
			ledger: []string{"src/interactive/terminal-lease.ts"}, raw: canned,
			board: []boardDecision{
				{key: "storage backend", value: "postgres", status: "active"},
				{key: "test_runner", value: "vitest", label: "Test runner", sourceQuestion: "Which runner?", status: "active"},
				{key: "old", value: "x", status: "superseded"},
			}},
		{name: "everything-bounded", goal: "finish the survey report and its figures", id: "k3x9m2p7q1wz", cwd: "/work/repo", ledger: bigLedger,
			board: []boardDecision{
				{key: "storage backend", value: "postgres", status: "active", sourceQuestion: "Which store? " + strings.Repeat("more context ", 50)},
				{key: "deploy", value: strings.Repeat("fly.io région ", 60), label: "Deploy target: region", status: "active"},
			},
			raw: big},
	}
}

// randomCases are answers of random sizes and contents, within and past
// every bound, with multi-byte text around the cut.
func randomCases(n int) []handoffCase {
	rng := rand.New(rand.NewPCG(7, 11))
	words := []string{"cache", "évict", "lease", "日本", "😀", "raw mode", "ça", "the", "bound", "ß", "**bold**", "_it_", "`code()`", "`src/core/a.ts`", "x"}
	text := func(max int) string {
		var b strings.Builder
		for range 1 + rng.IntN(max) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		return b.String()
	}
	var out []handoffCase
	for i := range n {
		var raw rawExtraction
		var ledger = []string{"src/core/a.ts", "."}
		for range rng.IntN(30) {
			r := rec{"summary": "choose " + text(60)}
			if rng.IntN(2) == 0 {
				r["rationale"] = text(150)
			}
			raw.Decisions = append(raw.Decisions, r)
		}
		for range rng.IntN(40) {
			raw.Facts = append(raw.Facts, text(200))
		}
		for j := range rng.IntN(55) {
			p := fmt.Sprintf("src/p%d/f%d.go", j%5, j)
			if rng.IntN(3) > 0 {
				ledger = append(ledger, p)
			}
			if rng.IntN(4) == 0 {
				p = "./" + p + "/"
			}
			raw.Files = append(raw.Files, rec{"path": p, "why": text(120)})
		}
		for range rng.IntN(20) {
			// An argv with a backtick breaks the item's form (a finding); clio
			// does not guard against it, but it is not what this test is about.
			raw.Commands = append(raw.Commands, rec{"argv": "go test " + strings.ReplaceAll(text(3), "`", ""), "why": text(140)})
		}
		for range rng.IntN(20) {
			raw.OpenQuestions = append(raw.OpenQuestions, text(160)+"?")
		}
		var board []boardDecision
		for j := range rng.IntN(3) {
			board = append(board, boardDecision{key: fmt.Sprintf("key_%d", j), value: text(40), label: []string{"", "Label " + fmt.Sprint(j)}[rng.IntN(2)], status: "active"})
		}
		out = append(out, handoffCase{name: fmt.Sprintf("random-%02d", i), goal: "carry on with " + text(5), id: "k3x9m2p7q1wz", cwd: "/work/repo", ledger: ledger, board: board, raw: raw})
	}
	return out
}

// missingFieldCases are answers over each record list's bound with one
// record missing each required field (absent, or blank once trimmed),
// before the bound and past it. clio's parseHandoffExtraction applies the
// bound first and discards the record after, so its note counts a record
// it does not render when the record is before the bound.
func missingFieldCases() []handoffCase {
	type list struct {
		name   string
		bound  int
		fields []string
		set    func(*rawExtraction, []rec)
	}
	lists := []list{
		{"decisions", 24, []string{"summary"}, func(r *rawExtraction, x []rec) { r.Decisions = x }},
		{"files", 48, []string{"path", "why"}, func(r *rawExtraction, x []rec) { r.Files = x }},
		{"commands", 16, []string{"argv", "why"}, func(r *rawExtraction, x []rec) { r.Commands = x }},
	}
	var out []handoffCase
	for _, l := range lists {
		for _, field := range l.fields {
			for _, at := range []int{0, 3, l.bound - 1, l.bound, l.bound + 2} {
				for _, blank := range []bool{false, true} {
					var recs []rec
					var ledger []string
					for i := range l.bound + 4 {
						r := rec{"summary": fmt.Sprintf("decision %d", i), "rationale": "because",
							"path": fmt.Sprintf("src/f%02d.py", i), "argv": fmt.Sprintf("make t%d", i), "why": fmt.Sprintf("why %d", i)}
						if i == at {
							if blank {
								r[field] = " \t "
							} else {
								delete(r, field)
							}
						}
						recs = append(recs, r)
						ledger = append(ledger, r["path"])
					}
					var raw rawExtraction
					l.set(&raw, recs)
					out = append(out, handoffCase{
						name: fmt.Sprintf("%s-without-%s-at-%d-blank-%v", l.name, field, at, blank),
						goal: "carry the bounded lists over", id: "k3x9m2p7q1wz", cwd: "/work/repo", ledger: ledger, raw: raw,
					})
				}
			}
		}
	}
	return out
}
