// Package bench generates deterministic corpora and measures baton against
// goldmark's own parse time.
package bench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/handoff/session"
)

var words = strings.Fields(`the plan retry loop caller header status test suite change review boundary
tasks implement approve option tradeoff cap wait seconds server client config package import module
branch commit decision verdict scope risk default flag behaviour migration schema index cache`)

// Packets returns n stop packets from a fixed seed: material-work and
// boundary packets, some well formed and some not, from about 1 KB to
// about 64 KB, with lists, code, links and multi-byte text. Their sections
// are random prose, far longer than real packets' (which are 1-5 KB).
func Packets(n int, seed uint64) []string { return PacketsSized(n, seed, 10, 16) }

// PacketsSized is Packets with sizes from 2^minLog to 2^maxLog bytes.
func PacketsSized(n int, seed uint64, minLog, maxLog int) []string {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	out := make([]string, n)
	for i := range out {
		out[i], _ = packet(r, minLog, maxLog)
	}
	return out
}

// packet returns a packet and whether it is well formed.
func packet(r *rand.Rand, minLog, maxLog int) (string, bool) {
	var b strings.Builder
	boundary := r.IntN(2) == 0
	sections := []int{0, 1, 2, 3, 5}
	if boundary {
		sections = []int{0, 1, 2, 3, 4, 5}
	}
	fault := r.IntN(5) // one in five is malformed in some way
	switch fault {
	case 0:
		k := r.IntN(len(sections))
		if sections[k] == 4 {
			// Without its Discussion Prompts, a boundary packet is a
			// well-formed material-work packet: drop What Happens Next.
			k--
		}
		sections = append(sections[:k], sections[k+1:]...)
	case 1:
		k := r.IntN(len(sections) - 1)
		sections[k], sections[k+1] = sections[k+1], sections[k]
	}
	size := 1 << (minLog + r.IntN(maxLog-minLog+1))
	per := size / len(sections)
	if boundary && r.IntN(3) == 0 {
		b.WriteString("<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->\n")
	}
	for _, s := range sections {
		fmt.Fprintf(&b, "## %s\n\n", markdown.PacketHeadings[s])
		start := b.Len()
		// The random prose of What Needs Your Review reads as a review
		// request (it has "approve", "option", "verdict" …): a consistent
		// packet then holds the work and says what response it wants.
		switch s {
		case 3:
			b.WriteString("On approval, I will go on with the plan.\n\n")
		case 4:
			// specrew's validator wants each prompt's context and a default.
			fmt.Fprintf(&b, "1. Because the plan decides the tasks, should the %s stay in scope? Recommended default: keep it.\n\n", words[r.IntN(len(words))])
		case 5:
			b.WriteString("Reply \"approve\" to go ahead, or tell me what to change.\n\n")
		}
		for b.Len()-start < per {
			switch r.IntN(6) {
			case 0:
				fmt.Fprintf(&b, "- %s\n- %s `code/%s.go`\n\n", sentence(r), sentence(r), words[r.IntN(len(words))])
			case 1:
				fmt.Fprintf(&b, "```go\nfunc %s() error { return nil }\n```\n\n", words[r.IntN(len(words))])
			case 2:
				fmt.Fprintf(&b, "See file:///ws/specs/%d/plan.md for the %s — résumé 😀.\n\n", r.IntN(999), words[r.IntN(len(words))])
			default:
				fmt.Fprintf(&b, "%s %s\n\n", sentence(r), sentence(r))
			}
		}
	}
	if boundary && r.IntN(2) == 0 {
		// A blank line after it: a marker on the line before a packet's
		// first heading belongs to that packet, and a file can hold several.
		b.WriteString("<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->\n\n")
	}
	return b.String(), fault > 1
}

func sentence(r *rand.Rand) string {
	n := 6 + r.IntN(12)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = words[r.IntN(len(words))]
	}
	ws[0] = strings.ToUpper(ws[0][:1]) + ws[0][1:]
	return strings.Join(ws, " ") + "."
}

// File is one generated document.
type File struct {
	Path string        // slash path inside the corpus folder
	Kind markdown.Kind // what baton should take it to be
	Good bool          // generated well formed (a bad one holds at least one deliberate fault)
	Text string
}

// Corpus is a generated set of documents and the clio-coder state folder
// the handoff documents' sessions live in.
type Corpus struct {
	Files []File
	// State maps slash paths under the state folder ("sessions/<hash>/<id>/
	// current.jsonl", its meta.json) to their contents.
	State map[string]string
	// Workspace maps slash paths at the corpus folder's root to their
	// contents: the .baton.yaml that makes the folder a workspace, and the
	// component every generated workflow invokes. Without them every
	// <UserCheckpoint> is unresolved, and a linter timed on the corpus times
	// that one error, not the workflow rules.
	Workspace map[string]string
}

// StateDir is the folder, inside a written corpus, that holds the session
// store (pass it to `baton check --state-dir`).
const StateDir = "clio-state"

// SessionCwd is the working folder every generated session was recorded in.
const SessionCwd = "/work/corpus-repo"

// Generate returns n documents from a fixed seed: about 40% stop packets,
// 30% handoff documents and 30% XMD workflows, about a quarter of each kind
// bad. Sizes run from 1 KB to 1 MB, log-distributed so each doubling of size
// holds about the same number of bytes (most files are a few KB, a handful
// are 1 MB: 10,000 files are about 60 MB). Each handoff document names a
// session of the store, which records reads of the files it lists (a bad
// one lists a file the session never read, or a stop-listed goal).
func Generate(n int, seed uint64) *Corpus {
	r := rand.New(rand.NewPCG(seed, seed^0x243f6a8885a308d3))
	c := &Corpus{State: map[string]string{}, Workspace: map[string]string{
		".baton.yaml":                  "# The generated corpus: a workspace, so that its workflows find components/.\n",
		"components/UserCheckpoint.md": UserCheckpoint,
	}}
	var sess []*genSession
	for i := range n {
		size := corpusSize(r)
		switch k := r.IntN(10); {
		case k < 4:
			text, good := packetOfSize(r, size)
			c.Files = append(c.Files, File{Path: fmt.Sprintf("packets/p%05d.md", i), Kind: markdown.KindPacket, Good: good, Text: text})
		case k < 7:
			if len(sess) == 0 || r.IntN(40) == 0 {
				s := newSession(r, len(sess))
				sess = append(sess, s)
				s.write(c.State)
			}
			s := sess[r.IntN(len(sess))]
			good := r.IntN(4) != 0
			c.Files = append(c.Files, File{Path: fmt.Sprintf("handoffs/h%05d.md", i), Kind: markdown.KindHandoff, Good: good && size <= 8<<10, Text: handoffDoc(r, s, size, good)})
		default:
			good := r.IntN(4) != 0
			c.Files = append(c.Files, File{Path: fmt.Sprintf("workflows/w%05d.md", i), Kind: markdown.KindWorkflow, Good: good, Text: workflowDoc(r, size, good)})
		}
	}
	return c
}

// Texts are the texts of the corpus's documents of kind k, and their bytes
// all told (for a benchmark of one kind's scan).
func (c *Corpus) Texts(k markdown.Kind) (texts []string, bytes int) {
	for _, f := range c.Files {
		if f.Kind == k {
			texts = append(texts, f.Text)
			bytes += len(f.Text)
		}
	}
	return texts, bytes
}

// Write writes the corpus under dir (the documents, and the state folder
// under dir/clio-state).
func (c *Corpus) Write(dir string) error {
	write := func(name, text string) error {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		return os.WriteFile(name, []byte(text), 0o644)
	}
	for _, f := range c.Files {
		if err := write(filepath.Join(dir, filepath.FromSlash(f.Path)), f.Text); err != nil {
			return err
		}
	}
	for p, text := range c.State {
		if err := write(filepath.Join(dir, StateDir, filepath.FromSlash(p)), text); err != nil {
			return err
		}
	}
	for p, text := range c.Workspace {
		if err := write(filepath.Join(dir, filepath.FromSlash(p)), text); err != nil {
			return err
		}
	}
	return nil
}

// OfKind returns the texts of the files of one kind.
func (c *Corpus) OfKind(k markdown.Kind) []string {
	var out []string
	for _, f := range c.Files {
		if f.Kind == k {
			out = append(out, f.Text)
		}
	}
	return out
}

// corpusSize draws a size from 1 KB to 1 MB: the power of two with
// probability halving at each step, then uniform within it.
func corpusSize(r *rand.Rand) int {
	k := 10
	for k < 20 && r.IntN(2) == 0 {
		k++
	}
	if k == 20 {
		return 1 << 20
	}
	return 1<<k + r.IntN(1<<k)
}

// packetOfSize returns packets adding up to about size bytes (several in
// one file beyond 64 KB), and whether every one is well formed.
func packetOfSize(r *rand.Rand, size int) (string, bool) {
	var b strings.Builder
	good := true
	for b.Len() == 0 || size-b.Len() >= 1<<10 {
		k := min(log2(max(size-b.Len(), 1<<10)), 16)
		p, ok := packet(r, k, k)
		b.WriteString(p)
		good = good && ok
	}
	return b.String(), good
}

func log2(n int) int {
	k := 10
	for 1<<(k+1) <= n {
		k++
	}
	return k
}

// genSession is a generated clio-coder session: the files it read and the
// decisions it settled.
type genSession struct {
	id        string
	read      []string
	decisions [][2]string // label, value
}

func newSession(r *rand.Rand, i int) *genSession {
	s := &genSession{id: fmt.Sprintf("gen%04dsess%d", i, r.IntN(1000))}
	for range 8 + r.IntN(40) {
		s.read = append(s.read, fmt.Sprintf("src/%s/%s%d.go", words[r.IntN(len(words))], words[r.IntN(len(words))], r.IntN(100)))
	}
	for k := range 1 + r.IntN(4) {
		s.decisions = append(s.decisions, [2]string{fmt.Sprintf("%s %s %d", strings.ToUpper(words[r.IntN(len(words))][:1])+words[r.IntN(len(words))][1:], words[r.IntN(len(words))], k), fmt.Sprintf("%d seconds", 10+r.IntN(90))})
	}
	return s
}

// write adds the session's current.jsonl and meta.json to state: a user
// turn, then an assistant tool call and its result for every read, then the
// decision board.
func (s *genSession) write(state map[string]string) {
	var b strings.Builder
	line := func(v any) {
		data, _ := json.Marshal(v)
		b.Write(data)
		b.WriteByte('\n')
	}
	ts := "2026-08-21T10:00:00Z"
	line(map[string]any{"type": "session", "version": 3, "id": s.id, "timestamp": ts, "cwd": SessionCwd})
	line(map[string]any{"kind": "message", "turnId": "u1", "parentTurnId": nil, "timestamp": ts, "role": "user", "payload": map[string]any{"text": "fix the retry loop"}})
	parent := "u1"
	for i, p := range s.read {
		a, c, res := fmt.Sprintf("a%d", i), fmt.Sprintf("c%d", i), fmt.Sprintf("r%d", i)
		call := fmt.Sprintf("call_%d", i)
		line(map[string]any{"kind": "message", "turnId": a, "parentTurnId": parent, "timestamp": ts, "role": "assistant",
			"payload": map[string]any{"text": "", "content": []any{map[string]any{"type": "toolCall", "id": call, "name": "read", "arguments": map[string]any{"path": p}}}}})
		line(map[string]any{"kind": "message", "turnId": c, "parentTurnId": a, "timestamp": ts, "role": "tool_call",
			"payload": map[string]any{"toolCallId": call, "name": "read", "args": map[string]any{"path": p}}})
		line(map[string]any{"kind": "message", "turnId": res, "parentTurnId": c, "timestamp": ts, "role": "tool_result",
			"payload": map[string]any{"toolCallId": call, "toolName": "read", "result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "package " + words[i%len(words)]}}}, "isError": false}})
		parent = res
	}
	var ds []any
	for _, d := range s.decisions {
		ds = append(ds, map[string]any{"key": strings.ReplaceAll(strings.ToLower(d[0]), " ", "_"), "value": d[1], "label": d[0], "source_question": "Which " + strings.ToLower(d[0]) + "?", "status": "active", "decidedAt": ts})
	}
	line(map[string]any{"kind": "decisionLedger", "turnId": "d1", "parentTurnId": "u1", "timestamp": ts, "interviewId": "int-1",
		"interviewStatus": "complete", "startedAt": ts, "endedAt": ts, "roundCount": 1, "decisions": ds})
	dir := "sessions/" + session.CwdHash(SessionCwd) + "/" + s.id + "/"
	state[dir+"current.jsonl"] = b.String()
	state[dir+"meta.json"] = fmt.Sprintf(`{"cwd":%q,"pinnedLeafTurnId":null}`+"\n", SessionCwd)
}

// handoffDoc renders a handoff document naming session s. A good one lists
// files the session read and its settled decisions as decided; a bad one
// has a stop-listed goal, an invented file or a contradicted decision.
// Beyond clio's bounds (a few KB) a document is bad whatever good says.
func handoffDoc(r *rand.Rand, s *genSession, size int, good bool) string {
	var b strings.Builder
	goal := "Finish the " + sentence(r)
	fault := -1
	if !good {
		fault = r.IntN(3)
	}
	if fault == 0 {
		goal = "continue"
	}
	fmt.Fprintf(&b, "# Handoff\n\n**Goal:** %s\n\nCarried from session `%s`.\n\n## Decisions\n", strings.TrimSuffix(goal, "."), s.id)
	for _, d := range s.decisions {
		v := d[1]
		if fault == 2 {
			v, fault = "a different value", -1
		}
		fmt.Fprintf(&b, "- %s: %s _(settled)_\n  Which %s?\n", d[0], v, strings.ToLower(d[0]))
	}
	b.WriteString("\n## Facts\n")
	for b.Len() < size/2 {
		fmt.Fprintf(&b, "- %s\n", sentence(r))
	}
	b.WriteString("\n## Files\n")
	for i, p := range s.read {
		if b.Len() >= size*3/4 && i > 0 {
			break
		}
		fmt.Fprintf(&b, "- `%s`: %s\n", p, strings.TrimSuffix(sentence(r), "."))
	}
	if fault == 1 {
		fmt.Fprintf(&b, "- `src/invented/never%d.go`: not read in this session\n", r.IntN(1000))
	}
	b.WriteString("\n## Open questions\n")
	for b.Len() < size {
		fmt.Fprintf(&b, "- Should the %s %s change too?\n", words[r.IntN(len(words))], words[r.IntN(len(words))])
	}
	return b.String()
}

// workflowDoc renders an XMD workflow: front matter declaring props, then
// stages of prose, code and components, each stage after a checkpoint gated
// on its proceed. Every checkpoint binds the same name, as the looping
// workflows of the corpus do, so that each stage is gated on the latest
// decision (stages bound to names of their own would each run after every
// earlier checkpoint ungated). A bad one leaves a stage ungated or reads an
// undeclared prop.
func workflowDoc(r *rand.Rand, size int, good bool) string {
	var b strings.Builder
	b.WriteString("---\nrequired: [request]\nprops:\n  request: { type: string }\n  depth: { type: number }\n---\n\n")
	fault := -1
	if !good {
		fault = r.IntN(2)
	}
	for stage := 0; b.Len() < size || stage == 0; stage++ {
		fmt.Fprintf(&b, "## Stage %d\n\n%s %s\n\n", stage, sentence(r), sentence(r))
		switch r.IntN(3) {
		case 0:
			fmt.Fprintf(&b, "```ts\nconst %s%d = %d;\n```\n\n", words[r.IntN(len(words))], stage, r.IntN(100))
		case 1:
			fmt.Fprintf(&b, "- %s\n- %s\n\n", sentence(r), sentence(r))
		}
		const as = "decision"
		fmt.Fprintf(&b, "<UserCheckpoint purpose=\"validate\" material={props.request} as=\"%s\" />\n", as)
		prop := "props.request"
		if fault == 1 {
			prop, fault = "props.requst", -1
		}
		if fault == 0 {
			fmt.Fprintf(&b, "<Prompt>Plan stage %d for {%s}.</Prompt>\n\n", stage, prop)
			fault = -1
			continue
		}
		fmt.Fprintf(&b, "<If condition={%s.proceed}>\n  <Prompt>Plan stage %d for {%s}.</Prompt>\n</If>\n\n", as, stage, prop)
	}
	return b.String()
}

// PacketText returns stop packets adding up to about size bytes, from seed.
func PacketText(seed uint64, size int) string {
	text, _ := packetOfSize(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), size)
	return text
}

// UserCheckpoint is the component the generated workflows invoke, as a
// workspace's components/UserCheckpoint.md: it declares the props they pass
// and the proceed it returns. Benchmarks that lint the workflows give it to
// the analyzer in their workspace.
const UserCheckpoint = `---
required: [purpose, material]
props:
  purpose: { type: string }
  material: { type: string }
returns:
  proceed: { type: boolean }
---

<Return value={{ proceed: true }} />
`
