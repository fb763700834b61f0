package server_test

import (
	"cmp"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/server"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// ---- helpers ----

// registrations records the client/registerCapability requests a server
// sends; the client answers each with null.
type registrations struct {
	mu   sync.Mutex
	cond *sync.Cond
	regs []protocol.Registration
}

// startWatching is start with a client that also answers
// client/registerCapability (with null) and records what was registered.
func startWatching(t *testing.T) (*client, *registrations) {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	c := &client{t: t, exit: make(chan int, 1)}
	c.cond = sync.NewCond(&c.mu)
	rec := &registrations{}
	rec.cond = sync.NewCond(&rec.mu)
	go func() {
		c.exit <- server.Run(context.Background(), sr, sw, server.Options{Registry: engine.Registry(), Version: "test"})
		sw.Close()
		sr.Close()
	}()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(pipe{cr, cw}), jsonrpc2.WithCodec(codec{}))
	c.conn.Go(context.Background(), func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		switch req.Method() {
		case protocol.MethodTextDocumentPublishDiagnostics:
			return record(c, req, &c.pushes)
		case protocol.MethodClientRegisterCapability:
			var p protocol.RegistrationParams
			if err := protocol.Unmarshal(req.Params(), &p); err != nil {
				t.Errorf("bad registerCapability: %v", err)
				return nil, nil
			}
			rec.mu.Lock()
			rec.regs = append(rec.regs, p.Registrations...)
			rec.cond.Broadcast()
			rec.mu.Unlock()
			return nil, nil
		}
		return jsonrpc2.MethodNotFoundHandler(ctx, req)
	})
	t.Cleanup(func() { c.conn.Close() })
	return c, rec
}

// wait returns the first registration for method. The deadline only guards
// against a hung test.
func (r *registrations) wait(t *testing.T, method string) protocol.Registration {
	t.Helper()
	timer := time.AfterFunc(20*time.Second, func() {
		r.mu.Lock()
		r.cond.Broadcast()
		r.mu.Unlock()
	})
	defer timer.Stop()
	deadline := time.Now().Add(20 * time.Second)
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		for _, g := range r.regs {
			if g.Method == method {
				return g
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s registration; got %+v", method, r.regs)
		}
		r.cond.Wait()
	}
}

func (c *client) hoverText(u uri.URI, line, char uint32) string {
	c.t.Helper()
	var raw jsonrpc2.RawMessage
	if err := c.call(protocol.MethodTextDocumentHover, hoverAt(u, line, char), &raw); err != nil {
		c.t.Fatalf("hover: %v", err)
	}
	if string(raw) == "null" {
		return ""
	}
	var h protocol.Hover
	if err := protocol.Unmarshal(raw, &h); err != nil {
		c.t.Fatalf("decode hover %s: %v", raw, err)
	}
	mc, ok := h.Contents.(*protocol.MarkupContent)
	if !ok || mc.Kind != protocol.MarkupKindMarkdown {
		c.t.Fatalf("hover contents = %#v", h.Contents)
	}
	return mc.Value
}

func (c *client) codeLenses(u uri.URI) []protocol.CodeLens {
	c.t.Helper()
	var out []protocol.CodeLens
	if err := c.call(protocol.MethodTextDocumentCodeLens, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &out); err != nil {
		c.t.Fatalf("codeLens: %v", err)
	}
	return out
}

func (c *client) codeActions(u uri.URI, r protocol.Range, diags []protocol.Diagnostic, only ...protocol.CodeActionKind) []protocol.CodeAction {
	c.t.Helper()
	var out []protocol.CodeAction
	if err := c.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range:        r,
		Context:      protocol.CodeActionContext{Diagnostics: append([]protocol.Diagnostic{}, diags...), Only: only},
	}, &out); err != nil {
		c.t.Fatalf("codeAction: %v", err)
	}
	return out
}

// pull asks for the diagnostics of u (a pull client).
func (c *client) pull(u uri.URI) []protocol.Diagnostic {
	c.t.Helper()
	var raw jsonrpc2.RawMessage
	if err := c.call(protocol.MethodTextDocumentDiagnostic, &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &raw); err != nil {
		c.t.Fatalf("diagnostic: %v", err)
	}
	var rep protocol.DocumentDiagnosticReport
	if err := protocol.Unmarshal(raw, &rep); err != nil {
		c.t.Fatalf("decode %s: %v", raw, err)
	}
	full, ok := rep.(*protocol.RelatedFullDocumentDiagnosticReport)
	if !ok {
		c.t.Fatalf("pull without a previous result ID = %+v, want a full report", rep)
	}
	return full.Items
}

// relint replaces the whole document (as an editor does after applying an
// edit) and pulls its diagnostics.
func (c *client) relint(u uri.URI, version int32, text string) []protocol.Diagnostic {
	c.t.Helper()
	c.change(u, version, &protocol.TextDocumentContentChangeWholeDocument{Text: text})
	return c.pull(u)
}

func (c *client) completions(u uri.URI, line, char uint32) []protocol.CompletionItem {
	c.t.Helper()
	return c.completionsAt(u, protocol.Position{Line: line, Character: char})
}

func (c *client) hoverAtPos(u uri.URI, p protocol.Position) string {
	c.t.Helper()
	return c.hoverText(u, p.Line, p.Character)
}

func (c *client) completionsAt(u uri.URI, pos protocol.Position) []protocol.CompletionItem {
	c.t.Helper()
	var raw jsonrpc2.RawMessage
	if err := c.call(protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Position:     pos,
	}}, &raw); err != nil {
		c.t.Fatalf("completion: %v", err)
	}
	if string(raw) == "null" {
		return nil
	}
	var items []protocol.CompletionItem
	if err := protocol.Unmarshal(raw, &items); err != nil {
		var list protocol.CompletionList
		if err2 := protocol.Unmarshal(raw, &list); err2 != nil {
			c.t.Fatalf("decode completion %s: %v / %v", raw, err, err2)
		}
		items = list.Items
	}
	return items
}

// encoding is the position encoding the server chose.
func (c *client) encoding() markdown.Encoding {
	if c.init != nil && c.init.Capabilities.PositionEncoding == protocol.PositionEncodingKindUTF8 {
		return markdown.UTF8
	}
	return markdown.UTF16
}

// applyEdit applies the edits a workspace edit makes to document u to text,
// positions counted in enc. Edits are applied from last to first; edits
// that overlap fail the test.
func applyEdit(t *testing.T, text string, u uri.URI, we *protocol.WorkspaceEdit, enc markdown.Encoding) string {
	t.Helper()
	if we == nil {
		t.Fatal("code action without an edit")
	}
	edits := append([]protocol.TextEdit(nil), we.Changes[u]...)
	for k := range we.Changes {
		if k != u {
			t.Errorf("edit touches another document %s", k)
		}
	}
	if len(we.DocumentChanges) > 0 {
		t.Fatalf("documentChanges not expected from a client without the capability: %+v", we.DocumentChanges)
	}
	return applyTextEdits(t, text, edits, enc)
}

// findings are diagnostics as "code: message", sorted: what a fix must leave
// alone, wherever the edit moved it.
func findings(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		code, _ := d.Code.(protocol.String)
		msg, _ := d.Message.(protocol.String)
		out = append(out, string(code)+": "+string(msg))
	}
	slices.Sort(out)
	return out
}

func withCode(ds []protocol.Diagnostic, code string) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	for _, d := range ds {
		if c, _ := d.Code.(protocol.String); string(c) == code {
			out = append(out, d)
		}
	}
	return out
}

func actionTitled(t *testing.T, as []protocol.CodeAction, title string) protocol.CodeAction {
	t.Helper()
	for _, a := range as {
		if a.Title == title {
			return a
		}
	}
	var titles []string
	for _, a := range as {
		titles = append(titles, a.Title)
	}
	t.Fatalf("no code action %q among %q", title, titles)
	return protocol.CodeAction{}
}

func lineOf(text, substr string) uint32 {
	i := strings.Index(text, substr)
	if i < 0 {
		panic("no " + substr)
	}
	return uint32(strings.Count(text[:i], "\n"))
}

// ---- documents ----

// reviewPacket asks for a decision and holds the work: consistent, and a
// real stop because the user must act.
const reviewPacket = `## What I Just Did

Rewrote the retry loop so that a 429 waits.

## Why I Stopped

The cap on long waits is your call.

## What Needs Your Review

- Should long waits be capped?

## What Happens Next

On approval, I will update the callers.

## What I Need From You

Reply "cap" or "no cap".
`

// donePacket reports finished work and asks nothing.
const donePacket = `## What I Just Did

Added the retry cap.

## Why I Stopped

The requested work is complete.

## What Needs Your Review

None.

## What Happens Next

Nothing.

## What I Need From You

Nothing.
`

// quietPacket asks nothing, says nothing of being blocked or done, and has
// no marker: the stop an agent might mark continue or intermediate.
const quietPacket = `## What I Just Did

Started the integration test run in the background.

## Why I Stopped

The test run takes a while.

## What Needs Your Review

None.

## What Happens Next

I will read the results when the run ends.

## What I Need From You

Nothing yet.
`

const continueLine = "Next: wiring the retry cap into the client. " + "<!-- SPECREW-STOP-INTENT: continue -->\n"

// ---- 1. hover ----

// The row of an input in a stop-intent hover table.
func inputRow(hover, name string) string {
	for _, l := range strings.Split(hover, "\n") {
		if strings.HasPrefix(l, "| "+name+" |") {
			return l
		}
	}
	return ""
}

func TestStopIntentHoverOnPacketHeading(t *testing.T) {
	c := start(t)
	c.initialize(pullCaps(), "")
	blocked := strings.Replace(quietPacket, "The test run takes a while.", "The run takes a while.\nI am blocked on the missing API key.", 1)
	u, ub := uri.URI("file:///ws/review.md"), uri.URI("file:///ws/blocked.md")
	c.open(u, reviewPacket)
	c.open(ub, blocked)

	h := c.hoverText(u, 0, 4)
	for _, want := range []string{
		"Stop intent: real",
		"a substantive review request, a user question, or a required external action", // the seed's reason
		"| MarkerIntent | none |",
		// The review item on line 11 decides it.
		"| UserActionRequired | true | the text, line 11",
		"| AgentBlockedOrHandingBack | false | the text",
		"| RequestedWorkComplete | false | the text",
		"| LifecycleBoundaryPending | unknown | unknown",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("hover on the first heading lacks %q:\n%s", want, h)
		}
	}
	if got, want := lineOf(reviewPacket, "- Should long waits"), uint32(10); got != want {
		t.Fatalf("test document changed: item on line %d", got)
	}
	// Another section's heading says what the section is for, not the outcome.
	if h := c.hoverText(u, lineOf(reviewPacket, "## Why I Stopped"), 4); strings.Contains(h, "Stop intent:") {
		t.Errorf("hover on the second heading shows the stop intent:\n%s", h)
	}

	h = c.hoverText(ub, 0, 4)
	line := lineOf(blocked, "I am blocked") + 1
	for _, want := range []string{
		"Stop intent: real",
		"execution cannot continue automatically, or the agent intentionally hands control back",
		"| AgentBlockedOrHandingBack | true | the text, line " + itoa(line),
		"| UserActionRequired | false | the text",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("hover on a blocked packet lacks %q:\n%s", want, h)
		}
	}
}

func itoa(n uint32) string { return strconv.FormatUint(uint64(n), 10) }

func TestStopIntentHoverOnContinueMarker(t *testing.T) {
	c := start(t)
	c.initialize(pushCaps(), "")
	u := uri.URI("file:///ws/continue.md") // no .specrew anywhere above
	c.open(u, continueLine)
	col := uint32(strings.Index(continueLine, "<!--") + 5)
	h := c.hoverText(u, 0, col)
	if !strings.Contains(h, "Stop intent:") {
		t.Fatalf("hover on the marker = %q", h)
	}
	// Several outcomes are possible, each with its condition.
	outcomes := map[string]bool{}
	for _, l := range strings.Split(h, "\n") {
		for _, o := range []string{"continue", "intermediate", "real"} {
			if strings.HasPrefix(l, "- **"+o+"** if ") {
				outcomes[o] = true
			}
		}
	}
	if len(outcomes) != 3 {
		t.Errorf("possible outcomes listed with conditions = %v, want continue, intermediate and real:\n%s", outcomes, h)
	}
	if !strings.Contains(h, "the phase is authorized") {
		t.Errorf("no condition on the authorization:\n%s", h)
	}
	for _, want := range []string{
		"| MarkerIntent | continue |",
		"| UserActionRequired | false | the text",
		"| LifecycleBoundaryPending | unknown | unknown",
		"| AuthorizedWorkRemains | unknown | unknown",
		"| ContinueLoopGuardTripped | unknown | unknown",
		"| OwnedWorkInFlight | unknown | unknown",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("hover lacks %q:\n%s", want, h)
		}
	}
	if p := c.waitPush(u, version(1)); len(p.Diagnostics) != 0 {
		t.Errorf("a plain continue message has findings: %+v", p.Diagnostics)
	}
	lenses := c.codeLenses(u)
	if len(lenses) != 1 || !strings.HasPrefix(lenses[0].Command.Title, "Stop intent: continue, intermediate or real") {
		t.Errorf("lens = %+v", lenses)
	}
	// Off the marker, on plain text, there is nothing to say.
	if h := c.hoverText(u, 0, 2); h != "" {
		t.Errorf("hover on the text = %q", h)
	}
}

// ---- 2. code lens ----

func TestStopIntentCodeLensPerStop(t *testing.T) {
	c := start(t)
	c.initialize(pushCaps(), "")
	text := donePacket + "\n" + reviewPacket
	u := uri.URI("file:///ws/transcript.md")
	c.open(u, text)
	lenses := c.codeLenses(u)
	second := uint32(strings.Count(donePacket+"\n", "\n"))
	want := []struct {
		line  uint32
		title string
	}{
		{0, "Stop intent: real — the requested work is complete and ready for a final report"},
		{second, "Stop intent: real — a substantive review request, a user question, or a required external action"},
	}
	if len(lenses) != len(want) {
		t.Fatalf("lenses = %+v, want one per packet", lenses)
	}
	for i, w := range want {
		l := lenses[i]
		if l.Range.Start.Line != w.line || l.Range.End.Line != w.line || l.Command.Title != w.title {
			t.Errorf("lens %d = line %d %q, want line %d %q", i, l.Range.Start.Line, l.Command.Title, w.line, w.title)
		}
		if l.Command.Command != "" {
			t.Errorf("lens %d runs a command %q; it is informational", i, l.Command.Command)
		}
	}
	// The second packet's hover points at its own review item.
	h := c.hoverText(u, second, 4)
	if want := "| UserActionRequired | true | the text, line " + itoa(lineOf(text, "- Should long waits")+1); !strings.Contains(h, want) {
		t.Errorf("hover on the second packet lacks %q:\n%s", want, h)
	}
}

// ---- 3. workspace state ----

func TestStopIntentWorkspaceState(t *testing.T) {
	dir := t.TempDir()
	pending := filepath.Join(dir, ".specrew", "runtime", "pending-verdict-stop.md")
	if err := os.MkdirAll(filepath.Dir(pending), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pending, []byte("pending\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	c, regs := startWatching(t)
	c.initialize(protocol.ClientCapabilities{Workspace: &protocol.WorkspaceClientCapabilities{
		DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesClientCapabilities{DynamicRegistration: boolPtr(true)},
	}}, "")

	// The server asks the client to watch the specrew state.
	reg := regs.wait(t, protocol.MethodWorkspaceDidChangeWatchedFiles)
	var opts struct {
		Watchers []struct {
			GlobPattern any `json:"globPattern"`
		} `json:"watchers"`
	}
	if err := json.Unmarshal(reg.RegisterOptions, &opts); err != nil {
		t.Fatalf("registerOptions %s: %v", reg.RegisterOptions, err)
	}
	if len(opts.Watchers) == 0 {
		t.Fatalf("registration without watchers: %s", reg.RegisterOptions)
	}
	if g, _ := opts.Watchers[0].GlobPattern.(string); !strings.Contains(g, ".specrew") {
		t.Errorf("watched glob = %v, want one that covers .specrew/", opts.Watchers[0].GlobPattern)
	}

	u := uri.File(filepath.Join(dir, "stop.md"))
	c.open(u, reviewPacket)
	c.waitPush(u, version(1))
	const boundary = "Stop intent: real — a lifecycle verdict boundary is pending (a human handoff is due)"
	if l := c.codeLenses(u); len(l) != 1 || l[0].Command.Title != boundary {
		t.Fatalf("lens with a pending verdict = %+v, want %q", l, boundary)
	}
	h := c.hoverText(u, 0, 4)
	row := inputRow(h, "LifecycleBoundaryPending")
	if !strings.HasPrefix(row, "| LifecycleBoundaryPending | true | ") || !strings.Contains(row, pending) {
		t.Errorf("boundary row = %q, want true from %s", row, pending)
	}
	if !strings.Contains(h, ".specrew/runtime/pending-verdict-stop.md") {
		t.Errorf("hover does not name the pending file:\n%s", h)
	}

	// The verdict is given: the file goes, the client says so.
	if err := os.Remove(pending); err != nil {
		t.Fatal(err)
	}
	pushes := c.pushCount(u)
	c.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{
		Changes: []protocol.FileEvent{{URI: uri.File(pending), Type: protocol.FileChangeTypeDeleted}},
	})
	// Workspace state changed: the open document is linted again.
	c.waitPushCount(u, pushes+1)
	// In a specrew project the stop goes as specrew's provider takes it,
	// which reads no user action from the text: the default reason.
	const review = "Stop intent: real — no current-turn continue marker with authorization, no async in flight, and no other trigger; normal real-stop enforcement applies"
	if l := c.codeLenses(u); len(l) != 1 || l[0].Command.Title != review {
		t.Errorf("lens once the verdict is no longer pending = %+v, want %q", l, review)
	}
	h = c.hoverText(u, 0, 4)
	row = inputRow(h, "LifecycleBoundaryPending")
	if !strings.HasPrefix(row, "| LifecycleBoundaryPending | false | ") {
		t.Errorf("boundary row after the file went = %q, want false", row)
	}
	// The "from" cell says where the value came from, like every other row.
	if cells := strings.Split(row, "|"); len(cells) < 4 || strings.HasPrefix(strings.TrimSpace(cells[3]), ":") {
		t.Errorf("boundary row names no source: %q", row)
	}
}

// In a specrew project the async inputs are what specrew's stop provider
// passes (extensions/specrew-speckit/scripts/specrew-conformance-provider.ps1):
// false, so a packet that asks nothing is a real stop, as baton classify and
// the hooks say; outside one, intermediate stays possible.
func TestStopIntentSpecrewAsyncInputs(t *testing.T) {
	dir := t.TempDir()
	ctx := filepath.Join(dir, ".specrew", "start-context.json")
	if err := os.MkdirAll(filepath.Dir(ctx), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ctx, []byte(`{"session_state":{"boundary_type":"plan"},"boundary_enforcement":{"last_authorized_boundary":"plan"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := start(t)
	c.initialize(pushCaps(), "")
	in, out := uri.File(filepath.Join(dir, "stop.md")), uri.URI("file:///ws/stop.md")
	c.open(in, quietPacket)
	c.open(out, quietPacket)
	c.waitPush(in, version(1))
	const wantReal = "Stop intent: real — no current-turn continue marker with authorization, no async in flight, and no other trigger; normal real-stop enforcement applies"
	if l := c.codeLenses(in); len(l) != 1 || l[0].Command.Title != wantReal {
		t.Errorf("lens in a specrew project = %+v, want %q", l, wantReal)
	}
	h := c.hoverText(in, 0, 4)
	for _, name := range []string{"OwnedWorkInFlight", "RuntimeWorkKnownTerminal"} {
		if row := inputRow(h, name); !strings.HasPrefix(row, "| "+name+" | false | specrew's stop provider: ") || !strings.Contains(row, "specrew-conformance-provider.ps1") {
			t.Errorf("%s row in a specrew project = %q", name, row)
		}
	}
	if l := c.codeLenses(out); len(l) != 1 || !strings.HasPrefix(l[0].Command.Title, "Stop intent: intermediate or real") {
		t.Errorf("lens outside a specrew project = %+v", l)
	}
	if row := inputRow(c.hoverText(out, 0, 4), "OwnedWorkInFlight"); !strings.HasPrefix(row, "| OwnedWorkInFlight | unknown | unknown") {
		t.Errorf("OwnedWorkInFlight row outside a specrew project = %q", row)
	}
}

func boolPtr(v bool) *bool { return &v }

func (c *client) pushCount(u uri.URI) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, p := range c.pushes {
		if p.URI == u {
			n++
		}
	}
	return n
}

// waitPushCount waits until n diagnostics have been published for u. The
// deadline only guards against a hung test.
func (c *client) waitPushCount(u uri.URI, n int) {
	c.t.Helper()
	timer := time.AfterFunc(20*time.Second, func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	deadline := time.Now().Add(20 * time.Second)
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		got := 0
		for _, p := range c.pushes {
			if p.URI == u {
				got++
			}
		}
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("%d publishes for %s, want %d", got, u, n)
		}
		c.cond.Wait()
	}
}

// ---- 4. code actions, applied and re-linted ----

// fixCase opens text on a pull client, checks the findings, applies the code
// action titled title offered at the first diagnostic with code (or, when
// code is "", at line), re-lints, and returns the edited text and the
// findings after, having checked that the finding fixed is gone and every
// other finding unchanged.
type fixCase struct {
	text  string
	code  string // the finding the action fixes; "" for a refactoring
	line  uint32 // where a refactoring is asked for
	title string
	kind  protocol.CodeActionKind
	added []string // findings the edit is expected to add (by code)
	// preferred: the action is the preferred one (a finding's only, safe fix)
	preferred bool
}

func runFix(t *testing.T, c *client, u uri.URI, fc fixCase) (string, []protocol.Diagnostic) {
	t.Helper()
	c.open(u, fc.text)
	before := c.pull(u)
	r := protocol.Range{Start: protocol.Position{Line: fc.line}, End: protocol.Position{Line: fc.line}}
	var at []protocol.Diagnostic
	if fc.code != "" {
		at = withCode(before, fc.code)
		if len(at) == 0 {
			t.Fatalf("no %s finding in %q", fc.code, findings(before))
		}
		at = at[:1]
		r = at[0].Range
	}
	a := actionTitled(t, c.codeActions(u, r, at), fc.title)
	if a.Kind == nil || *a.Kind != fc.kind {
		t.Errorf("action %q has kind %v, want %s", a.Title, a.Kind, fc.kind)
	}
	if got := a.IsPreferred != nil && *a.IsPreferred; got != fc.preferred {
		t.Errorf("action %q preferred = %v, want %v", a.Title, got, fc.preferred)
	}
	if fc.code != "" && (len(a.Diagnostics) != 1 || findings(a.Diagnostics)[0] != findings(at)[0]) {
		t.Errorf("action %q fixes %v, want %v", a.Title, findings(a.Diagnostics), findings(at))
	}
	edited := applyEdit(t, fc.text, u, a.Edit, c.encoding())
	after := c.relint(u, 2, edited)

	want := slices.DeleteFunc(findings(before), func(f string) bool { return fc.code != "" && f == findings(at)[0] })
	got := slices.DeleteFunc(findings(after), func(f string) bool {
		return slices.ContainsFunc(fc.added, func(code string) bool { return strings.HasPrefix(f, code+": ") })
	})
	if !slices.Equal(got, want) {
		t.Errorf("after %q:\n got findings %q\nwant %q (plus %v)\ntext:\n%s", fc.title, findings(after), want, fc.added, edited)
	}
	for _, code := range fc.added {
		if len(withCode(after, code)) != 1 {
			t.Errorf("after %q: want one %s finding, got %q", fc.title, code, findings(after))
		}
	}
	return edited, after
}

func TestInsertStopIntentMarkers(t *testing.T) {
	c := start(t)
	c.initialize(pullCaps(), "")
	for _, tc := range []struct {
		intent, marker, finding string
	}{
		{"continue", "<!-- SPECREW-STOP-INTENT: continue -->", "stopintent/packet-on-continue"},
		{"intermediate", "<!-- SPECREW-STOP-INTENT: intermediate -->", "stopintent/packet-on-intermediate"},
	} {
		t.Run(tc.intent, func(t *testing.T) {
			u := uri.URI("file:///ws/insert-" + tc.intent + ".md")
			edited, _ := runFix(t, c, u, fixCase{
				text: quietPacket, line: 2, kind: protocol.CodeActionKindRefactorRewrite,
				title: "Insert the " + tc.intent + " stop-intent marker",
				// The spec: a continue message renders no packet, an
				// intermediate one is a progress line; said of this packet.
				added: []string{tc.finding},
			})
			if want := quietPacket[:len(quietPacket)-1] + "\n\n" + tc.marker + "\n"; edited != want {
				t.Errorf("text after the insertion:\n%s\nwant:\n%s", edited, want)
			}
			line := lineOf(edited, tc.marker)
			h := c.hoverText(u, line, 6)
			if !strings.Contains(h, "Marker: `"+tc.marker+"`") || inputRow(h, "MarkerIntent") != "| MarkerIntent | "+tc.intent+" | the text |" {
				t.Errorf("hover on the inserted marker:\n%s", h)
			}
			if h := c.hoverText(u, 0, 4); !strings.Contains(h, "| MarkerIntent | "+tc.intent+" |") {
				t.Errorf("hover on the first heading does not show the marker:\n%s", h)
			}
			// A stop with a marker is not offered another.
			for _, a := range c.codeActions(u, protocol.Range{Start: protocol.Position{Line: 2}, End: protocol.Position{Line: 2}}, nil, protocol.CodeActionKindRefactorRewrite) {
				if strings.Contains(a.Title, "stop-intent marker") {
					t.Errorf("still offered %q", a.Title)
				}
			}
		})
	}
}

// In a file of two packets, asking at the second packet's first heading
// inserts into the second packet.
func TestInsertMarkerInSecondPacket(t *testing.T) {
	c := start(t)
	c.initialize(pullCaps(), "")
	u := uri.URI("file:///ws/two.md")
	text := donePacket + "\n" + quietPacket
	second := uint32(strings.Count(donePacket+"\n", "\n"))
	c.open(u, text)
	r := protocol.Range{Start: protocol.Position{Line: second}, End: protocol.Position{Line: second}}
	a := actionTitled(t, c.codeActions(u, r, nil, protocol.CodeActionKindRefactorRewrite), "Insert the continue stop-intent marker")
	edited := applyEdit(t, text, u, a.Edit, c.encoding())
	if want := text[:len(text)-1] + "\n\n<!-- SPECREW-STOP-INTENT: continue -->\n"; edited != want {
		t.Errorf("asked at line %d (the second packet's first heading), the marker went into the first packet:\n%s", second, edited)
	}
}

func TestNearMissMarkerFix(t *testing.T) {
	c := start(t)
	c.initialize(pullCaps(), "")
	u := uri.URI("file:///ws/near-miss.md")
	// The quoted marker declares the same intent (specrew reads a quoted
	// marker too): after the fix the message is continue, unambiguously.
	text := "Next: wiring the retry cap into the client.\n\n> Last turn ended with <!-- SPECREW-STOP-INTENT: continue -->\n\n<!-- specrew-stop-intent: Continue -->\n"
	edited, after := runFix(t, c, u, fixCase{
		text: text, code: "stopintent/near-miss", kind: protocol.CodeActionKindQuickFix,
		title: "Write <!-- SPECREW-STOP-INTENT: continue -->", preferred: true,
	})
	if want := strings.Replace(text, "<!-- specrew-stop-intent: Continue -->", "<!-- SPECREW-STOP-INTENT: continue -->", 1); edited != want {
		t.Errorf("text after the fix:\n%s", edited)
	}
	if got := strings.Join(codes(after), ","); got != "stopintent/quoted-marker" {
		t.Errorf("findings after the fix = %s, want the quoted marker only", got)
	}
	h := c.hoverText(u, uint32(strings.Count(edited[:strings.LastIndex(edited, "<!-- SPECREW-STOP-INTENT: continue")], "\n")), 3)
	if !strings.Contains(h, "| MarkerIntent | continue |") {
		t.Errorf("hover on the fixed marker:\n%s", h)
	}
}

func TestAmbiguousMarkersKeepOne(t *testing.T) {
	c := start(t)
	c.initialize(pullCaps(), "")
	const (
		cont  = "<!-- SPECREW-STOP-INTENT: continue -->"
		inter = "<!-- SPECREW-STOP-INTENT: intermediate -->"
		head  = "Next: wiring the retry cap into the client.\n\n"
	)
	text := head + cont + "\n" + inter + "\n"
	for _, tc := range []struct{ keep, marker, drop string }{
		{"continue", cont, inter},
		{"intermediate", inter, cont},
	} {
		t.Run(tc.keep, func(t *testing.T) {
			u := uri.URI("file:///ws/ambiguous-" + tc.keep + ".md")
			edited, after := runFix(t, c, u, fixCase{
				text: text, code: "stopintent/ambiguous", kind: protocol.CodeActionKindQuickFix,
				title: "Keep only the " + tc.keep + " marker",
			})
			// The other marker goes, the kept one stays on its own line,
			// and the rest of the message is untouched. (A marker quoted
			// in the message would count as well: TestBuildQuotedAndAmbiguous.)
			if !strings.HasPrefix(edited, head) || strings.Contains(edited, tc.drop) ||
				strings.Count(edited, tc.marker) != 1 || !strings.Contains(edited, "\n"+tc.marker+"\n") {
				t.Errorf("text after keeping %s:\n%q", tc.keep, edited)
			}
			if got := strings.Join(codes(after), ","); got != "" {
				t.Errorf("findings = %q, want none", got)
			}
			line := uint32(strings.Count(edited[:strings.LastIndex(edited, tc.marker)], "\n"))
			if h := c.hoverText(u, line, 3); !strings.Contains(h, "| MarkerIntent | "+tc.keep+" |") {
				t.Errorf("hover on the marker kept:\n%s", h)
			}
		})
	}
}

func TestInsertMissingSections(t *testing.T) {
	c := start(t)
	c.initialize(pullCaps(), "")

	t.Run("one", func(t *testing.T) {
		// Why I Stopped is missing; a level-3 heading is another finding.
		text := strings.Replace(missingWhy, "## What Happens Next", "### What Happens Next", 1)
		edited, _ := runFix(t, c, uri.URI("file:///ws/missing-one.md"), fixCase{
			text: text, code: "packet/missing-section", kind: protocol.CodeActionKindQuickFix,
			title: `Insert "## Why I Stopped"`,
		})
		want := strings.Replace(text, "## What Needs Your Review", "## Why I Stopped\n\n## What Needs Your Review", 1)
		if edited != want {
			t.Errorf("text after the insertion:\n%s\nwant:\n%s", edited, want)
		}
	})

	t.Run("every", func(t *testing.T) {
		text := "## What I Just Did\n\nRewrote the retry loop 😀.\n\n## What Needs Your Review\n\nNone.\n\n## What I Need From You\n\nReply if anything looks wrong.\n"
		u := uri.URI("file:///ws/missing-two.md")
		c.open(u, text)
		before := withCode(c.pull(u), "packet/missing-section")
		if len(before) != 2 {
			t.Fatalf("missing-section findings = %+v, want two", before)
		}
		// Each finding offers its own insertion and the insertion of both.
		for i, title := range []string{`Insert "## Why I Stopped"`, `Insert "## What Happens Next"`} {
			as := c.codeActions(u, before[i].Range, before[i:i+1])
			actionTitled(t, as, title)
			actionTitled(t, as, "Insert every missing section")
		}
		a := actionTitled(t, c.codeActions(u, before[1].Range, before[1:2]), "Insert every missing section")
		edited := applyEdit(t, text, u, a.Edit, c.encoding())
		want := "## What I Just Did\n\nRewrote the retry loop 😀.\n\n## Why I Stopped\n\n## What Needs Your Review\n\nNone.\n\n## What Happens Next\n\n## What I Need From You\n\nReply if anything looks wrong.\n"
		if edited != want {
			t.Errorf("text after inserting every missing section:\n%s\nwant:\n%s", edited, want)
		}
		if after := c.relint(u, 2, edited); len(after) != 0 {
			t.Errorf("findings after inserting every missing section: %q", findings(after))
		}
	})
}

// reviewWith is reviewPacket with an informational note under What Needs
// Your Review (a finding no fix below touches) and one replacement.
func reviewWith(old, new string) string {
	text := strings.Replace(reviewPacket, "- Should long waits be capped?", "- Should long waits be capped?\n- FYI: the old loop is gone.", 1)
	if !strings.Contains(text, old) {
		panic("no " + old)
	}
	return strings.Replace(text, old, new, 1)
}

func TestReplaceAutoContinue(t *testing.T) {
	for _, enc := range []string{"utf-16", "utf-8"} {
		t.Run(enc, func(t *testing.T) {
			c := start(t)
			caps := pullCaps()
			if enc == "utf-8" {
				caps.General = &protocol.GeneralClientCapabilities{PositionEncodings: []protocol.PositionEncodingKind{protocol.PositionEncodingKindUTF8}}
			}
			c.initialize(caps, "")
			if string(c.init.Capabilities.PositionEncoding) != enc {
				t.Fatalf("position encoding = %s", c.init.Capabilities.PositionEncoding)
			}
			// The sentence follows an emoji on its line: the edit's columns
			// differ in UTF-8 and UTF-16.
			text := reviewWith("The cap on long waits is your call.", "The cap on long waits 😀 is your call. I'll proceed unless you object.")
			edited, _ := runFix(t, c, uri.URI("file:///ws/auto-continue.md"), fixCase{
				text: text, code: "packet/review-auto-continue", kind: protocol.CodeActionKindQuickFix,
				title: "Replace with a sentence that holds the work",
			})
			want := strings.Replace(text, "I'll proceed unless you object.", "I will not proceed until you reply.", 1)
			if edited != want {
				t.Errorf("text after the fix:\n%s\nwant:\n%s", edited, want)
			}
		})
	}
}

func TestHoldTheWork(t *testing.T) {
	c := start(t)
	c.initialize(pullCaps(), "")
	text := reviewWith("On approval, I will update the callers.", "I will run the checks and sync the copy.")
	for i, tc := range []struct{ title, old, new string }{
		{`Make it conditional: "On approval, …"`, "I will run the checks", "On approval, I will run the checks"},
		{"Add: The work is held until you reply.", "sync the copy.\n", "sync the copy.\n\nThe work is held until you reply.\n"},
	} {
		t.Run(tc.title, func(t *testing.T) {
			edited, _ := runFix(t, c, uri.URI("file:///ws/not-held-"+itoa(uint32(i))+".md"), fixCase{
				text: text, code: "packet/review-not-held", kind: protocol.CodeActionKindQuickFix, title: tc.title,
			})
			if want := strings.Replace(text, tc.old, tc.new, 1); edited != want {
				t.Errorf("text after the fix:\n%s\nwant:\n%s", edited, want)
			}
		})
	}
}

const boundaryPacket = `---
from_boundary: spec
to_boundary: plan
---
## What I Just Did

Wrote the spec for the retry cap.

## Why I Stopped

The spec is ready for your verdict.

## What Needs Your Review

- Do you approve the spec?

## What Happens Next

On approval, I will write the plan.

## Discussion Prompts

- Is a cap of 60 seconds enough?

## What I Need From You

Reply "approved for plan" or send it back with changes.
`

func TestInsertVerdictMarker(t *testing.T) {
	c := start(t)
	c.initialize(pullCaps(), "")
	u := uri.URI("file:///ws/boundary.md")
	const marker = "<!-- SPECREW-VERDICT-BOUNDARY: spec -> plan -->"
	edited, _ := runFix(t, c, u, fixCase{
		text: boundaryPacket, line: 4, kind: protocol.CodeActionKindRefactorRewrite,
		title: "Insert the verdict marker " + marker,
	})
	if want := boundaryPacket[:len(boundaryPacket)-1] + "\n\n" + marker + "\n"; edited != want {
		t.Errorf("text after the insertion:\n%s\nwant:\n%s", edited, want)
	}
	for _, a := range c.codeActions(u, protocol.Range{Start: protocol.Position{Line: 4}, End: protocol.Position{Line: 4}}, nil) {
		if strings.HasPrefix(a.Title, "Insert the verdict marker") {
			t.Errorf("a packet with its marker is offered another: %q", a.Title)
		}
	}
	// Without the boundary in front matter there are no names to write.
	u2 := uri.URI("file:///ws/no-front-matter.md")
	c.open(u2, reviewPacket)
	for _, a := range c.codeActions(u2, protocol.Range{}, nil) {
		if strings.HasPrefix(a.Title, "Insert the verdict marker") {
			t.Errorf("a material-work packet is offered %q", a.Title)
		}
	}
}

// fixAllPacket has three findings with a safe fix (a level-3 heading, a
// setext heading, a verdict marker that is not last) and one without (a
// What I Need From You that names no response). Its unconditional "I will
// write the plan." is held: the verdict marker hands the boundary to the user.
const fixAllPacket = `<!-- SPECREW-VERDICT-BOUNDARY: spec -> plan -->

### What I Just Did

Wrote the spec 😀 for the retry cap.

## Why I Stopped

The spec is ready for your verdict.

What Needs Your Review
----------------------

- Do you approve the spec?

## What Happens Next

I will write the plan.

## Discussion Prompts

- Is a cap of 60 seconds enough?

## What I Need From You

Your verdict on the spec, once you have read it.
`

const fixAllFixed = `## What I Just Did

Wrote the spec 😀 for the retry cap.

## Why I Stopped

The spec is ready for your verdict.

## What Needs Your Review

- Do you approve the spec?

## What Happens Next

I will write the plan.

## Discussion Prompts

- Is a cap of 60 seconds enough?

## What I Need From You

Your verdict on the spec, once you have read it.

<!-- SPECREW-VERDICT-BOUNDARY: spec -> plan -->
`

func TestFixAll(t *testing.T) {
	c := start(t)
	c.initialize(pullCaps(), "")
	u := uri.URI("file:///ws/fix-all.md")
	c.open(u, fixAllPacket)
	before := c.pull(u)
	if got := strings.Join(codes(before), ","); !strings.Contains(got, "packet/heading-level") || !strings.Contains(got, "packet/verdict-marker-position") || !strings.Contains(got, "packet/review-response-missing") {
		t.Fatalf("findings = %s", got)
	}
	whole := protocol.Range{End: protocol.Position{Line: uint32(strings.Count(fixAllPacket, "\n"))}}
	// Fix-all is a source action: offered only when asked for.
	for _, a := range c.codeActions(u, whole, before) {
		if *a.Kind == "source.fixAll.baton" {
			t.Errorf("fix-all offered without being asked for")
		}
	}
	for _, only := range []protocol.CodeActionKind{"source.fixAll.baton", "source.fixAll", "source"} {
		as := c.codeActions(u, protocol.Range{}, nil, only)
		if len(as) != 1 || *as[0].Kind != "source.fixAll.baton" {
			t.Errorf("only %s: actions = %+v, want the fix-all", only, as)
		}
	}
	as := c.codeActions(u, protocol.Range{}, nil, "source.fixAll.baton")
	edited := applyEdit(t, fixAllPacket, u, as[0].Edit, c.encoding())
	if edited != fixAllFixed {
		t.Errorf("text after fix-all:\n%s\nwant:\n%s", edited, fixAllFixed)
	}
	after := c.relint(u, 2, edited)
	// The findings without a safe fix stay, as they were: the prompt asks
	// without context or default, and What I Need From You names no action.
	// (And specrew's validator's findings on a thin boundary packet.)
	unfixable := []string{"packet/context-free-prompts", "packet/empty-user-action", "packet/review-response-missing", "packet/thin-what-i-just-did", "packet/unactionable-request", "packet/unnamed-boundary"}
	if got := slices.Sorted(slices.Values(codes(after))); !slices.Equal(got, unfixable) {
		t.Errorf("findings after fix-all = %q, want only those without a safe fix", findings(after))
	}
	// The packet's own findings are the same findings they were (the
	// validator's may read the moved marker's text differently).
	var was, now []protocol.Diagnostic
	for _, code := range unfixable[:3] {
		was = append(was, withCode(before, code)...)
		now = append(now, withCode(after, code)...)
	}
	if got, want := findings(now), findings(was); !slices.Equal(got, want) {
		t.Errorf("the findings without a safe fix changed: %q, were %q", got, want)
	}
	// Idempotent: nothing left to fix.
	if as := c.codeActions(u, protocol.Range{}, nil, "source.fixAll.baton"); len(as) != 0 {
		t.Errorf("fix-all on the fixed text offers %+v", as)
	}
}

// ---- 5. completion ----

func textEdit(t *testing.T, it protocol.CompletionItem) *protocol.TextEdit {
	t.Helper()
	te, ok := it.TextEdit.(*protocol.TextEdit)
	if !ok {
		t.Fatalf("item %q has text edit %#v, want a TextEdit", it.Label, it.TextEdit)
	}
	return te
}

func TestCompleteMissingSectionHeading(t *testing.T) {
	c := start(t)
	c.initialize(pullCaps(), "")
	boundaryLacking := strings.Replace(strings.Replace(boundaryPacket,
		"## Why I Stopped\n\nThe spec is ready for your verdict.\n\n", "", 1),
		"## Discussion Prompts\n\n- Is a cap of 60 seconds enough?\n\n", "", 1)
	for _, tc := range []struct {
		name, text string
		want       []string // the sections the packet lacks, in packet order
	}{
		// A material-work packet has no Discussion Prompts to miss.
		{"material work", missingWhy, []string{"## Why I Stopped"}},
		{"boundary", boundaryLacking, []string{"## Why I Stopped", "## Discussion Prompts"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := uri.URI("file:///ws/typing-" + strings.ReplaceAll(tc.name, " ", "-") + ".md")
			// The user typed "## " on the empty line where Why I Stopped belongs.
			text := strings.Replace(tc.text, "## What Needs Your Review", "## \n\n## What Needs Your Review", 1)
			line := lineOf(text, "## \n")
			c.open(u, text)
			items := c.completions(u, line, 3)
			slices.SortStableFunc(items, func(a, b protocol.CompletionItem) int {
				x, _ := a.SortText.Get()
				y, _ := b.SortText.Get()
				return strings.Compare(cmp.Or(x, a.Label), cmp.Or(y, b.Label))
			})
			var labels []string
			for _, it := range items {
				labels = append(labels, it.Label)
				te := textEdit(t, it)
				if want := (protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line, Character: 3}}); te.Range != want || te.NewText != it.Label {
					t.Errorf("item %q edit = %+v, want %q over %+v", it.Label, te, it.Label, want)
				}
			}
			if len(labels) == 0 || labels[0] != "## Why I Stopped" {
				t.Errorf("first item of %q, want ## Why I Stopped", labels)
			}
			if !slices.Equal(labels, tc.want) {
				t.Errorf("completions in sortText order = %q, want the missing sections %q", labels, tc.want)
			}
		})
	}
}

func TestCompleteMarkers(t *testing.T) {
	c := start(t)
	c.initialize(pullCaps(), "")
	for _, tc := range []struct {
		name, text, typed string
		verdict           string
	}{
		{"packet", quietPacket, "<!--", "<!-- SPECREW-VERDICT-BOUNDARY: <from> -> <to> -->"},
		// After text with an emoji: the edit starts at UTF-16 column 8.
		{"after text", quietPacket, "Done 😀 <!-- SPEC", "<!-- SPECREW-VERDICT-BOUNDARY: <from> -> <to> -->"},
		{"boundary", boundaryPacket, "<!-- ", "<!-- SPECREW-VERDICT-BOUNDARY: spec -> plan -->"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := uri.URI("file:///ws/complete-" + strings.ReplaceAll(tc.name, " ", "-") + ".md")
			text := tc.text + "\n" + tc.typed
			line := uint32(strings.Count(text, "\n"))
			char := uint32(len(utf16.Encode([]rune(tc.typed))))
			from := uint32(len(utf16.Encode([]rune(tc.typed[:strings.Index(tc.typed, "<!--")]))))
			c.open(u, text)
			items := c.completions(u, line, char)
			var labels []string
			for _, it := range items {
				labels = append(labels, it.Label)
				te := textEdit(t, it)
				want := protocol.Range{Start: protocol.Position{Line: line, Character: from}, End: protocol.Position{Line: line, Character: char}}
				if te.Range != want || te.NewText != it.Label {
					t.Errorf("item %q edit = %+v, want %q over %+v", it.Label, te, it.Label, want)
				}
			}
			for _, want := range []string{"<!-- SPECREW-STOP-INTENT: continue -->", "<!-- SPECREW-STOP-INTENT: intermediate -->", tc.verdict} {
				if !slices.Contains(labels, want) {
					t.Errorf("completions %q lack %q", labels, want)
				}
			}
		})
	}
}

func TestCompleteNothingInOtherMarkdown(t *testing.T) {
	c := start(t)
	c.initialize(pullCaps(), "")
	u := uri.URI("file:///ws/notes.md")
	text := "# Notes\n\nSome text about the retry loop.\n\n## "
	c.open(u, text)
	if items := c.completions(u, 4, 3); len(items) != 0 {
		t.Errorf("completions in a note = %+v, want none", items)
	}
}
