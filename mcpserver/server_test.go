package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/baton-md/baton/markdown"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/baton-md/baton/engine/enginetest"
)

// connect starts s on one end of a pair of pipes, on the transport `baton
// mcp` uses, and a client of the SDK on the other.
func connect(t *testing.T, s *Server) (*mcp.ClientSession, *mcp.ServerSession) {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ctx := context.Background()
	ss, err := s.MCP().Connect(ctx, &Transport{Reader: sr, Writer: sw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw, MaxLineLength: MaxFrameBytes}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs, ss
}

func newServer(t *testing.T, root string) *Server {
	t.Helper()
	s, err := New(Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// call calls a tool and decodes its structured result into out; it fails
// the test on a protocol error, and returns the result.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if out != nil {
		reflect.ValueOf(out).Elem().SetZero()
	}
	if out != nil && !res.IsError {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: structured content: %v\n%s", name, err, b)
		}
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// wantToolError checks that res is a tool error (not a protocol error: the
// model reads it) saying each of want.
func wantToolError(t *testing.T, res *mcp.CallToolResult, want ...string) {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want a tool error, got a result: %s", text(res))
	}
	for _, w := range want {
		if !strings.Contains(text(res), w) {
			t.Errorf("the error %q does not say %q", text(res), w)
		}
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

const (
	fullPacket = "## What I Just Did\n\nMoved the retry cap into the client.\n\n## Why I Stopped\n\nThe change is done.\n\n" +
		"## What Needs Your Review\n\nNothing.\n\n## What Happens Next\n\nNothing: the task is complete.\n\n## What I Need From You\n\nNothing now; review the change when you next look.\n"
	// brokenPacket is a boundary packet (it has Discussion Prompts) missing
	// What Happens Next and What I Need From You: two errors, on line 13.
	brokenPacket = "## What I Just Did\n\nMoved the retry cap into the client.\n\n## Why I Stopped\n\nThe change is done.\n\n## What Needs Your Review\n\nNothing.\n\n" +
		"## Discussion Prompts\n\n1. Because the cap changes every retry, should it be 60 seconds? Recommended default: yes.\n"
	// sixPacket is the boundary packet, its verdict marker to follow.
	sixPacket = "## What I Just Did\n\nClosed the iteration: every task is done and reviewed.\n\n## Why I Stopped\n\nThe iteration closeout boundary.\n\n" +
		"## What Needs Your Review\n\nApprove closing the feature.\n\n## What Happens Next\n\nThe feature closeout, once approved.\n\n" +
		"## Discussion Prompts\n\n1. Because the feature is closed once approved, should anything stay open? Recommended default: close it.\n\n## What I Need From You\n\nReply \"approved\" to close the feature, or name what to change.\n"
)

// Every tool is listed with a description for a model, and an input and
// an output schema of type object.
func TestToolsListed(t *testing.T) {
	cs, _ := connect(t, newServer(t, t.TempDir()))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if len(tool.Description) < 100 {
			t.Errorf("%s: description %q is too short to tell a model when to call it", tool.Name, tool.Description)
		}
		for what, sc := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			m, _ := sc.(map[string]any)
			if m["type"] != "object" {
				t.Errorf("%s: %s schema %v, want an object schema", tool.Name, what, sc)
			}
		}
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s: not annotated read-only", tool.Name)
		}
	}
	slices.Sort(names)
	if want := []string{ToolCheckDocument, ToolHandoffFiles, ToolCheckStop, ToolExplainRule}; !slices.Equal(names, want) {
		t.Errorf("tools %q, want %q", names, want)
	}
}

// check_stop on a packet missing two sections: not ready, a todo item
// and a blocking finding for each, with lines and fixes; the full packet
// is ready, a real stop for specrew's default reason.
func TestCheckStop(t *testing.T) {
	cs, _ := connect(t, newServer(t, t.TempDir()))
	var out StopOutput
	res := call(t, cs, ToolCheckStop, map[string]any{"message": brokenPacket}, &out)
	if res.IsError || out.Ready || out.Blocking != 2 || len(out.Todo) != 2 {
		t.Fatalf("broken packet: ready %v, %d blocking, todo %q\n%s", out.Ready, out.Blocking, out.Todo, text(res))
	}
	blocking := 0
	for _, f := range out.Findings {
		if !f.BlocksStop {
			continue
		}
		blocking++
		if f.Rule != "packet/missing-section" || f.Line != 13 || len(f.Fixes) == 0 {
			t.Errorf("finding %+v", f)
		}
	}
	if blocking != 2 {
		t.Errorf("%d blocking findings, want 2: %+v", blocking, out.Findings)
	}
	if !strings.Contains(text(res), "not ready") || !strings.Contains(text(res), "What I Need From You") {
		t.Errorf("the text a model reads does not say what to do:\n%s", text(res))
	}
	if out.Specrew != nil {
		t.Errorf("outside a specrew project, specrew %+v", out.Specrew)
	}

	res = call(t, cs, ToolCheckStop, map[string]any{"message": fullPacket}, &out)
	if !out.Ready || len(out.Findings) != 0 || len(out.Todo) != 0 || !out.PacketPresent {
		t.Fatalf("full packet: %+v\n%s", out, text(res))
	}
	if out.StopIntent.Outcome != "real" || out.StopIntent.Reason == "" {
		t.Errorf("stop intent %+v, want real with a reason", out.StopIntent)
	}
}

// Outside a specrew project the classifier leaves inputs open (classify
// says "undetermined"); check_stop settles them as the hook does, so an
// agent always reads the outcome its stop will have.
func TestCheckStopOutcomeIsSettled(t *testing.T) {
	cs, _ := connect(t, newServer(t, t.TempDir()))
	for _, m := range []string{"I updated the provider and tests. Stopping here.\n", fullPacket} {
		var out StopOutput
		res := call(t, cs, ToolCheckStop, map[string]any{"message": m}, &out)
		if out.StopIntent.Outcome != "real" || out.StopIntent.Reason == "" {
			t.Errorf("%.30q: stop intent %+v, want real with its reason\n%s", m, out.StopIntent, text(res))
		}
	}
}

// changed_files stands for material work: a plain message then owes the
// packet; an intermediate stop does not.
func TestCheckStopChangedFiles(t *testing.T) {
	cs, _ := connect(t, newServer(t, t.TempDir()))
	var out StopOutput
	call(t, cs, ToolCheckStop, map[string]any{"message": "I changed the parser. Done.", "changed_files": true}, &out)
	if out.Ready || len(out.Todo) != 1 || !strings.Contains(out.Todo[0], "five-part packet") {
		t.Errorf("a plain message after changes: ready %v, todo %q", out.Ready, out.Todo)
	}
	call(t, cs, ToolCheckStop, map[string]any{"message": "I changed the parser. Done."}, &out)
	if !out.Ready {
		t.Errorf("the same message without changes: not ready: %q", out.Todo)
	}
	call(t, cs, ToolCheckStop, map[string]any{"message": fullPacket, "changed_files": true}, &out)
	if !out.Ready {
		t.Errorf("the packet after changes: not ready: %q", out.Todo)
	}
}

// In a specrew project with a crossing pending, a message without its
// verdict marker is not ready, and the todo names the exact marker; the
// packet ending with it is ready. The state comes from the folder the
// agent works in (cwd), found above it.
func TestCheckStopSpecrewCrossing(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "app", ".specrew", "start-context.json"),
		`{"schema":"v2","session_state":{"boundary_type":"feature-closeout"},"boundary_enforcement":{"enabled":true,"last_authorized_boundary":"iteration-closeout","pending_next_boundary":null,"verdict_history":[],"bypass_history":[]}}`)
	if err := os.MkdirAll(filepath.Join(root, "app", "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, newServer(t, root))
	const marker = "<!-- SPECREW-VERDICT-BOUNDARY: iteration-closeout -> feature-closeout -->"
	var out StopOutput
	res := call(t, cs, ToolCheckStop, map[string]any{"message": sixPacket, "cwd": "app/src"}, &out)
	if out.Specrew == nil || out.Specrew.Crossing == nil {
		t.Fatalf("no crossing: %s", text(res))
	}
	c := out.Specrew.Crossing
	if c.Marker != marker || c.Carried || out.Ready || out.Specrew.BoundaryPending != "true" {
		t.Errorf("crossing %+v, ready %v", c, out.Ready)
	}
	if len(out.Todo) != 1 || !strings.Contains(out.Todo[0], marker) || !strings.Contains(out.Todo[0], "Discussion Prompts") {
		t.Errorf("todo %q does not ask for the six sections and the marker", out.Todo)
	}
	if out.StopIntent.Outcome != "real" || !strings.Contains(out.StopIntent.Reason, "boundary is pending") {
		t.Errorf("stop intent %+v", out.StopIntent)
	}
	res = call(t, cs, ToolCheckStop, map[string]any{"message": sixPacket + "\n" + marker + "\n", "cwd": "app/src"}, &out)
	if !out.Ready || !out.Specrew.Crossing.Carried {
		t.Errorf("with the marker: ready %v, todo %q\n%s", out.Ready, out.Todo, text(res))
	}
	// From the workspace root, the specrew project below is not the
	// message's: nothing is pending there.
	call(t, cs, ToolCheckStop, map[string]any{"message": fullPacket}, &out)
	if out.Specrew != nil || !out.Ready {
		t.Errorf("from the root: specrew %+v, ready %v", out.Specrew, out.Ready)
	}
}

// check_document by path, by text and by text at a path: the kind, the
// findings as check reports them, the .baton.yaml of the path's folder, and
// the text with the safe fixes applied.
func TestCheckDocument(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "stop.md"), brokenPacket)
	write(t, filepath.Join(root, "quiet", ".baton.yaml"), "rules:\n  packet/missing-section: off\n")
	cs, _ := connect(t, newServer(t, root))

	var out DocumentOutput
	res := call(t, cs, ToolCheckDocument, map[string]any{"path": "stop.md"}, &out)
	if out.Kind != "packet" || out.Errors != 2 || out.Path != "stop.md" || len(out.Findings) != 2 {
		t.Errorf("by path: %+v\n%s", out, text(res))
	}
	call(t, cs, ToolCheckDocument, map[string]any{"path": filepath.Join(root, "stop.md")}, &out)
	if out.Errors != 2 {
		t.Errorf("by absolute path: %+v", out)
	}
	call(t, cs, ToolCheckDocument, map[string]any{"text": brokenPacket}, &out)
	if out.Errors != 2 || out.Path != "untitled.md" {
		t.Errorf("by text: %+v", out)
	}
	call(t, cs, ToolCheckDocument, map[string]any{"text": brokenPacket, "path": "quiet/stop.md"}, &out)
	if out.Errors != 0 {
		t.Errorf("text at a path whose .baton.yaml turns the rule off: %+v", out)
	}
	// A heading level the safe fix corrects.
	call(t, cs, ToolCheckDocument, map[string]any{"text": "### What I Just Did\n\nX.\n\n" + strings.SplitN(fullPacket, "\n\n", 3)[2]}, &out)
	if !strings.HasPrefix(out.FixedText, "## What I Just Did\n") {
		t.Errorf("fixed_text %q, want the heading fixed; findings %+v", out.FixedText, out.Findings)
	}
	// Past 1 MiB the same fix is a finding's edit, and no fixed text is
	// made: it would not fit an agent's context.
	big := "### What I Just Did\n\n" + strings.Repeat("Work done, and said at length.\n", maxFixedText/31+1) + "\n" + strings.SplitN(fullPacket, "\n\n", 3)[2]
	out = DocumentOutput{}
	call(t, cs, ToolCheckDocument, map[string]any{"text": big}, &out)
	if out.FixedText != "" || len(out.Findings) == 0 || len(out.Findings[0].Fixes) == 0 {
		t.Errorf("a document over 1 MiB: fixed_text of %d bytes, findings %+v; want none, and the fix as an edit", len(out.FixedText), out.Findings)
	}
	call(t, cs, ToolCheckDocument, map[string]any{"text": "# Notes\n\nNothing of baton's.\n"}, &out)
	if out.Kind != "other" || len(out.Findings) != 0 || out.Findings == nil {
		t.Errorf("ordinary Markdown: %+v", out)
	}
}

// A workflow is checked in its workspace: a checkpoint component that
// returns no decision is reported (workflow/checkpoint-without-decision).
func TestCheckDocumentWorkflow(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, ".baton.yaml"), "")
	cs, _ := connect(t, newServer(t, root))
	var out DocumentOutput
	component := "---\nprops:\n  purpose: { type: string }\nreturns:\n  approved: { type: boolean }\n---\n\n<Return value={{ approved: true }} />\n"
	res := call(t, cs, ToolCheckDocument, map[string]any{"text": component, "path": "components/ReviewCheckpoint.md"}, &out)
	if res.IsError || out.Kind != "workflow" || len(out.Findings) != 1 || out.Findings[0].Rule != "workflow/checkpoint-without-decision" || out.Findings[0].Line != 4 {
		t.Fatalf("%+v\n%s", out, text(res))
	}
}

// Bad input is a tool error a model can act on: schema violations (a
// wrong type, a missing or empty message, an unknown host, an unknown
// argument), a missing file, a folder, neither path nor text.
func TestBadInput(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, newServer(t, root))
	for _, tt := range []struct {
		tool string
		args map[string]any
		want []string
	}{
		{ToolCheckStop, map[string]any{"message": 5}, []string{"message"}},
		{ToolCheckStop, map[string]any{}, []string{"message"}},
		{ToolCheckStop, map[string]any{"message": ""}, []string{"message"}},
		{ToolCheckStop, map[string]any{"message": "   \n"}, []string{"message", "empty"}},
		{ToolCheckStop, map[string]any{"message": "done", "host": "vim", "session_id": "x"}, []string{"host"}},
		{ToolCheckStop, map[string]any{"message": "done", "host": "claude"}, []string{"session_id"}},
		{ToolCheckStop, map[string]any{"message": "done", "colour": "red"}, []string{"colour"}},
		{ToolCheckStop, map[string]any{"message": "done", "cwd": "/"}, []string{"outside the workspace"}},
		{ToolCheckStop, map[string]any{"message": "done", "cwd": "nowhere"}, []string{"not a folder"}},
		{ToolCheckDocument, map[string]any{}, []string{`"path"`, `"text"`}},
		{ToolCheckDocument, map[string]any{"path": "missing.md"}, []string{"no file at missing.md"}},
		{ToolCheckDocument, map[string]any{"path": "dir"}, []string{"folder"}},
		{ToolCheckDocument, map[string]any{"path": "a\x00b"}, []string{"NUL"}},
		{ToolHandoffFiles, map[string]any{"text": fullPacket}, []string{"not a handoff"}},
		{ToolHandoffFiles, map[string]any{"text": "# Handoff\n\n**Goal:** finish it\n\n## Files\n\n- `a.go`: why\n"}, []string{"names no session"}},
		{ToolHandoffFiles, map[string]any{"text": "# Handoff 2026-07-13\n\n```clio-task-memory\n{\"version\":1,\"knowledge\":[],\"procedural\":[]}\n```\n"}, []string{"clio-task-memory snapshot", ToolCheckDocument}},
		{ToolExplainRule, map[string]any{"rule": "missing-sektion"}, []string{"no rule"}},
		{ToolExplainRule, map[string]any{"rule": "missing-section"}, []string{"did you mean packet/missing-section"}},
	} {
		t.Run(fmt.Sprintf("%s %v", tt.tool, tt.args), func(t *testing.T) {
			wantToolError(t, call(t, cs, tt.tool, tt.args, nil), tt.want...)
		})
	}
	// After all that, the server answers.
	var out StopOutput
	call(t, cs, ToolCheckStop, map[string]any{"message": fullPacket}, &out)
	if !out.Ready {
		t.Errorf("the server does not answer well after bad input: %+v", out)
	}
}

// Paths outside the workspace are refused, by .., by an absolute path, and
// through a link inside it that leads out; a text may be placed at a path
// inside that does not exist yet.
func TestPathOutsideWorkspace(t *testing.T) {
	outside := t.TempDir()
	write(t, filepath.Join(outside, "secret.md"), brokenPacket)
	root := t.TempDir()
	symlinkOrSkip(t, outside, filepath.Join(root, "link"))
	symlinkOrSkip(t, filepath.Join("..", filepath.Base(outside)), filepath.Join(root, "rel-link"))
	symlinkOrSkip(t, filepath.Join(outside, "secret.md"), filepath.Join(root, "secret.md"))
	cs, _ := connect(t, newServer(t, root))
	for _, p := range []string{"../" + filepath.Base(outside) + "/secret.md", filepath.Join(outside, "secret.md"), "link/secret.md", "rel-link/secret.md", "secret.md", "/etc/passwd"} {
		for _, tool := range []string{ToolCheckDocument, ToolHandoffFiles} {
			res := call(t, cs, tool, map[string]any{"path": p}, nil)
			wantToolError(t, res, "outside the workspace")
			if strings.Contains(text(res), "What I Just Did") {
				t.Errorf("%s %s: the refusal shows the file's text", tool, p)
			}
		}
		wantToolError(t, call(t, cs, ToolCheckDocument, map[string]any{"path": p, "text": "x"}, nil), "outside the workspace")
	}
	var out DocumentOutput
	if res := call(t, cs, ToolCheckDocument, map[string]any{"path": "new/folder/stop.md", "text": brokenPacket}, &out); res.IsError || out.Errors != 2 {
		t.Errorf("a text at a new path inside: %s", text(res))
	}
}

// A 16 MiB input is bounded as baton bounds a file: a text of exactly
// MaxDocumentBytes is analysed; one byte more gets baton/document-too-large
// alone, in check_document and in check_stop (which then is not ready: an
// unchecked message is no stop message); a file over it is not read. The
// server goes on answering.
func TestLargeInput(t *testing.T) {
	if testing.Short() {
		t.Skip("16 MiB analyses")
	}
	root := t.TempDir()
	cs, _ := connect(t, newServer(t, root))
	line := "Plain prose, and nothing of baton's.\n"
	exact := strings.Repeat(line, markdown.MaxDocumentBytes/len(line))
	exact += strings.Repeat("x", markdown.MaxDocumentBytes-len(exact))
	var out DocumentOutput
	res := call(t, cs, ToolCheckDocument, map[string]any{"text": exact}, &out)
	if res.IsError || slices.ContainsFunc(out.Findings, func(f Finding) bool { return f.Rule == "baton/document-too-large" }) {
		t.Errorf("16 MiB exactly: %s", text(res))
	}
	over := exact + "y"
	res = call(t, cs, ToolCheckDocument, map[string]any{"text": over}, &out)
	if res.IsError || len(out.Findings) != 1 || out.Findings[0].Rule != "baton/document-too-large" {
		t.Errorf("16 MiB and a byte: %+v\n%s", out, text(res))
	}
	var stop StopOutput
	res = call(t, cs, ToolCheckStop, map[string]any{"message": over}, &stop)
	if res.IsError || stop.Ready || len(stop.Findings) != 1 || stop.Findings[0].Rule != "baton/document-too-large" {
		t.Errorf("check_stop, 16 MiB and a byte: ready %v, %+v", stop.Ready, stop.Findings)
	}
	write(t, filepath.Join(root, "big.md"), over)
	res = call(t, cs, ToolCheckDocument, map[string]any{"path": "big.md"}, &out)
	if res.IsError || len(out.Findings) != 1 || out.Findings[0].Rule != "baton/document-too-large" {
		t.Errorf("a file over the bound: %+v\n%s", out, text(res))
	}
	call(t, cs, ToolCheckStop, map[string]any{"message": fullPacket}, &stop)
	if !stop.Ready {
		t.Errorf("after the large inputs: %+v", stop)
	}
}

// Cancelling a call answers it at once, ends the handler's context, and
// leaves the server answering.
func TestCancellation(t *testing.T) {
	s := newServer(t, t.TempDir())
	started, ended := make(chan struct{}), make(chan error, 1)
	var once sync.Once
	s.hold = func(ctx context.Context) {
		first := false
		once.Do(func() { first = true })
		if !first {
			return
		}
		close(started)
		<-ctx.Done()
		ended <- ctx.Err()
	}
	cs, _ := connect(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolCheckStop, Arguments: map[string]any{"message": fullPacket}})
		errc <- err
	}()
	<-started
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("the cancelled call returned %v", err)
	}
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the handler's context ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the handler's context was not cancelled")
	}
	var out StopOutput
	call(t, cs, ToolCheckStop, map[string]any{"message": fullPacket}, &out)
	if !out.Ready {
		t.Errorf("after a cancelled call: %+v", out)
	}
}

// A client that disconnects in the middle of a call ends its session and
// the call's context; the server takes the next client.
func TestClientDisconnectsMidCall(t *testing.T) {
	s := newServer(t, t.TempDir())
	started, ended := make(chan struct{}), make(chan error, 1)
	var once sync.Once
	s.hold = func(ctx context.Context) {
		first := false
		once.Do(func() { first = true })
		if !first {
			return
		}
		close(started)
		<-ctx.Done()
		ended <- ctx.Err()
	}
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ss, err := s.MCP().Connect(context.Background(), &Transport{Reader: sr, Writer: sw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gone", Version: "1"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: ToolCheckDocument, Arguments: map[string]any{"text": brokenPacket}}) //nolint:errcheck // the client goes away
	<-started
	cw.Close() // the client's end of the pipe goes: as a host that exits
	cr.Close()
	waited := make(chan error, 1)
	go func() { waited <- ss.Wait() }()
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		t.Fatal("the server session did not end when its client went away")
	}
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the call's context did not end when its client went away")
	}
	cs2, _ := connect(t, s)
	var out StopOutput
	call(t, cs2, ToolCheckStop, map[string]any{"message": fullPacket}, &out)
	if !out.Ready {
		t.Errorf("the next client: %+v", out)
	}
}

// Concurrent calls, of every tool, each get the answer the same call gets
// alone.
func TestConcurrentCalls(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "stop.md"), brokenPacket)
	cs, _ := connect(t, newServer(t, root))
	calls := []struct {
		tool string
		args map[string]any
	}{
		{ToolCheckStop, map[string]any{"message": brokenPacket}},
		{ToolCheckStop, map[string]any{"message": fullPacket}},
		{ToolCheckDocument, map[string]any{"path": "stop.md"}},
		{ToolCheckDocument, map[string]any{"text": fullPacket}},
		{ToolExplainRule, map[string]any{"rule": "packet/missing-section"}},
		{ToolCheckDocument, map[string]any{"path": "../outside.md"}},
	}
	alone := make([]string, len(calls))
	for i, c := range calls {
		alone[i] = text(call(t, cs, c.tool, c.args, nil))
	}
	var wg sync.WaitGroup
	for round := range 8 {
		for i, c := range calls {
			wg.Go(func() {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
				if err != nil {
					t.Errorf("round %d, %s: %v", round, c.tool, err)
					return
				}
				if got := text(res); got != alone[i] {
					t.Errorf("round %d, %s %v: concurrently\n%s\nalone\n%s", round, c.tool, c.args, got, alone[i])
				}
			})
		}
	}
	wg.Wait()
}

// explain_rule gives a rule's documentation, and without a rule the list.
func TestExplainRule(t *testing.T) {
	s := newServer(t, t.TempDir())
	cs, _ := connect(t, s)
	var out ExplainOutput
	call(t, cs, ToolExplainRule, map[string]any{"rule": "packet/missing-section"}, &out)
	r := s.reg.Rule("packet/missing-section")
	if len(out.Rules) != 1 || out.Rules[0].Doc != r.FullDoc() || out.Rules[0].Severity != r.Severity.String() || out.Rules[0].Summary != r.Summary {
		t.Errorf("%+v", out)
	}
	call(t, cs, ToolExplainRule, map[string]any{}, &out)
	if len(out.Rules) != len(s.reg.Rules()) || out.Rules[0].Doc != "" {
		t.Errorf("the list: %d rules, want %d, without their docs", len(out.Rules), len(s.reg.Rules()))
	}
}

// check_handoff_files reads the session the handoff names, from the state
// folder given: which files are in its read ledger (and how), which are
// not (and the nearest it did touch), and what to do with each.
func TestHandoffFiles(t *testing.T) {
	state := t.TempDir()
	write(t, filepath.Join(state, "sessions", "bucket", "sess-1", "current.jsonl"),
		`{"type":"session","version":3,"id":"sess-1","timestamp":"2026-08-21T00:00:00.000Z","cwd":"/work/project"}
{"kind":"message","turnId":"u1","parentTurnId":null,"timestamp":"t1","role":"user","payload":{"text":"fix the parser"}}
{"kind":"message","turnId":"c1","parentTurnId":"u1","timestamp":"t2","role":"tool_call","payload":{"toolCallId":"call-c1","name":"read","args":{"path":"src/parser.go"}}}
{"kind":"fileEntry","turnId":"f1","parentTurnId":"c1","timestamp":"t3","path":"docs/notes.md","operation":"read"}
`)
	root := t.TempDir()
	write(t, filepath.Join(root, "handoff.md"), "# Handoff\n\n**Goal:** finish the parser rework\n\nCarried from session `sess-1`.\n\n"+
		"## Files\n\n- `src/parser.go`: the parser\n- `src/parsr.go`: a typo\n\n### dropped (not in this session's read ledger)\n\n- `docs/notes.md`: read once\n")
	s, err := New(Options{Root: root, StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := connect(t, s)
	var out HandoffFilesOutput
	res := call(t, cs, ToolHandoffFiles, map[string]any{"path": "handoff.md"}, &out)
	if res.IsError {
		t.Fatal(text(res))
	}
	if out.Session != "sess-1" || out.SessionCwd != "/work/project" || out.InLedger != 2 || out.NotInLedger != 1 || len(out.Files) != 3 {
		t.Fatalf("%+v", out)
	}
	in, typo, dropped := out.Files[0], out.Files[1], out.Files[2]
	if !in.InLedger || in.Section != "Files" || in.Line != 9 || len(in.Evidence) != 1 || !strings.Contains(in.Evidence[0], "by read") || in.Advice != "" {
		t.Errorf("in the ledger: %+v", in)
	}
	if typo.InLedger || len(typo.Nearest) == 0 || typo.Nearest[0] != "src/parser.go" || !strings.Contains(typo.Advice, "dropped section") {
		t.Errorf("a typo: %+v", typo)
	}
	if !dropped.InLedger || dropped.Section != "Dropped" || !strings.Contains(dropped.Advice, "back under ## Files") {
		t.Errorf("dropped but read: %+v", dropped)
	}
	// A session that is nowhere: an error saying where it looked.
	res = call(t, cs, ToolHandoffFiles, map[string]any{"text": "# Handoff\n\n**Goal:** finish the parser rework\n\nCarried from session `sess-2`.\n\n## Files\n\n- `a.go`: x\n"}, nil)
	wantToolError(t, res, "sess-2", "looked in", state)
}

// The server writes nothing: the workspace is as it was after every tool
// has run on it.
func TestWritesNothing(t *testing.T) {
	root, stop := enginetest.Workspace(t)
	before := tree(t, root)
	cs, _ := connect(t, newServer(t, root))
	call(t, cs, ToolCheckStop, map[string]any{"message": stop, "host": "claude", "session_id": "s1"}, nil)
	call(t, cs, ToolCheckDocument, map[string]any{"path": "stop.md"}, nil)
	call(t, cs, ToolCheckDocument, map[string]any{"path": "new.md", "text": stop}, nil)
	call(t, cs, ToolHandoffFiles, map[string]any{"path": "stop.md"}, nil)
	if after := tree(t, root); !slices.Equal(before, after) {
		t.Errorf("the workspace changed:\nbefore %q\nafter  %q", before, after)
	}
}

// tree lists every file and folder under root with its size and time.
func tree(t *testing.T, root string) []string {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, fmt.Sprintf("%s %d %d", p, fi.Size(), fi.ModTime().UnixNano()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A host starts the server in a project's folder, or one below it: the
// workspace is the project (the folder holding .git or .baton.yaml), else
// the folder itself.
func TestWorkspace(t *testing.T) {
	proj := t.TempDir()
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(proj, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{proj, sub} {
		if got, err := Workspace(dir); err != nil || got != proj {
			t.Errorf("Workspace(%s) = %s, %v; want %s", dir, got, err, proj)
		}
	}
	if _, err := New(Options{Root: filepath.Join(proj, "nowhere")}); err == nil {
		t.Error("a workspace that does not exist was accepted")
	}
}

// A panic in a tool (a bug) is a tool error the model reads, and the
// server goes on.
func TestPanicIsToolError(t *testing.T) {
	s := newServer(t, t.TempDir())
	var once sync.Once
	s.hold = func(context.Context) { once.Do(func() { panic("boom") }) }
	cs, _ := connect(t, s)
	wantToolError(t, call(t, cs, ToolCheckStop, map[string]any{"message": fullPacket}, nil), "internal error in baton", "boom")
	var out StopOutput
	call(t, cs, ToolCheckStop, map[string]any{"message": fullPacket}, &out)
	if !out.Ready {
		t.Errorf("after a panic: %+v", out)
	}
}

// Large calls at once (three documents of 4 MB) take at most maxCalls
// processors: the others wait for a place, then are answered.
func TestLargeCallsBounded(t *testing.T) {
	root := t.TempDir()
	s := newServer(t, root)
	limit := int(maxCalls())
	n := max(3, limit+1)
	var mu sync.Mutex
	arrived, started := 0, 0
	release := make(chan struct{})
	s.hold = func(context.Context) {
		mu.Lock()
		arrived++
		mu.Unlock()
	}
	s.analysing = func() {
		mu.Lock()
		started++
		mu.Unlock()
		<-release
	}
	cs, _ := connect(t, s)
	var once sync.Once
	let := func() { once.Do(func() { close(release) }) }
	t.Cleanup(let) // before the session ends, on a failure too
	line := "Plain prose, and nothing of baton's.\n"
	doc := strings.Repeat(line, 4<<20/len(line))
	results := make(chan *mcp.CallToolResult, n)
	for i := range n {
		name := fmt.Sprintf("large-%d.md", i)
		write(t, filepath.Join(root, name), doc)
		go func() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: ToolCheckDocument, Arguments: map[string]any{"path": name}})
			if err != nil {
				t.Error(err)
			}
			results <- res
		}()
	}
	counts := func() (int, int) {
		mu.Lock()
		defer mu.Unlock()
		return arrived, started
	}
	deadline := time.Now().Add(30 * time.Second)
	for a, st := counts(); a < n || st < limit; a, st = counts() {
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s, %d calls arrived and %d analyses started", a, st)
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // room for one more to start, were it let
	if _, st := counts(); st != limit {
		t.Errorf("%d analyses at once, want %d (maxCalls)", st, limit)
	}
	let()
	for range n {
		res := <-results
		if res == nil || res.IsError {
			t.Fatalf("a waiting call: %v", res)
		}
	}
	if _, st := counts(); st != n {
		t.Errorf("%d analyses ran, want %d", st, n)
	}
}

// A call cancelled while it waits for a place answers while the places
// are still taken, and its analysis never runs.
func TestCancelledWhileWaiting(t *testing.T) {
	s := newServer(t, t.TempDir())
	limit := int(maxCalls())
	var mu sync.Mutex
	started := 0
	release := make(chan struct{})
	s.analysing = func() {
		mu.Lock()
		started++
		mu.Unlock()
		<-release
	}
	arrived := make(chan struct{}, limit+1)
	s.hold = func(context.Context) { arrived <- struct{}{} }
	returned := make(chan error, limit+1)
	s.MCP().AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "tools/call" {
				if r, ok := res.(*mcp.CallToolResult); ok && r.IsError && err == nil {
					err = errors.New(text(r))
				}
				returned <- err
			}
			return res, err
		}
	})
	cs, _ := connect(t, s)
	var once sync.Once
	let := func() { once.Do(func() { close(release) }) }
	t.Cleanup(let) // before the session ends, on a failure too
	done := make(chan struct{}, limit)
	for range limit {
		go func() {
			cs.CallTool(context.Background(), &mcp.CallToolParams{Name: ToolCheckStop, Arguments: map[string]any{"message": fullPacket}}) //nolint:errcheck // only its place matters
			done <- struct{}{}
		}()
		<-arrived
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		st := started
		mu.Unlock()
		if st == limit {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d analyses started within 30 s", st, limit)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	go cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolCheckStop, Arguments: map[string]any{"message": fullPacket}}) //nolint:errcheck // cancelled
	<-arrived
	time.Sleep(50 * time.Millisecond) // into its wait for a place
	cancel()
	select {
	case err := <-returned:
		if err == nil || !strings.Contains(err.Error(), "cancelled") {
			t.Errorf("the waiting call returned %v, want it cancelled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled call did not answer while the places were taken")
	}
	let()
	for range limit {
		<-done
	}
	mu.Lock()
	defer mu.Unlock()
	if started != limit {
		t.Errorf("%d analyses ran, want %d: the cancelled call's ran too", started, limit)
	}
}
