package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/handoff/session"
	"github.com/baton-md/baton/stoppolicy"
)

// The tools' names.
const (
	ToolCheckStop     = "check_stop"
	ToolCheckDocument = "check_document"
	ToolHandoffFiles  = "check_handoff_files"
	ToolExplainRule   = "explain_rule"
)

// Hosts are the agent hosts whose specrew sessions check_stop can name:
// every host baton serves.
var Hosts = hosts.IDs()

func (s *Server) addTools() {
	stopIn := schemaFor[StopInput]()
	stopIn.Properties["message"].MinLength = ptr(1)
	stopIn.Properties["host"].Enum = anys(Hosts)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:  ToolCheckStop,
		Title: "Check a stop message before you stop",
		Description: "Call this with the final message you are about to send, before you end your turn. " +
			"It checks the message as baton's stop hook will: the packet's rules (findings with lines and fixes), " +
			"the stop intent the message declares (continue, intermediate or real, and why), and in a specrew project " +
			"the lifecycle boundary that is pending and the exact verdict marker the message must end with. " +
			"\"ready\" true means send it as it is; otherwise do every item of \"todo\", then call again with the new message. " +
			"\"fixed_message\", when present, is the message with the safe fixes applied. Reads the workspace; writes nothing.",
		InputSchema: stopIn,
		Annotations: readOnly,
	}, guarded(s, s.checkStop))

	docIn := schemaFor[DocumentInput]()
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:  ToolCheckDocument,
		Title: "Check a packet, handoff or workflow",
		Description: "Checks a Markdown document baton knows — a stop packet, a clio-coder handoff document, an XMD workflow — " +
			"given by \"path\" (a file inside the workspace), by \"text\", or both (the text checked as if it were the file at path, " +
			"so that the folder's .baton.yaml and components apply). Returns the kind baton read it as, and every finding " +
			"with its line, message and fixes, exactly as `baton check` reports them; \"fixed_text\", when present, is the text with the " +
			"safe fixes applied (for a document of at most 1 MiB). Paths outside the workspace are refused. Writes nothing.",
		InputSchema: docIn,
		Annotations: readOnly,
	}, guarded(s, s.checkDocument))

	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:  ToolHandoffFiles,
		Title: "Check a handoff's files against the session's read ledger",
		Description: "For a clio-coder handoff document (by \"path\" or \"text\"), reads the read ledger of the session its " +
			"\"Carried from session\" line names and says, for every file under \"## Files\" and the dropped section, whether the " +
			"session touched it, as what path, and when it did not, the nearest paths it did touch. A file the session never " +
			"touched belongs in the dropped section; a dropped file it did touch can go back under \"## Files\". Writes nothing.",
		InputSchema: schemaFor[DocumentInput](),
		Annotations: readOnly,
	}, guarded(s, s.handoffFiles))

	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:  ToolExplainRule,
		Title: "Explain a baton rule",
		Description: "Says what one of baton's rules checks, why, and how to satisfy it, given its id (as in a finding's \"rule\", " +
			"e.g. packet/review-not-held). Without \"rule\", lists every rule with its default severity and summary.",
		Annotations: readOnly,
	}, guarded(s, s.explainRule))
}

var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}

func ptr[T any](v T) *T { return &v }

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// schemaFor is the input schema the SDK would infer for T, for adding
// what the Go type cannot say (an enum, a minimum length).
func schemaFor[T any]() *jsonschema.Schema {
	sc, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err) // a tool's input type is a programming error, caught by the tests
	}
	return sc
}

// guarded runs a tool after the test's hold, turning a panic into an
// error the model reads instead of the end of the server.
func guarded[In, Out any](s *Server, h func(context.Context, In) (string, Out, error)) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, _ *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out Out, err error) {
		defer func() {
			if p := recover(); p != nil {
				var zero Out
				res, out, err = nil, zero, fmt.Errorf("internal error in baton (a bug: please report it): %v", p)
			}
		}()
		if s.hold != nil {
			s.hold(ctx)
		}
		if err := ctx.Err(); err != nil {
			return nil, out, fmt.Errorf("cancelled: %w", err)
		}
		text, out, err := h(ctx, in)
		if err != nil {
			return nil, out, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
	}
}

// StopInput is check_stop's input.
type StopInput struct {
	Message string `json:"message" jsonschema:"the final message you are about to send, exactly as you will send it"`
	Cwd     string `json:"cwd,omitempty" jsonschema:"the folder you work in, inside the workspace (default: the workspace root); its .baton.yaml and specrew project apply"`
	// ChangedFiles stands for the hook's material-work check, which needs
	// the baseline the host's prompt hook took.
	ChangedFiles bool   `json:"changed_files,omitempty" jsonschema:"true when this turn changed files or made commits: such a stop owes the five-part packet"`
	Host         string `json:"host,omitempty" jsonschema:"your agent host; with session_id it names the specrew conformance session whose state applies (default: the most recent session)"`
	SessionID    string `json:"session_id,omitempty" jsonschema:"your host's session id, with host"`
}

// StopOutput is check_stop's result.
type StopOutput struct {
	Ready         bool       `json:"ready" jsonschema:"true when the message can be sent as it is"`
	Todo          []string   `json:"todo" jsonschema:"what to change before stopping, in order; empty when ready"`
	Findings      []Finding  `json:"findings" jsonschema:"every finding of baton's rules, as baton check reports them"`
	Blocking      int        `json:"blocking" jsonschema:"how many findings block the stop"`
	StopIntent    StopIntent `json:"stop_intent"`
	PacketPresent bool       `json:"packet_present" jsonschema:"the message renders the packet: four of the six section headings"`
	Specrew       *Specrew   `json:"specrew,omitempty" jsonschema:"the specrew project the message is judged in; absent outside one"`
	FixedMessage  string     `json:"fixed_message,omitempty" jsonschema:"the message with every safe fix applied, when that changes it"`
}

// StopIntent is the outcome stop intent gives the message.
type StopIntent struct {
	Outcome  string        `json:"outcome" jsonschema:"continue, intermediate or real, settled as the stop hook settles it (no async work in flight); empty for an empty message"`
	Reason   string        `json:"reason" jsonschema:"why, in specrew's words"`
	Marker   string        `json:"marker" jsonschema:"the stop-intent marker the message declares (continue, intermediate), ambiguous, or empty"`
	Possible []Possibility `json:"possible_outcomes"`
}

// Possibility is one outcome and the condition under which it holds.
type Possibility struct {
	Outcome string `json:"outcome"`
	Reason  string `json:"reason"`
	When    string `json:"when,omitempty"`
}

// Specrew is the specrew project's state as the stop hook reads it.
type Specrew struct {
	Root            string    `json:"root"`
	BoundaryPending string    `json:"boundary_pending" jsonschema:"true, false or unknown"`
	Why             string    `json:"why"`
	Crossing        *Crossing `json:"crossing,omitempty" jsonschema:"the crossing whose verdict is due, when one is pending"`
	Problems        []string  `json:"problems" jsonschema:"state files that could not be read"`
}

// Crossing is a pending lifecycle crossing.
type Crossing struct {
	From    string `json:"from"`
	To      string `json:"to"`
	Marker  string `json:"marker" jsonschema:"the exact verdict marker the message must end with"`
	Carried bool   `json:"carried" jsonschema:"the message carries it, in a packet of some substance"`
	// MissingEvidence is what the stage owes and the tree lacks: no
	// verdict may be asked for until it is committed.
	MissingEvidence []string `json:"missing_evidence,omitempty"`
}

func (s *Server) checkStop(ctx context.Context, in StopInput) (string, StopOutput, error) {
	var out StopOutput
	if strings.TrimSpace(in.Message) == "" {
		return "", out, errors.New(`"message" is empty: give the final message you are about to send`)
	}
	if (in.Host == "") != (in.SessionID == "") {
		return "", out, errors.New(`give "host" and "session_id" together, or neither`)
	}
	if in.Host != "" && !slices.Contains(Hosts, in.Host) {
		return "", out, fmt.Errorf(`"host" is %q: one of %s`, in.Host, strings.Join(Hosts, ", "))
	}
	dir := s.root
	if in.Cwd != "" {
		d, err := s.resolve(in.Cwd)
		if err != nil {
			return "", out, err
		}
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			return "", out, fmt.Errorf(`"cwd" %s is not a folder in the workspace %s`, in.Cwd, s.root)
		}
		dir = d
	}
	return work(s, ctx, len(in.Message), func() (string, StopOutput, error) {
		return s.judgeStop(dir, in)
	})
}

// judgeStop is check_stop's work: the stop decided as the stop hook
// decides it (stoppolicy.Decide, with --lint) on the workspace the hook
// reads (the folder's .baton.yaml, the specrew project above it and the
// session's state, specrew's files), the turn's work as the caller says
// it. Its todo is the verdict's reasons, in the hook's words.
func (s *Server) judgeStop(dir string, in StopInput) (string, StopOutput, error) {
	var out StopOutput
	stop := stoppolicy.Stop{Host: in.Host, SessionID: in.SessionID, Cwd: dir, Message: in.Message}
	st := stoppolicy.ReadWorkspace(stop, stoppolicy.Options{Lint: true})
	if st.EnvErr != nil {
		return "", out, st.EnvErr
	}
	st.DeclareWork(in.ChangedFiles)
	v := stoppolicy.Decide(stop, st)
	env, res := st.Env, v.Result
	out.Findings = findingsOf(res.Doc, res.Findings)
	for i, f := range res.Findings {
		if stoppolicy.Blocking(f) {
			out.Findings[i].BlocksStop = true
			out.Blocking++
		}
	}
	out.StopIntent = stopIntentOf(res)
	out.PacketPresent = stoppolicy.PacketPresent(in.Message)
	if env.Root != "" {
		out.Specrew = specrewOf(env, in.Message)
	}
	out.Todo = append([]string{}, v.Reasons...)
	if res.Doc.TooLarge > 0 {
		out.Todo = append(out.Todo, fmt.Sprintf("the message is %d bytes, over the %d baton checks, so it was not checked: a stop message is kilobytes; send a short one", res.Doc.TooLarge, markdown.MaxDocumentBytes))
	}
	out.Ready = len(out.Todo) == 0
	out.FixedMessage = fixedText(res, func(t string) *analysis.Result { return env.Judge(t).Result })
	return stopSummary(out), out, nil
}

// specrewOf is the project's state as the hook reads it: what is pending,
// and whether the message carries the pending crossing's marker. What the
// stop owes there is the verdict's (stoppolicy.Decide), not this report's.
func specrewOf(env *stoppolicy.Env, msg string) *Specrew {
	st := env.State
	sp := &Specrew{Root: env.Root, BoundaryPending: st.BoundaryPending.Value.String(), Why: st.BoundaryPending.Note, Problems: append([]string{}, st.Problems...)}
	if c := st.Crossing; st.BoundaryPending.Value == stopintent.True && c != nil {
		sp.Crossing = &Crossing{From: c.From, To: c.To, Marker: c.Marker(), Carried: stoppolicy.CarriesVerdict(msg, c)}
		if ev := st.Evidence; ev != nil {
			sp.Crossing.MissingEvidence = append([]string{}, ev.Missing...)
		}
	}
	return sp
}

// stopIntentOf is the last stop's classification (the one the hook acts
// on), with the reason that holds when no unknown input is true.
func stopIntentOf(res *analysis.Result) StopIntent {
	si := StopIntent{Possible: []Possibility{}}
	m, _ := res.Model(stopintent.Analyzer).(*stopintent.Model)
	if m == nil || len(m.Stops) == 0 {
		return si
	}
	st := m.Stops[len(m.Stops)-1]
	si.Outcome, si.Marker = string(st.Class.Outcome), string(st.Intent)
	if st.Ambiguous {
		si.Marker = "ambiguous"
	}
	for _, p := range st.Class.Possible {
		si.Possible = append(si.Possible, Possibility{Outcome: string(p.Outcome), Reason: p.Reason, When: p.When})
	}
	if len(st.Class.Possible) > 0 {
		si.Reason = st.Class.Possible[0].Reason
	}
	return si
}

func stopSummary(o StopOutput) string {
	var b strings.Builder
	if o.Ready {
		b.WriteString("ready: the message meets the stop contract; send it as it is.\n")
	} else {
		fmt.Fprintf(&b, "not ready: do these before you stop, then check again:\n")
		for _, t := range o.Todo {
			fmt.Fprintf(&b, "- %s\n", t)
		}
	}
	if o.StopIntent.Outcome != "" {
		fmt.Fprintf(&b, "stop intent: %s (%s)\n", o.StopIntent.Outcome, o.StopIntent.Reason)
	}
	if sp := o.Specrew; sp != nil && sp.Crossing != nil {
		fmt.Fprintf(&b, "specrew: the %s -> %s crossing is pending; its marker: %s\n", sp.Crossing.From, sp.Crossing.To, sp.Crossing.Marker)
	}
	if len(o.Findings) > 0 {
		fmt.Fprintf(&b, "findings (%d, %d blocking the stop):\n", len(o.Findings), o.Blocking)
		listFindings(&b, o.Findings)
	}
	if o.FixedMessage != "" && len(o.FixedMessage) <= maxTextInSummary {
		fmt.Fprintf(&b, "the message with the safe fixes applied:\n\n%s", o.FixedMessage)
	}
	return b.String()
}

// DocumentInput names a document: a file, a text, or a text at a path.
type DocumentInput struct {
	Path string  `json:"path,omitempty" jsonschema:"the document's path, relative to the workspace or absolute inside it"`
	Text *string `json:"text,omitempty" jsonschema:"the document's text; with path, checked as if it were that file"`
}

// DocumentOutput is check_document's result.
type DocumentOutput struct {
	Path       string    `json:"path" jsonschema:"the document's path in the workspace"`
	Kind       string    `json:"kind" jsonschema:"packet, handoff, workflow or other (Markdown baton has no rules for)"`
	KindReason string    `json:"kind_reason" jsonschema:"what made baton read it as that kind"`
	Errors     int       `json:"errors"`
	Warnings   int       `json:"warnings"`
	Findings   []Finding `json:"findings"`
	FixedText  string    `json:"fixed_text,omitempty" jsonschema:"the text with every safe fix applied, when that changes it and the document is at most 1 MiB"`
}

func (s *Server) checkDocument(ctx context.Context, in DocumentInput) (string, DocumentOutput, error) {
	var out DocumentOutput
	d, err := s.load(in.Path, in.Text, "untitled.md")
	if err != nil {
		return "", out, err
	}
	return work(s, ctx, max(len(d.text), 1), func() (string, DocumentOutput, error) {
		eng := s.engine()
		env, err := eng.Env(engine.Request{Path: d.path})
		if err != nil {
			return "", out, err
		}
		var res *analysis.Result
		if d.size > 0 {
			res = s.reg.TooLargeResult(d.name, d.size, &env.Config)
		} else {
			res = eng.Analyze(env, d.name, d.text)
		}
		out = DocumentOutput{Path: d.name, Kind: res.Doc.Kind.ID(), KindReason: res.Doc.KindWhy, Findings: findingsOf(res.Doc, res.Findings)}
		out.Errors, out.Warnings = count(res.Findings)
		// The fixed text of a larger document would not fit an agent's
		// context, and making it analyses the document again and again:
		// its findings carry their edits, and baton check --fix applies
		// them.
		if d.size == 0 && len(d.text) <= maxFixedText {
			out.FixedText = fixedText(res, func(t string) *analysis.Result { return eng.Analyze(env, d.name, t) })
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s reads as %s", out.Path, out.Kind)
		if out.KindReason != "" {
			fmt.Fprintf(&b, " (%s)", out.KindReason)
		}
		fmt.Fprintf(&b, ": %d errors, %d warnings, %d findings in all.\n", out.Errors, out.Warnings, len(out.Findings))
		listFindings(&b, out.Findings)
		if out.FixedText != "" && len(out.FixedText) <= maxTextInSummary {
			fmt.Fprintf(&b, "the text with the safe fixes applied:\n\n%s", out.FixedText)
		}
		return b.String(), out, nil
	})
}

// maxFixedText bounds the documents check_document returns the fixed
// text of.
const maxFixedText = 1 << 20

// HandoffFilesOutput is check_handoff_files's result.
type HandoffFilesOutput struct {
	Path        string      `json:"path"`
	Session     string      `json:"session" jsonschema:"the session the handoff is carried from"`
	SessionDir  string      `json:"session_dir" jsonschema:"the session folder whose read ledger was read"`
	SessionCwd  string      `json:"session_cwd" jsonschema:"the session's working folder, against which relative paths are read"`
	InLedger    int         `json:"in_ledger"`
	NotInLedger int         `json:"not_in_ledger"`
	Files       []FileCheck `json:"files"`
}

// FileCheck is one file of a handoff against the read ledger.
type FileCheck struct {
	Path     string   `json:"path" jsonschema:"the path as the handoff writes it"`
	Section  string   `json:"section" jsonschema:"Files, or Dropped for the dropped section"`
	Line     int      `json:"line"`
	InLedger bool     `json:"in_ledger" jsonschema:"the session read, edited or listed it"`
	As       string   `json:"as" jsonschema:"the path as the ledger keys it (normalized against the session's folder)"`
	Nearest  []string `json:"nearest" jsonschema:"when not in the ledger: the nearest paths the session did touch"`
	Evidence []string `json:"evidence" jsonschema:"when in the ledger: how the session touched it"`
	Advice   string   `json:"advice,omitempty"`
}

func (s *Server) handoffFiles(ctx context.Context, in DocumentInput) (string, HandoffFilesOutput, error) {
	var out HandoffFilesOutput
	d, err := s.load(in.Path, in.Text, "handoff.md")
	if err != nil {
		return "", out, err
	}
	if d.size > 0 {
		return "", out, fmt.Errorf("%s is %d bytes, over the %d baton reads: not a handoff document", d.name, d.size, markdown.MaxDocumentBytes)
	}
	return work(s, ctx, max(len(d.text), 1), func() (string, HandoffFilesOutput, error) {
		eng := s.engine()
		env, err := eng.Env(engine.Request{Path: d.path})
		if err != nil {
			return "", out, err
		}
		res := eng.Analyze(env, d.name, d.text)
		m, _ := res.Model(handoff.Analyzer).(*handoff.Model)
		if res.Doc.Kind == markdown.KindHandoff && m == nil {
			return "", out, fmt.Errorf("%s is a brief carrying a clio-task-memory snapshot, not clio's /handoff review document: it lists no files to check against a read ledger (%s reports what clio refuses of the snapshot)", d.name, ToolCheckDocument)
		}
		if res.Doc.Kind != markdown.KindHandoff || m == nil {
			return "", out, fmt.Errorf("%s is not a handoff document (it reads as %s): a handoff opens with \"# Handoff\" and a **Goal:** line", d.name, res.Doc.Kind.ID())
		}
		doc := m.Doc
		if doc.SessionID == "" || !session.ValidID(doc.SessionID) {
			return "", out, fmt.Errorf("%s names no session: it needs the line \"Carried from session `<id>`.\" to be checked against a read ledger", d.name)
		}
		lk := m.Lookup
		if lk == nil || lk.Err != nil || lk.Ledger == nil {
			why := "no session resolver"
			var looked []string
			if lk != nil {
				looked = lk.Looked
				if lk.Err != nil {
					why = strings.Join(strings.Split(strings.TrimSpace(lk.Err.Error()), "\n"), "; ")
				}
			}
			msg := fmt.Sprintf("could not read the read ledger of session %s: %s", doc.SessionID, why)
			if len(looked) > 0 {
				msg += "; looked in " + strings.Join(looked, ", ")
			}
			return "", out, errors.New(msg + " (clio-coder's state folder can be set with handoff.state-dir in .baton.yaml, or baton mcp --state-dir)")
		}
		l := lk.Ledger
		out = HandoffFilesOutput{Path: d.name, Session: doc.SessionID, SessionDir: l.Dir, SessionCwd: l.Cwd, Files: []FileCheck{}}
		for _, sec := range doc.Sections {
			if !sec.Known || (sec.Name != handoff.Files && sec.Name != handoff.Dropped) {
				continue
			}
			for _, it := range sec.Items {
				if it.Malformed != "" || it.Path == "" {
					continue
				}
				fc := FileCheck{Path: it.Path, Section: sec.Name, As: session.Normalize(l.Cwd, it.Path), Nearest: []string{}, Evidence: []string{}}
				fc.Line, _ = position(res.Doc, it.PathSpan.Start)
				ev, found := l.Lookup(it.Path)
				fc.InLedger = found
				if found {
					out.InLedger++
					for _, e := range ev {
						fc.Evidence = append(fc.Evidence, describe(e))
					}
				} else {
					out.NotInLedger++
					fc.Nearest = append(fc.Nearest, handoff.Nearest(l, it.Path, 3)...)
				}
				switch {
				case sec.Name == handoff.Files && !found:
					fc.Advice = "the session never touched it: correct the path (see nearest) or move it to the dropped section"
				case sec.Name == handoff.Dropped && found:
					fc.Advice = "the session touched it: it can go back under ## Files"
				}
				out.Files = append(out.Files, fc)
			}
		}
		var b strings.Builder
		fmt.Fprintf(&b, "session %s (%s): %d files in its read ledger, %d not.\n", out.Session, out.SessionDir, out.InLedger, out.NotInLedger)
		for _, f := range out.Files {
			state := "in the ledger"
			if !f.InLedger {
				state = "NOT in the ledger"
				if len(f.Nearest) > 0 {
					state += "; nearest: " + strings.Join(f.Nearest, ", ")
				}
			}
			fmt.Fprintf(&b, "- line %d %s (%s): %s", f.Line, f.Path, f.Section, state)
			if f.Advice != "" {
				fmt.Fprintf(&b, " — %s", f.Advice)
			}
			b.WriteByte('\n')
		}
		return b.String(), out, nil
	})
}

func describe(e session.Evidence) string {
	how := "by " + e.Tool
	if e.Tool == "fileEntry" {
		how = "file entry (" + e.Operation + ")"
	}
	return fmt.Sprintf("%s, turn %s, line %d of the session file", how, e.TurnID, e.Line)
}

// ExplainInput is explain_rule's input.
type ExplainInput struct {
	Rule string `json:"rule,omitempty" jsonschema:"the rule's id, e.g. packet/review-not-held; omit it to list every rule"`
}

// ExplainOutput is explain_rule's result.
type ExplainOutput struct {
	Rules []RuleDoc `json:"rules"`
}

// RuleDoc is one rule.
type RuleDoc struct {
	ID       string `json:"id"`
	Severity string `json:"severity" jsonschema:"its default severity (a .baton.yaml may change it)"`
	Summary  string `json:"summary"`
	Doc      string `json:"doc,omitempty" jsonschema:"what it checks, why, and how to satisfy it (Markdown)"`
}

func (s *Server) explainRule(_ context.Context, in ExplainInput) (string, ExplainOutput, error) {
	out := ExplainOutput{Rules: []RuleDoc{}}
	id := strings.TrimSpace(in.Rule)
	if id == "" {
		var b strings.Builder
		for _, r := range s.reg.Rules() {
			out.Rules = append(out.Rules, RuleDoc{ID: r.ID, Severity: r.Severity.String(), Summary: r.Summary})
			fmt.Fprintf(&b, "%s (%s): %s\n", r.ID, r.Severity, r.Summary)
		}
		return b.String(), out, nil
	}
	r := s.reg.Rule(id)
	if r == nil {
		msg := fmt.Sprintf("no rule %q", id)
		if near := s.nearRules(id); len(near) > 0 {
			msg += "; did you mean " + strings.Join(near, ", ") + "?"
		}
		return "", out, errors.New(msg + " (call explain_rule without a rule to list them)")
	}
	doc := r.FullDoc()
	out.Rules = append(out.Rules, RuleDoc{ID: r.ID, Severity: r.Severity.String(), Summary: r.Summary, Doc: doc})
	return fmt.Sprintf("%s (default severity: %s)\n\n%s\n\n%s\n", r.ID, r.Severity, r.Summary, doc), out, nil
}

// nearRules are rule ids that share the asked id's last part or contain
// it, for a misspelt or unqualified id.
func (s *Server) nearRules(id string) []string {
	want := strings.ToLower(id)
	if i := strings.LastIndexByte(want, '/'); i >= 0 {
		want = want[i+1:]
	}
	var near []string
	for _, r := range s.reg.Rules() {
		name := r.ID[strings.LastIndexByte(r.ID, '/')+1:]
		if want != "" && (strings.Contains(name, want) || strings.Contains(want, name)) {
			near = append(near, r.ID)
		}
	}
	if len(near) > 5 {
		near = near[:5]
	}
	return near
}
