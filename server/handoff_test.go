package server_test

import (
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/handoff/session"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Handoff documents checked against a real session store on disk: the
// server finds the session the document names, reads its ledger, watches
// its files, and answers hover, completion and code actions from it.

// ---- the session store ----

// hoCwd is the sessions' working directory. It need not exist: the ledger
// is never checked against the disk.
const hoCwd = "/home/dev/proj"

// hoEntry is one entry line of current.jsonl.
func hoEntry(kind, turn, parent, ts string, extra map[string]any) map[string]any {
	e := map[string]any{"kind": kind, "turnId": turn, "parentTurnId": nil, "timestamp": ts}
	if parent != "" {
		e["parentTurnId"] = parent
	}
	for k, v := range extra {
		e[k] = v
	}
	return e
}

func hoUser(turn, parent, ts, text string) map[string]any {
	return hoEntry("message", turn, parent, ts, map[string]any{"role": "user", "payload": map[string]any{"text": text}})
}

// hoToolCall is an assistant message with one toolCall content block.
func hoToolCall(turn, parent, ts, tool string, args map[string]any) map[string]any {
	return hoEntry("message", turn, parent, ts, map[string]any{"role": "assistant", "payload": map[string]any{
		"text": "", "content": []any{map[string]any{"type": "toolCall", "id": "call_" + turn, "name": tool, "arguments": args}},
	}})
}

func hoFileEntry(turn, parent, ts, path, op string) map[string]any {
	return hoEntry("fileEntry", turn, parent, ts, map[string]any{"path": path, "operation": op})
}

// hoBoard is a decisionLedger snapshot holding one active decision.
func hoBoard(turn, parent, ts, interview, key, label, value string) map[string]any {
	return hoEntry("decisionLedger", turn, parent, ts, map[string]any{
		"interviewId": interview, "interviewStatus": "complete", "startedAt": ts, "endedAt": ts, "roundCount": 1,
		"decisions": []any{map[string]any{"key": key, "value": value, "label": label, "source_question": "Which " + key + "?", "status": "active", "decidedAt": ts}},
	})
}

func hoLines(t *testing.T, entries []map[string]any) string {
	t.Helper()
	var b strings.Builder
	for _, e := range entries {
		data, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	return b.String()
}

// hoWriteSession writes <state>/sessions/<CwdHash(hoCwd)>/<id>/current.jsonl
// (a header, then the entries) and meta.json, and returns current.jsonl.
func hoWriteSession(t *testing.T, state, id string, entries ...map[string]any) string {
	t.Helper()
	dir := filepath.Join(state, "sessions", session.CwdHash(hoCwd), id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	header := map[string]any{"type": "session", "version": 3, "id": id, "timestamp": "2026-08-21T14:00:00.000Z", "cwd": hoCwd}
	file := filepath.Join(dir, "current.jsonl")
	if err := os.WriteFile(file, []byte(hoLines(t, append([]map[string]any{header}, entries...))), 0o644); err != nil {
		t.Fatal(err)
	}
	meta := `{"cwd": "` + hoCwd + `", "pinnedLeafTurnId": null}`
	if err := os.WriteFile(filepath.Join(dir, "meta.json"), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// hoAppend appends entries to current.jsonl in one write, as clio does.
func hoAppend(t *testing.T, file string, entries ...map[string]any) {
	t.Helper()
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(hoLines(t, entries)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// hoSession is the session most tests use. Lines (current.jsonl):
//
//	1 header
//	2 u1  user
//	3 a1  assistant: read src/a.go
//	4 a2  assistant: grep without a path (the ledger gets ".")
//	5 f1  fileEntry src/b.go (read)
//	6 a3  assistant: edit src/lib/util.go
//	7 d1  decisionLedger: Test runner = vitest
func hoSession(t *testing.T, state, id string) string {
	return hoWriteSession(t, state, id,
		hoUser("u1", "", "2026-08-21T14:01:00.000Z", "fix the eviction rules"),
		hoToolCall("a1", "u1", "2026-08-21T14:02:11.000Z", "read", map[string]any{"path": "src/a.go"}),
		hoToolCall("a2", "a1", "2026-08-21T14:03:00.000Z", "grep", map[string]any{"pattern": "evict"}),
		hoFileEntry("f1", "a2", "2026-08-21T14:03:30.000Z", "src/b.go", "read"),
		hoToolCall("a3", "a2", "2026-08-21T14:04:00.000Z", "edit", map[string]any{"path": "src/lib/util.go"}),
		hoBoard("d1", "u1", "2026-08-21T14:05:00.000Z", "int-7", "test_runner", "Test runner", "vitest"),
	)
}

// hoState makes a state folder and keeps the server's default state folders
// (clio's environment variables, XDG) away from the user's own sessions.
func hoState(t *testing.T) string {
	t.Helper()
	t.Setenv("CLIO_CODER_STATE_DIR", "")
	t.Setenv("CLIO_CODER_HOME", "")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	return t.TempDir()
}

// hoStart starts a push client whose server looks for sessions in state.
func hoStart(t *testing.T, state string) *client {
	t.Helper()
	opts, err := json.Marshal(map[string]any{"stateDir": state})
	if err != nil {
		t.Fatal(err)
	}
	c := start(t)
	c.initialize(pushCaps(), string(opts))
	return c
}

// ---- documents ----

const hoGoal = "finish the eviction rules for the cache"

// hoDoc is a handoff document carried from session id, with the given
// sections after the session line.
func hoDoc(id string, sections ...string) string {
	s := "# Handoff\n\n**Goal:** " + hoGoal + "\n\nCarried from session `" + id + "`.\n"
	for _, sec := range sections {
		s += "\n" + sec
	}
	return s
}

const hoFiles = "## Files\n\n- `src/a.go`: the parser entry point\n- `src/new.go`: where the new rules go\n"

// ---- helpers ----

func hoMessage(d protocol.Diagnostic) string {
	m, _ := d.Message.(protocol.String)
	return string(m)
}

// hoRangeOf is the UTF-16 range of the first occurrence of sub in text.
func hoRangeOf(text, sub string) protocol.Range {
	i := strings.Index(text, sub)
	if i < 0 {
		panic("no " + sub + " in the document")
	}
	lines := markdown.NewLineIndex(text)
	pos := func(off int) protocol.Position {
		p := lines.Position(off, markdown.UTF16)
		return protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}
	}
	return protocol.Range{Start: pos(i), End: pos(i + len(sub))}
}

// hoAction asks for the code actions of diagnostic d and returns the one
// titled title.
func hoAction(c *client, u uri.URI, d protocol.Diagnostic, title string) protocol.CodeAction {
	c.t.Helper()
	var out []protocol.CodeAction
	if err := c.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range:        d.Range,
		Context:      protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}},
	}, &out); err != nil {
		c.t.Fatalf("codeAction: %v", err)
	}
	var titles []string
	for _, a := range out {
		if a.Title == title {
			return a
		}
		titles = append(titles, a.Title)
	}
	c.t.Fatalf("no code action %q at %+v; got %q", title, d.Range, titles)
	return protocol.CodeAction{}
}

func applyTextEdits(t *testing.T, text string, edits []protocol.TextEdit, enc markdown.Encoding) string {
	t.Helper()
	lines := markdown.NewLineIndex(text)
	offset := func(p protocol.Position) int {
		off, exact := lines.Offset(markdown.Position{Line: int(p.Line), Character: int(p.Character)}, enc)
		if !exact {
			t.Fatalf("position %+v is not in the document %q", p, text)
		}
		return off
	}
	type span struct {
		start, end, order int
		newText           string
	}
	var spans []span
	for i, te := range edits {
		s, e := offset(te.Range.Start), offset(te.Range.End)
		if e < s {
			t.Fatalf("edit range %+v ends before it starts", te.Range)
		}
		spans = append(spans, span{s, e, i, te.NewText})
	}
	// Sorted by start; insertions at the same offset keep their order.
	slices.SortFunc(spans, func(a, b span) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.order, b.order))
	})
	for i := 1; i < len(spans); i++ {
		if spans[i].start < spans[i-1].end {
			t.Fatalf("edits overlap: %+v", edits)
		}
	}
	var b strings.Builder
	at := 0
	for _, s := range spans {
		b.WriteString(text[at:s.start])
		b.WriteString(s.newText)
		at = s.end
	}
	b.WriteString(text[at:])
	return b.String()
}

// hoRelint replaces the whole document, as an editor does after applying
// an edit, and waits for the diagnostics of that version.
func hoRelint(c *client, u uri.URI, v int32, text string) []protocol.Diagnostic {
	c.t.Helper()
	c.change(u, v, &protocol.TextDocumentContentChangeWholeDocument{Text: text})
	return c.waitPush(u, version(v)).Diagnostics
}

// ---- tests ----

// The headline: a path the session never touched is flagged, and when the
// session then touches it (clio appends a tool call to current.jsonl) the
// finding goes away by itself: no edit, no notification from the client.
func TestHandoffLedgerFollowsTheSession(t *testing.T) {
	state := hoState(t)
	const id = "k3x9m2p7q1wz"
	file := hoWriteSession(t, state, id,
		hoUser("u1", "", "2026-08-21T14:01:00.000Z", "fix the eviction rules"),
		hoToolCall("a1", "u1", "2026-08-21T14:02:11.000Z", "read", map[string]any{"path": "src/a.go"}),
		hoToolCall("a2", "a1", "2026-08-21T14:03:00.000Z", "ls", map[string]any{"path": "src"}),
	)
	c := hoStart(t, state)
	u := uri.URI("file:///ws/handoff.md")
	text := hoDoc(id, hoFiles)
	c.open(u, text)

	p := c.waitPush(u, version(1))
	if got := codes(p.Diagnostics); !slices.Equal(got, []string{"handoff/invented-path"}) {
		t.Fatalf("codes = %v, want only handoff/invented-path (for src/new.go); diagnostics %+v", got, p.Diagnostics)
	}
	d := p.Diagnostics[0]
	if want := hoRangeOf(text, "src/new.go"); d.Range != want {
		t.Errorf("invented-path range = %+v, want %+v (src/new.go)", d.Range, want)
	}
	if d.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("invented-path severity = %v, want error", d.Severity)
	}
	if msg := hoMessage(d); !strings.Contains(msg, "`src/new.go` was never touched by session "+id) || !strings.Contains(msg, "`src/a.go`") {
		t.Errorf("invented-path message = %q, want it to name src/new.go, the session and the nearest ledger path src/a.go", msg)
	}

	// The session reads src/new.go.
	hoAppend(t, file, hoToolCall("a3", "a2", "2026-08-21T14:06:00.000Z", "read", map[string]any{"path": "src/new.go"}))
	p = c.waitPush(u, func(p protocol.PublishDiagnosticsParams) bool {
		return len(withCode(p.Diagnostics, "handoff/invented-path")) == 0
	})
	if v, ok := p.Version.Get(); !ok || v != 1 {
		t.Errorf("re-lint after the session changed published version %v (%v), want 1: the document did not change", v, ok)
	}
	if len(p.Diagnostics) != 0 {
		t.Errorf("diagnostics after the session read src/new.go = %+v, want none", p.Diagnostics)
	}
	// What the server now holds agrees: hover shows the new evidence.
	if h := c.hoverAtPos(u, hoRangeOf(text, "src/new.go").Start); !strings.Contains(h, "read by `read`, turn a3, 14:06:00, current.jsonl line 5") {
		t.Errorf("hover on src/new.go after the append = %q, want the evidence of line 5", h)
	}
}

// A document naming a session that is nowhere: one info finding that says
// where the server looked, and no path is called invented.
func TestHandoffLedgerUnavailable(t *testing.T) {
	state := hoState(t)
	hoSession(t, state, "k3x9m2p7q1wz") // another session: the store is there
	const id = "nosuchsession"
	c := hoStart(t, state)
	u := uri.URI("file:///ws/handoff.md")
	text := hoDoc(id, hoFiles)
	c.open(u, text)

	p := c.waitPush(u, version(1))
	if got := codes(p.Diagnostics); !slices.Equal(got, []string{"handoff/ledger-unavailable"}) {
		t.Fatalf("codes = %v, want exactly one handoff/ledger-unavailable and no invented-path; diagnostics %+v", got, p.Diagnostics)
	}
	d := p.Diagnostics[0]
	if d.Severity != protocol.DiagnosticSeverityInformation {
		t.Errorf("severity = %v, want information", d.Severity)
	}
	if want := hoRangeOf(text, "Carried from session `"+id+"`."); d.Range != want {
		t.Errorf("range = %+v, want the session line %+v", d.Range, want)
	}
	msg := hoMessage(d)
	if looked := filepath.Join(state, "sessions", "*", id); !strings.Contains(msg, looked) {
		t.Errorf("message = %q, want it to say it looked in %s", msg, looked)
	}
	if !strings.Contains(msg, id) {
		t.Errorf("message = %q, want it to name session %s", msg, id)
	}
	// Hover on a path says the ledger could not be read, not that the
	// session never touched it.
	h := c.hoverAtPos(u, hoRangeOf(text, "src/new.go").Start)
	if !strings.Contains(h, "could not be read") || strings.Contains(h, "never touched") {
		t.Errorf("hover on a path without a ledger = %q", h)
	}
}

func TestHandoffHover(t *testing.T) {
	state := hoState(t)
	const id = "k3x9m2p7q1wz"
	hoSession(t, state, id)
	c := hoStart(t, state)
	u := uri.URI("file:///ws/handoff.md")
	text := hoDoc(id, hoFiles)
	c.open(u, text)
	p := c.waitPush(u, version(1))
	if got := codes(p.Diagnostics); !slices.Equal(got, []string{"handoff/invented-path"}) {
		t.Fatalf("codes = %v, want only handoff/invented-path", got)
	}

	// A path in the ledger: its evidence.
	h := c.hoverAtPos(u, hoRangeOf(text, "src/a.go").Start)
	if !strings.Contains(h, "`src/a.go` is in session "+id+"'s read ledger") ||
		!strings.Contains(h, "read by `read`, turn a1, 14:02:11, current.jsonl line 3") {
		t.Errorf("hover on src/a.go = %q, want its evidence: read by `read`, turn a1, 14:02:11, current.jsonl line 3", h)
	}
	// The end of the path hovers too.
	if h2 := c.hoverAtPos(u, hoRangeOf(text, "src/a.go").End); h2 != h {
		t.Errorf("hover at the end of src/a.go = %q, want the same as at its start", h2)
	}

	// An invented path: never touched, and the nearest ledger paths, which
	// are the ones the diagnostic names ("." from a grep without a path is
	// no answer to a misspelled file, in either).
	h = c.hoverAtPos(u, protocol.Position{Line: hoRangeOf(text, "src/new.go").Start.Line, Character: hoRangeOf(text, "src/new.go").Start.Character + 4})
	if !strings.Contains(h, "never touched by session "+id) {
		t.Errorf("hover on src/new.go = %q, want never touched by session %s", h, id)
	}
	if !strings.Contains(h, "Nearest paths in its ledger: `src/a.go`, `src/b.go`, `src/lib/util.go`.") {
		t.Errorf("hover on src/new.go = %q, want the nearest ledger paths `src/a.go`, `src/b.go`, `src/lib/util.go` (as the diagnostic lists them)", h)
	}
	if diag := hoMessage(p.Diagnostics[0]); !strings.Contains(diag, "(nearest: `src/a.go`, `src/b.go`, `src/lib/util.go`)") {
		t.Errorf("invented-path message = %q", diag)
	}

	// The goal line: the gate.
	goal := hoRangeOf(text, "**Goal:** "+hoGoal)
	h = c.hoverAtPos(u, protocol.Position{Line: goal.Start.Line, Character: 3})
	for _, want := range []string{"**Goal** (39 characters)", "continue, keep going, same, next, go on, proceed, resume", "at least 12 characters"} {
		if !strings.Contains(h, want) {
			t.Errorf("hover on the goal = %q, want %q in it", h, want)
		}
	}
	if strings.Contains(h, "refused") {
		t.Errorf("hover on an accepted goal = %q, says refused", h)
	}

	// A section heading: its bound.
	files := hoRangeOf(text, "## Files")
	h = c.hoverAtPos(u, protocol.Position{Line: files.Start.Line, Character: 4})
	for _, want := range []string{"**Files**: at most 48 files", "this section has 2", "at most 512 bytes", "…[truncated]"} {
		if !strings.Contains(h, want) {
			t.Errorf("hover on ## Files = %q, want %q in it", h, want)
		}
	}

	// A blank line has nothing to say.
	if h := c.hoverAtPos(u, protocol.Position{Line: 1}); h != "" {
		t.Errorf("hover on a blank line = %q, want none", h)
	}

	// A goal the gate refuses says why.
	bad := strings.Replace(text, hoGoal, "keep going", 1)
	c.change(u, 2, &protocol.TextDocumentContentChangeWholeDocument{Text: bad})
	c.waitPush(u, version(2))
	h = c.hoverAtPos(u, protocol.Position{Line: goal.Start.Line, Character: 12})
	if !strings.Contains(h, "(10 characters)") || !strings.Contains(h, "refused (stoplist)") {
		t.Errorf("hover on a refused goal = %q, want its length and refused (stoplist)", h)
	}

	// A short invented name is closer to "." (the grep without a path) than
	// to any file; "." is still no answer to a misspelled file, and hover
	// lists what the diagnostic lists.
	short := strings.Replace(text, "src/new.go", "x.go", 1)
	inv := withCode(hoRelint(c, u, 3, short), "handoff/invented-path")
	if len(inv) != 1 || !strings.Contains(hoMessage(inv[0]), "(nearest: `src/a.go`, `src/b.go`, `src/lib/util.go`)") {
		t.Fatalf("invented-path for x.go = %+v", inv)
	}
	h = c.hoverAtPos(u, hoRangeOf(short, "x.go").Start)
	if !strings.Contains(h, "Nearest paths in its ledger: `src/a.go`, `src/b.go`, `src/lib/util.go`.") {
		t.Errorf("hover on x.go = %q, want the nearest paths the diagnostic names: `src/a.go`, `src/b.go`, `src/lib/util.go` (not `.`)", h)
	}
}

func TestHandoffCompletePaths(t *testing.T) {
	state := hoState(t)
	const id = "k3x9m2p7q1wz"
	hoSession(t, state, id)
	c := hoStart(t, state)
	u := uri.URI("file:///ws/handoff.md")
	text := hoDoc(id,
		"## Files\n\n- `src/a.go`: the parser entry point\n- `\n",
		"## Commands\n\n- `\n",
	)
	c.open(u, text)
	c.waitPush(u, version(1))

	filesLine := hoRangeOf(text, "- `\n").Start.Line
	items := c.completionsAt(u, protocol.Position{Line: filesLine, Character: 3})
	var labels []string
	for _, it := range items {
		labels = append(labels, it.Label)
	}
	// Not src/a.go (listed), not "." (grep without a path).
	if want := []string{"src/b.go", "src/lib/util.go"}; !slices.Equal(labels, want) {
		t.Fatalf("completion after \"- `\" in ## Files = %q, want %q", labels, want)
	}
	for _, it := range items {
		te, ok := it.TextEdit.(*protocol.TextEdit)
		if !ok {
			t.Fatalf("item %q: text edit = %#v, want a TextEdit", it.Label, it.TextEdit)
		}
		at := protocol.Position{Line: filesLine, Character: 3}
		if te.Range != (protocol.Range{Start: at, End: at}) {
			t.Errorf("item %q: edit range = %+v, want the cursor", it.Label, te.Range)
		}
		got := applyTextEdits(t, text, []protocol.TextEdit{*te}, markdown.UTF16)
		line := strings.Split(got, "\n")[filesLine]
		if want := "- `" + it.Label + "`: "; line != want {
			t.Errorf("item %q: the line after the edit = %q, want %q (path completed, backtick closed)", it.Label, line, want)
		}
	}

	// With part of the path typed, the edit replaces what was typed.
	typed := strings.Replace(text, "point\n- `\n", "point\n- `src/li\n", 1)
	c.change(u, 2, &protocol.TextDocumentContentChangeWholeDocument{Text: typed})
	c.waitPush(u, version(2))
	items = c.completionsAt(u, protocol.Position{Line: filesLine, Character: 9})
	i := slices.IndexFunc(items, func(it protocol.CompletionItem) bool { return it.Label == "src/lib/util.go" })
	if i < 0 {
		t.Fatalf("completion after \"- `src/li\" = %+v, want src/lib/util.go among them", items)
	}
	te, _ := items[i].TextEdit.(*protocol.TextEdit)
	if te == nil {
		t.Fatalf("src/lib/util.go: no text edit")
	}
	got := applyTextEdits(t, typed, []protocol.TextEdit{*te}, markdown.UTF16)
	if line := strings.Split(got, "\n")[filesLine]; line != "- `src/lib/util.go`: " {
		t.Errorf("after completing \"- `src/li\": %q, want %q", line, "- `src/lib/util.go`: ")
	}

	// Under ## Commands a backtick starts an argv, not a path.
	cmdLine := uint32(strings.Count(typed[:strings.Index(typed, "## Commands")], "\n")) + 2
	for _, it := range c.completionsAt(u, protocol.Position{Line: cmdLine, Character: 3}) {
		if it.Kind == protocol.CompletionItemKindFile {
			t.Errorf("completion under ## Commands offers the path %q", it.Label)
		}
	}
}

// On the last line of a document with no final newline, after "- `" at
// its very end, the paths are offered as on any other line.
func TestHandoffCompletePathsLastLineNoNewline(t *testing.T) {
	state := hoState(t)
	const id = "k3x9m2p7q1wz"
	hoSession(t, state, id)
	c := hoStart(t, state)
	u := uri.URI("file:///ws/handoff.md")
	text := hoDoc(id, "## Files\n\n- `src/a.go`: the parser entry point\n- `")
	c.open(u, text)
	c.waitPush(u, version(1))
	last := uint32(strings.Count(text, "\n"))
	var labels []string
	for _, it := range c.completionsAt(u, protocol.Position{Line: last, Character: 3}) {
		labels = append(labels, it.Label)
	}
	if want := []string{"src/b.go", "src/lib/util.go"}; !slices.Equal(labels, want) {
		t.Fatalf("completion at the end of a last line without a newline = %q, want %q", labels, want)
	}
}

// Each ledger fix, applied as the client would and re-linted: the finding
// it fixes is gone from the publish of the new version, and nothing new
// appears. Positions are UTF-16: the dropped item ends with an emoji, so
// an edit after it lands in the wrong place if counted in bytes.
func TestHandoffLedgerFixes(t *testing.T) {
	state := hoState(t)
	const id = "k3x9m2p7q1wz"
	hoSession(t, state, id)
	c := hoStart(t, state)
	u := uri.URI("file:///ws/handoff.md")
	text := hoDoc(id,
		"## Decisions\n\n- Test runner: jest _(settled)_\n  Which test_runner?\n",
		hoFiles,
		"### dropped (not in this session's read ledger)\n\n- `./src/b.go`: the helpers 😀\n",
	)
	c.open(u, text)
	p := c.waitPush(u, version(1))
	want := []string{"handoff/settled-mismatch", "handoff/invented-path", "handoff/restorable-path"}
	if got := codes(p.Diagnostics); !slices.Equal(got, want) {
		t.Fatalf("codes = %v, want %v; diagnostics %+v", got, want, p.Diagnostics)
	}
	diags := p.Diagnostics

	// 1. Move the invented path to the dropped section.
	inv := withCode(diags, "handoff/invented-path")[0]
	a := hoAction(c, u, inv, "Move it to \"### dropped (not in this session's read ledger)\"")
	text = applyEdit(t, text, u, a.Edit, markdown.UTF16)
	wantText := hoDoc(id,
		"## Decisions\n\n- Test runner: jest _(settled)_\n  Which test_runner?\n",
		"## Files\n\n- `src/a.go`: the parser entry point\n",
		"### dropped (not in this session's read ledger)\n\n- `./src/b.go`: the helpers 😀\n- `src/new.go`: where the new rules go\n",
	)
	if text != wantText {
		t.Errorf("after moving src/new.go:\n%s\nwant:\n%s", text, wantText)
	}
	diags = hoRelint(c, u, 2, text)
	if got := codes(diags); !slices.Equal(got, []string{"handoff/settled-mismatch", "handoff/restorable-path"}) {
		t.Fatalf("codes after moving the invented path = %v, want settled-mismatch and restorable-path only", got)
	}

	// 2. Set the settled decision to the board's value.
	sm := withCode(diags, "handoff/settled-mismatch")[0]
	if msg := hoMessage(sm); !strings.Contains(msg, `board says "vitest" for "Test runner", not "jest"`) {
		t.Errorf("settled-mismatch message = %q", msg)
	}
	if want := hoRangeOf(text, "Test runner: jest"); sm.Range != want {
		t.Errorf("settled-mismatch range = %+v, want the summary %+v", sm.Range, want)
	}
	a = hoAction(c, u, sm, "Set it to the board's value: vitest")
	if a.IsPreferred == nil || !*a.IsPreferred {
		t.Errorf("the board-value fix is not preferred (it is the one safe fix)")
	}
	text = applyEdit(t, text, u, a.Edit, markdown.UTF16)
	if !strings.Contains(text, "\n- Test runner: vitest _(settled)_\n  Which test_runner?\n") {
		t.Errorf("after setting the board's value:\n%s", text)
	}
	diags = hoRelint(c, u, 3, text)
	if got := codes(diags); !slices.Equal(got, []string{"handoff/restorable-path"}) {
		t.Fatalf("codes after setting the board's value = %v, want restorable-path only", got)
	}

	// 3. A dropped path the ledger holds (./src/b.go is src/b.go, from a
	// fileEntry): info, and its fix moves it back under ## Files in its
	// normalized form.
	rp := diags[0]
	if rp.Severity != protocol.DiagnosticSeverityInformation {
		t.Errorf("restorable-path severity = %v, want information", rp.Severity)
	}
	if want := hoRangeOf(text, "./src/b.go"); rp.Range != want {
		t.Errorf("restorable-path range = %+v, want %+v", rp.Range, want)
	}
	if msg := hoMessage(rp); !strings.Contains(msg, "(as `src/b.go`)") {
		t.Errorf("restorable-path message = %q, want its normalized form", msg)
	}
	a = hoAction(c, u, rp, "Move it back under \"## Files\"")
	text = applyEdit(t, text, u, a.Edit, markdown.UTF16)
	wantText = hoDoc(id,
		"## Decisions\n\n- Test runner: vitest _(settled)_\n  Which test_runner?\n",
		"## Files\n\n- `src/a.go`: the parser entry point\n- `src/b.go`: the helpers 😀\n",
		"### dropped (not in this session's read ledger)\n\n- `src/new.go`: where the new rules go\n",
	)
	if text != wantText {
		t.Errorf("after moving src/b.go back:\n%s\nwant:\n%s", text, wantText)
	}
	if diags = hoRelint(c, u, 4, text); len(diags) != 0 {
		t.Errorf("diagnostics after every fix = %+v, want none", diags)
	}
}

// The edit helper counts UTF-16 code units by default, bytes when told.
func TestApplyWorkspaceEditEncodings(t *testing.T) {
	u := uri.URI("file:///ws/x.md")
	text := "a😀b\nsecond\n"
	edit := func(ch uint32) *protocol.WorkspaceEdit {
		at := protocol.Position{Line: 0, Character: ch}
		return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{u: {
			{Range: protocol.Range{Start: at, End: at}, NewText: "|"},
			{Range: protocol.Range{Start: protocol.Position{Line: 1}, End: protocol.Position{Line: 1, Character: 6}}, NewText: "2nd"},
		}}}
	}
	if got := applyEdit(t, text, u, edit(3), markdown.UTF16); got != "a😀|b\n2nd\n" {
		t.Errorf("UTF-16 column 3 = %q", got)
	}
	if got := applyEdit(t, text, u, edit(5), markdown.UTF8); got != "a😀|b\n2nd\n" {
		t.Errorf("UTF-8 column 5 = %q", got)
	}
}
