package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/server"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// A client drives a real server over in-memory pipes, as an editor would.
type client struct {
	t    *testing.T
	conn jsonrpc2.Conn
	exit chan int

	mu     sync.Mutex
	cond   *sync.Cond
	pushes []protocol.PublishDiagnosticsParams
	traces []protocol.LogTraceParams
	trace  protocol.TraceValue // initialize's trace
	init   *protocol.InitializeResult
}

type pipe struct {
	io.Reader
	io.Writer
}

func (p pipe) Close() error {
	p.Reader.(*io.PipeReader).Close()
	return p.Writer.(*io.PipeWriter).Close()
}

type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	if m, ok := v.(jsonrpc2.RawMessage); ok {
		return m, nil
	}
	return protocol.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}

// start runs a server and connects a client without initializing.
func start(t *testing.T) *client {
	t.Helper()
	return startWith(t, server.Options{Registry: engine.Registry(), Version: "test"})
}

// startWith is start with the given options.
func startWith(t *testing.T, opts server.Options) *client {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	c := &client{t: t, exit: make(chan int, 1)}
	c.cond = sync.NewCond(&c.mu)
	go func() {
		c.exit <- server.Run(context.Background(), sr, sw, opts)
		sw.Close()
		sr.Close()
	}()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(pipe{cr, cw}), jsonrpc2.WithCodec(codec{}))
	c.conn.Go(context.Background(), func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		switch req.Method() {
		case protocol.MethodTextDocumentPublishDiagnostics:
			return record(c, req, &c.pushes)
		case protocol.MethodLogTrace:
			return record(c, req, &c.traces)
		}
		return jsonrpc2.MethodNotFoundHandler(ctx, req)
	})
	t.Cleanup(func() { c.conn.Close() })
	return c
}

// record appends a notification's parameters to list and wakes the
// waiters.
func record[T any](c *client, req *jsonrpc2.Request, list *[]T) (any, error) {
	var p T
	if err := protocol.Unmarshal(req.Params(), &p); err != nil {
		c.t.Errorf("bad %s: %v", req.Method(), err)
		return nil, nil
	}
	c.mu.Lock()
	*list = append(*list, p)
	c.cond.Broadcast()
	c.mu.Unlock()
	return nil, nil
}

// initialize sends initialize and initialized with the given capabilities
// and options.
func (c *client) initialize(caps protocol.ClientCapabilities, options string) {
	c.t.Helper()
	p := protocol.InitializeParams{Capabilities: caps, Trace: c.trace}
	if options != "" {
		p.InitializationOptions = []byte(options)
	}
	var res protocol.InitializeResult
	if err := c.call(protocol.MethodInitialize, &p, &res); err != nil {
		c.t.Fatalf("initialize: %v", err)
	}
	c.init = &res
	c.notify(protocol.MethodInitialized, &protocol.InitializedParams{})
}

func (c *client) call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("notify %s: %v", method, err)
	}
}

func (c *client) open(u uri.URI, text string) {
	c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: "markdown", Version: 1, Text: text},
	})
}

func (c *client) change(u uri.URI, version int32, changes ...protocol.TextDocumentContentChangeEvent) {
	c.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: version},
		ContentChanges: changes,
	})
}

// waitPush waits for diagnostics published for u that satisfy ok. The
// deadline only guards against a hung test; nothing is timed.
func (c *client) waitPush(u uri.URI, ok func(protocol.PublishDiagnosticsParams) bool) protocol.PublishDiagnosticsParams {
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
		for _, p := range c.pushes {
			if p.URI == u && ok(p) {
				return p
			}
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("no matching diagnostics for %s; got %+v", u, c.pushes)
		}
		c.cond.Wait()
	}
}

func version(v int32) func(protocol.PublishDiagnosticsParams) bool {
	return func(p protocol.PublishDiagnosticsParams) bool {
		got, ok := p.Version.Get()
		return ok && got == v
	}
}

func codes(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		if s, ok := d.Code.(protocol.String); ok {
			out = append(out, string(s))
		}
	}
	return out
}

// missingWhy is a boundary packet (it has Discussion Prompts) missing Why I
// Stopped: one finding, an error, on line 4. Its What I Just Did is long
// and concrete enough for a boundary, and its prompt has context and a
// default, so specrew's validator finds nothing else.
const missingWhy = `## What I Just Did

Rewrote the retry loop 😀 so that a 429 waits. I updated T014 and T015, the client tests, for both forms of the Retry-After header, kept FR-012, the rate-limit requirement, as the plan states it, and committed the change as 4f2a9c1, the commit the whole suite passed on, on the rate-limit branch, ready for review.

## What Needs Your Review

- Should long waits be capped?

## What Happens Next

On approval, I will update the callers.

## Discussion Prompts

1. Because a server may ask for a long wait, should we cap it? Recommended default: cap at 60 seconds.

## What I Need From You

Reply "cap" or "no cap".
`

const docURI = uri.URI("file:///ws/stop.md")

func pushCaps() protocol.ClientCapabilities { return protocol.ClientCapabilities{} }

func pullCaps() protocol.ClientCapabilities {
	return protocol.ClientCapabilities{TextDocument: &protocol.TextDocumentClientCapabilities{Diagnostic: &protocol.DiagnosticClientCapabilities{}}}
}

func TestOpenPublishesDiagnosticsForVersion1(t *testing.T) {
	c := start(t)
	c.initialize(pushCaps(), "")
	if got := c.init.Capabilities.PositionEncoding; got != protocol.PositionEncodingKindUTF16 {
		t.Errorf("position encoding = %q, want utf-16 when the client offers nothing", got)
	}
	c.open(docURI, missingWhy)
	p := c.waitPush(docURI, version(1))
	if len(p.Diagnostics) != 1 {
		t.Fatalf("diagnostics = %+v, want one", p.Diagnostics)
	}
	d := p.Diagnostics[0]
	if code := codes(p.Diagnostics)[0]; code != "packet/missing-section" {
		t.Errorf("code = %q", code)
	}
	if src, _ := d.Source.Get(); src != "baton" {
		t.Errorf("source = %q", src)
	}
	if d.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("severity = %v", d.Severity)
	}
	if want := (protocol.Range{Start: protocol.Position{Line: 4}, End: protocol.Position{Line: 4, Character: 25}}); d.Range != want {
		t.Errorf("range = %+v, want %+v", d.Range, want)
	}
	if href := string(d.CodeDescription.Href); !strings.HasSuffix(href, "docs/rules.md#packetmissing-section") {
		t.Errorf("codeDescription = %q", href)
	}
}

func TestIncrementalEditsUseUTF16Columns(t *testing.T) {
	c := start(t)
	c.initialize(pushCaps(), `{"debounce": 0}`)
	c.open(docURI, missingWhy)
	c.waitPush(docURI, version(1))

	// Line 2 is "Rewrote the retry loop 😀 so that a 429 waits." The emoji is
	// two UTF-16 units; insert after it (UTF-16 column 25) and before it
	// (column 0), then turn line 4's heading into a level-3 one.
	c.change(docURI, 2, &protocol.TextDocumentContentChangePartial{
		Range: protocol.Range{Start: protocol.Position{Line: 2, Character: 25}, End: protocol.Position{Line: 2, Character: 25}},
		Text:  "!",
	})
	c.change(docURI, 3, &protocol.TextDocumentContentChangePartial{
		Range: protocol.Range{Start: protocol.Position{Line: 2, Character: 0}, End: protocol.Position{Line: 2, Character: 0}},
		Text:  "🎉 ",
	})
	c.change(docURI, 4, &protocol.TextDocumentContentChangePartial{
		Range: protocol.Range{Start: protocol.Position{Line: 4, Character: 0}, End: protocol.Position{Line: 4, Character: 2}},
		Text:  "###",
	})
	p := c.waitPush(docURI, version(4))
	got := codes(p.Diagnostics)
	if strings.Join(got, ",") != "packet/heading-level,packet/missing-section" {
		t.Fatalf("codes for version 4 = %v", got)
	}
	// Every publish carries a version, and versions never go backwards.
	c.mu.Lock()
	last := int32(0)
	for _, p := range c.pushes {
		v, ok := p.Version.Get()
		if !ok || v < last {
			t.Errorf("publish versions out of order or missing: %+v", c.pushes)
		}
		last = v
	}
	c.mu.Unlock()

	// The text the server holds is what the edits make: the heading-level
	// fix replaces the heading line, and the emoji edits sit where intended.
	var actions []protocol.CodeAction
	if err := c.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: docURI},
		Range:        protocol.Range{Start: protocol.Position{Line: 4}, End: protocol.Position{Line: 4}},
	}, &actions); err != nil {
		t.Fatal(err)
	}
	var hover protocol.Hover
	if err := c.call(protocol.MethodTextDocumentHover, hoverAt(docURI, 4, 5), &hover); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(actions, func(a protocol.CodeAction) bool { return a.Title == "Make it a level-2 heading" })
	if i < 0 || actions[i].Edit == nil {
		t.Fatalf("code actions = %+v", actions)
	}
	edit := actions[i].Edit.Changes[docURI][0]
	if edit.NewText != "## What Needs Your Review" || edit.Range.End.Character != 26 {
		t.Errorf("fix edit = %+v", edit)
	}
}

func hoverAt(u uri.URI, line, char uint32) *protocol.HoverParams {
	return &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Position:     protocol.Position{Line: line, Character: char},
	}}
}

func TestUTF8WhenOffered(t *testing.T) {
	c := start(t)
	c.initialize(protocol.ClientCapabilities{General: &protocol.GeneralClientCapabilities{
		PositionEncodings: []protocol.PositionEncodingKind{protocol.PositionEncodingKindUTF16, protocol.PositionEncodingKindUTF8},
	}}, "")
	if got := c.init.Capabilities.PositionEncoding; got != protocol.PositionEncodingKindUTF8 {
		t.Fatalf("position encoding = %q, want utf-8", got)
	}
	// A heading after an emoji on the same line is impossible, so put the
	// finding after multi-byte text: a malformed marker following "é😀 ".
	text := strings.Replace(missingWhy, "## What I Need From You", "## What I Need From You", 1) + "\né😀 <!-- specrew-verdict-boundary a -> b -->\n"
	c.open(docURI, text)
	p := c.waitPush(docURI, version(1))
	for _, d := range p.Diagnostics {
		if codes([]protocol.Diagnostic{d})[0] == "packet/verdict-marker-malformed" {
			if d.Range.Start.Character != 7 { // é is 2 bytes, 😀 4, then a space
				t.Errorf("marker column = %d bytes, want 7", d.Range.Start.Character)
			}
			return
		}
	}
	t.Fatalf("no malformed-marker diagnostic in %+v", p.Diagnostics)
}

func TestPullDiagnostics(t *testing.T) {
	c := start(t)
	c.initialize(pullCaps(), "")
	c.open(docURI, missingWhy)

	pull := func(prev *string) protocol.DocumentDiagnosticReport {
		t.Helper()
		var raw jsonrpc2.RawMessage
		if err := c.call(protocol.MethodTextDocumentDiagnostic, &protocol.DocumentDiagnosticParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: docURI}, PreviousResultID: prev,
		}, &raw); err != nil {
			t.Fatal(err)
		}
		var rep protocol.DocumentDiagnosticReport
		if err := protocol.Unmarshal(raw, &rep); err != nil {
			t.Fatalf("decode %s: %v", raw, err)
		}
		return rep
	}
	full, ok := pull(nil).(*protocol.RelatedFullDocumentDiagnosticReport)
	if !ok || full.ResultID == nil || len(full.Items) != 1 || full.Kind != "full" {
		t.Fatalf("first pull = %+v", full)
	}
	if un, ok := pull(full.ResultID).(*protocol.RelatedUnchangedDocumentDiagnosticReport); !ok || un.ResultID != *full.ResultID {
		t.Fatalf("second pull with the same result ID = %+v, want unchanged", un)
	}
	// An edit that adds the missing section makes the report full and empty.
	c.change(docURI, 2, &protocol.TextDocumentContentChangePartial{
		Range: protocol.Range{Start: protocol.Position{Line: 4}, End: protocol.Position{Line: 4}},
		Text:  "## Why I Stopped\n\nThe cap is your call.\n\n",
	})
	after, ok := pull(full.ResultID).(*protocol.RelatedFullDocumentDiagnosticReport)
	if !ok || len(after.Items) != 0 || *after.ResultID == *full.ResultID {
		t.Fatalf("pull after the edit = %+v", after)
	}
	// A client that pulls is not also pushed to (it would show everything twice).
	c.mu.Lock()
	n := len(c.pushes)
	c.mu.Unlock()
	if n != 0 {
		t.Errorf("pushed %d times to a pull client", n)
	}
}

func TestHover(t *testing.T) {
	c := start(t)
	c.initialize(pushCaps(), "")
	c.open(docURI, missingWhy)
	hover := func(line, char uint32) string {
		t.Helper()
		var raw jsonrpc2.RawMessage
		if err := c.call(protocol.MethodTextDocumentHover, hoverAt(docURI, line, char), &raw); err != nil {
			t.Fatal(err)
		}
		if string(raw) == "null" {
			return ""
		}
		var h protocol.Hover
		if err := protocol.Unmarshal(raw, &h); err != nil {
			t.Fatal(err)
		}
		mc, ok := h.Contents.(*protocol.MarkupContent)
		if !ok || mc.Kind != protocol.MarkupKindMarkdown {
			t.Fatalf("hover contents = %#v", h.Contents)
		}
		return mc.Value
	}
	if got := hover(0, 4); !strings.Contains(got, "What the agent did") || !strings.Contains(got, "lifecycle-boundary packet") {
		t.Errorf("hover on the first heading = %q", got)
	}
	if got := hover(4, 10); !strings.Contains(got, "packet/missing-section") || !strings.Contains(got, "Why I Stopped") {
		t.Errorf("hover on the finding = %q", got)
	}
	if got := hover(2, 3); got != "" {
		t.Errorf("hover on plain text = %q, want none", got)
	}
}

func TestSymbolsAndFolding(t *testing.T) {
	c := start(t)
	c.initialize(pushCaps(), "")
	c.open(docURI, missingWhy)
	var syms []protocol.DocumentSymbol
	if err := c.call(protocol.MethodTextDocumentDocumentSymbol, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: docURI}}, &syms); err != nil {
		t.Fatal(err)
	}
	if len(syms) != 1 || syms[0].Name != "Stop packet" || len(syms[0].Children) != 5 {
		t.Fatalf("symbols = %+v", syms)
	}
	var names []string
	for _, k := range syms[0].Children {
		names = append(names, k.Name)
	}
	if got := strings.Join(names, "|"); got != "What I Just Did|What Needs Your Review|What Happens Next|Discussion Prompts|What I Need From You" {
		t.Errorf("sections = %s", got)
	}
	if r := syms[0].Children[0].Range; r.Start.Line != 0 || r.End.Line != 2 {
		t.Errorf("first section range = %+v, want lines 0-2", r)
	}

	other := uri.URI("file:///ws/notes.md")
	c.open(other, "# Notes\n\n## A\n\ntext\n\n### A.1\n\n## B\n")
	if err := c.call(protocol.MethodTextDocumentDocumentSymbol, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: other}}, &syms); err != nil {
		t.Fatal(err)
	}
	if len(syms) != 1 || syms[0].Name != "Notes" || len(syms[0].Children) != 2 || len(syms[0].Children[0].Children) != 1 {
		t.Errorf("heading tree = %+v", syms)
	}

	var folds []protocol.FoldingRange
	if err := c.call(protocol.MethodTextDocumentFoldingRange, &protocol.FoldingRangeParams{TextDocument: protocol.TextDocumentIdentifier{URI: docURI}}, &folds); err != nil {
		t.Fatal(err)
	}
	want := [][2]uint32{{0, 2}, {4, 6}, {8, 10}, {12, 14}, {16, 18}}
	if len(folds) != len(want) {
		t.Fatalf("folds = %+v", folds)
	}
	for i, f := range folds {
		if f.StartLine != want[i][0] || f.EndLine != want[i][1] {
			t.Errorf("fold %d = %d-%d, want %v", i, f.StartLine, f.EndLine, want[i])
		}
	}
}

func TestCloseClearsDiagnostics(t *testing.T) {
	c := start(t)
	c.initialize(pushCaps(), "")
	c.open(docURI, missingWhy)
	c.waitPush(docURI, version(1))
	c.notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: docURI}})
	c.waitPush(docURI, func(p protocol.PublishDiagnosticsParams) bool {
		_, hasVersion := p.Version.Get()
		return !hasVersion && len(p.Diagnostics) == 0
	})
	// A closed document is no longer served.
	var raw jsonrpc2.RawMessage
	err := c.call(protocol.MethodTextDocumentDiagnostic, &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: docURI}}, &raw)
	if !errors.Is(err, jsonrpc2.ErrInvalidParams) {
		t.Errorf("pull after close: err = %v, want invalid params", err)
	}
}

func TestSettings(t *testing.T) {
	c := start(t)
	c.initialize(pushCaps(), `{"baton": {"severity": {"packet/missing-section": "off"}}}`)
	c.open(docURI, missingWhy)
	if p := c.waitPush(docURI, version(1)); len(p.Diagnostics) != 0 {
		t.Fatalf("rule set off still reported: %+v", p.Diagnostics)
	}
	c.notify(protocol.MethodWorkspaceDidChangeConfiguration, &protocol.DidChangeConfigurationParams{
		Settings: []byte(`{"baton": {"severity": {"packet/missing-section": "info"}}}`),
	})
	p := c.waitPush(docURI, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 1 })
	if p.Diagnostics[0].Severity != protocol.DiagnosticSeverityInformation {
		t.Errorf("severity after reconfiguration = %v, want information", p.Diagnostics[0].Severity)
	}
}

func rpcCode(err error) jsonrpc2.Code {
	var e *jsonrpc2.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

func TestLifecycle(t *testing.T) {
	c := start(t)
	var raw jsonrpc2.RawMessage
	if err := c.call(protocol.MethodTextDocumentHover, hoverAt(docURI, 0, 0), &raw); rpcCode(err) != jsonrpc2.ServerNotInitialized {
		t.Errorf("request before initialize: %v, want -32002", err)
	}
	c.initialize(pushCaps(), "")
	if err := c.call(protocol.MethodInitialize, &protocol.InitializeParams{}, &raw); rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Errorf("second initialize: %v, want -32600", err)
	}
	if err := c.call("baton/noSuchMethod", map[string]int{}, &raw); rpcCode(err) != jsonrpc2.MethodNotFound {
		t.Errorf("unknown request: %v, want -32601", err)
	}
	c.notify("$/noSuchNotification", map[string]int{"x": 1})
	c.notify(protocol.MethodTextDocumentDidChange, json.RawMessage(`{"bad": true}`))
	if err := c.call(protocol.MethodTextDocumentHover, json.RawMessage(`{"textDocument": 7}`), &raw); rpcCode(err) != jsonrpc2.InvalidParams {
		t.Errorf("hover with bad params: %v, want -32602", err)
	}
	// The connection survived all of that.
	c.open(docURI, missingWhy)
	c.waitPush(docURI, version(1))

	if err := c.call(protocol.MethodShutdown, nil, &raw); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if err := c.call(protocol.MethodTextDocumentHover, hoverAt(docURI, 0, 0), &raw); rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Errorf("request after shutdown: %v, want -32600", err)
	}
	c.notify(protocol.MethodExit, nil)
	if code := <-c.exit; code != 0 {
		t.Errorf("exit after shutdown: code %d, want 0", code)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c := start(t)
	c.initialize(pushCaps(), "")
	c.notify(protocol.MethodExit, nil)
	if code := <-c.exit; code != 1 {
		t.Errorf("exit without shutdown: code %d, want 1", code)
	}
}

// Many edits sent back to back are applied in wire order: typing a packet
// one character at a time yields exactly the packet.
func TestEditsApplyInWireOrder(t *testing.T) {
	c := start(t)
	c.initialize(pullCaps(), "")
	c.open(docURI, "")
	text := "## What I Just Did\n\nWork.\n\n## Why I Stopped\n\nDone.\n\n## What I Need From You\n\nNothing.\n"
	line, col := uint32(0), uint32(0)
	for i, r := range text {
		pos := protocol.Position{Line: line, Character: col}
		c.change(docURI, int32(i+2), &protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: pos, End: pos}, Text: string(r)})
		if r == '\n' {
			line, col = line+1, 0
		} else {
			col++
		}
	}
	// A stale change (an older version) is ignored, not applied.
	c.change(docURI, 3, &protocol.TextDocumentContentChangeWholeDocument{Text: "garbage"})
	// So is a change to a document that was never opened.
	c.change(uri.URI("file:///ws/never-opened.md"), 2, &protocol.TextDocumentContentChangeWholeDocument{Text: "x"})

	var syms []protocol.DocumentSymbol
	if err := c.call(protocol.MethodTextDocumentDocumentSymbol, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: docURI}}, &syms); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range syms {
		for _, k := range s.Children {
			names = append(names, k.Name)
		}
	}
	if got := strings.Join(names, "|"); got != "What I Just Did|Why I Stopped|What I Need From You" {
		t.Fatalf("sections after %d edits = %q", len(text), got)
	}
}

// A change may replace the whole document, and a range past the end of the
// document is clamped rather than dropped.
func TestWholeAndOutOfRangeChanges(t *testing.T) {
	c := start(t)
	c.initialize(pushCaps(), `{"debounce": 0}`)
	c.open(docURI, "# Notes\n")
	c.waitPush(docURI, version(1))
	c.change(docURI, 2, &protocol.TextDocumentContentChangeWholeDocument{Text: missingWhy})
	c.change(docURI, 3, &protocol.TextDocumentContentChangePartial{
		Range: protocol.Range{Start: protocol.Position{Line: 99, Character: 0}, End: protocol.Position{Line: 99, Character: 5}},
		Text:  "\n## Why I Stopped\n\nReasons.\n",
	})
	p := c.waitPush(docURI, version(3))
	if got := codes(p.Diagnostics); strings.Join(got, ",") != "packet/section-order" {
		t.Errorf("codes after appending Why I Stopped at the end = %v", got)
	}
}

// The tag that decided a document's kind says, on hover, what baton reads
// the document as and why: ordinary Markdown for an MDX page's component,
// a workflow for XMD's own construct. Elsewhere it says nothing.
func TestHoverKind(t *testing.T) {
	c := start(t)
	c.initialize(pushCaps(), "")
	mdx := uri.File(filepath.Join(t.TempDir(), "state.md"))
	c.open(mdx, "# State\n\n<Intro>\nState lets a component remember what the user typed.\n</Intro>\n")
	if got := c.hoverText(mdx, 2, 2); !strings.Contains(got, "ordinary Markdown") || !strings.Contains(got, "`<Intro>`") || !strings.Contains(got, "resolves to no component") {
		t.Errorf("hover on <Intro> = %q", got)
	}
	if got := c.hoverText(mdx, 3, 3); got != "" {
		t.Errorf("hover on the prose = %q, want none", got)
	}
	flow := uri.File(filepath.Join(t.TempDir(), "flow.md"))
	c.open(flow, "# Flow\n\n<If condition={ready}>\nGo.\n</If>\n")
	if got := c.hoverText(flow, 2, 2); !strings.Contains(got, "an XMD workflow") || !strings.Contains(got, "`<If>` is XMD's own construct") {
		t.Errorf("hover on <If> = %q", got)
	}
}
