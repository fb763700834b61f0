package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/baton-md/baton/engine/enginetest"
	"github.com/baton-md/baton/internal/corpus"
	"github.com/baton-md/baton/mcpserver"
)

// mcpStop calls check_stop in a server over root, in process.
func mcpStop(t *testing.T, root, message string) mcpserver.StopOutput {
	t.Helper()
	s, err := mcpserver.New(mcpserver.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: mcpserver.ToolCheckStop, Arguments: map[string]any{"message": message}})
	if err != nil || res.IsError {
		t.Fatalf("check_stop: %v %+v", err, res)
	}
	var out mcpserver.StopOutput
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// checkFindings are the findings `baton check --format json` reports on
// the file at path, as rule@severity:line.
func checkFindings(t *testing.T, path string) []string {
	t.Helper()
	var out, errb bytes.Buffer
	run([]string{"check", "--format", "json", path}, strings.NewReader(""), &out, &errb)
	var rep struct {
		Files []struct {
			Findings []struct {
				Rule, Severity string
				Start          struct{ Line int }
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || len(rep.Files) != 1 {
		t.Fatalf("check --format json: %v\n%s%s", err, out.String(), errb.String())
	}
	got := []string{}
	for _, f := range rep.Files[0].Findings {
		got = append(got, fmtFinding(f.Rule, f.Severity, f.Start.Line))
	}
	slices.Sort(got)
	return got
}

// hookLine is a finding as the stop hook's reason lists it.
var hookLine = regexp.MustCompile(`(?m)^- line (\d+): (.*) \(([a-z-]+/[a-z-]+)\)$`)

// hookFindings runs Claude Code's stop hook (with --lint) on a session
// whose transcript ends with message, in dir, and returns the findings its
// reason lists, as rule:line: message, and the whole reason.
func hookFindings(t *testing.T, dir, message string) ([]string, string) {
	t.Helper()
	tr := filepath.Join(t.TempDir(), "session.jsonl")
	var lines []string
	for _, turn := range [][2]string{{"user", "go on"}, {"assistant", message}} {
		b, _ := json.Marshal(map[string]any{"type": turn[0], "message": map[string]any{"content": []any{map[string]any{"type": "text", "text": turn[1]}}}})
		lines = append(lines, string(b))
	}
	putFile(t, tr, strings.Join(lines, "\n")+"\n")
	in, _ := json.Marshal(map[string]any{"session_id": "s1", "transcript_path": tr, "cwd": dir, "hook_event_name": "Stop", "stop_hook_active": false})
	var out, errb bytes.Buffer
	if code := run([]string{"hook", "claude-stop", "--lint", "--state-dir", t.TempDir()}, bytes.NewReader(in), &out, &errb); code != exitOK {
		t.Fatalf("hook: exit %d\n%s", code, errb.String())
	}
	var d struct{ Reason string } // Claude Code's reply: decision "block", reason
	if out.Len() > 0 {
		if err := json.Unmarshal(out.Bytes(), &d); err != nil {
			t.Fatalf("hook: %v\n%s", err, out.String())
		}
	}
	got := []string{}
	for _, m := range hookLine.FindAllStringSubmatch(d.Reason, -1) {
		got = append(got, m[3]+":"+m[1]+": "+m[2])
	}
	slices.Sort(got)
	return got, d.Reason
}

// One engine, three entry points: for the same message in the same
// workspace (a .baton.yaml that turns a rule off, sets a rule pattern and
// adds a phrase; a specrew project with a crossing pending), the MCP
// server's check_stop reports the findings `baton check` reports on the
// message saved in that folder, and the ones it says block the stop are
// the ones Claude Code's stop hook (reading the message from the
// session's transcript) blocks it with.
func TestMCPSameFindingsAsCheckAndHook(t *testing.T) {
	dir, packet := enginetest.Workspace(t)
	// The workspace's packet with Discussion Prompts that ask without
	// context or a default (packet/context-free-prompts, an error that
	// blocks); and a boundary packet (it has Discussion Prompts) missing
	// What Happens Next and What I Need From You, two errors.
	stop := strings.Replace(packet, "## What I Need From You", "## Discussion Prompts\n\n1. Should I go on?\n\n## What I Need From You", 1)
	broken := "## What I Just Did\n\nWrote the plan.\n\n### Why I Stopped\n\nA decision is needed.\n\n## What Needs Your Review\n\nApprove option B?\n\n" +
		"## Discussion Prompts\n\n1. Because option B narrows the scope, should we take it? Recommended default: yes.\n"
	for name, message := range map[string]string{"stop.md": stop, "broken.md": broken} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			putFile(t, path, message)
			fromCheck := checkFindings(t, path)
			out := mcpStop(t, dir, message)
			fromMCP, blocking := []string{}, []string{}
			for _, f := range out.Findings {
				fromMCP = append(fromMCP, fmtFinding(f.Rule, f.Severity, f.Line))
				if f.BlocksStop {
					blocking = append(blocking, f.Rule+":"+itoa(f.Line)+": "+f.Message)
				}
			}
			slices.Sort(fromMCP)
			slices.Sort(blocking)
			if !slices.Equal(fromCheck, fromMCP) {
				t.Errorf("check and the MCP server differ:\ncheck: %q\nmcp:   %q", fromCheck, fromMCP)
			}
			fromHook, reason := hookFindings(t, dir, message)
			if !slices.Equal(fromHook, blocking) {
				t.Errorf("the hook and the MCP server differ on what blocks:\nhook: %q\nmcp:  %q\nreason: %s", fromHook, blocking, reason)
			}
			t.Logf("check %q\nblocking %q", fromCheck, fromHook)
			if len(blocking) == 0 {
				t.Errorf("nothing blocks: the comparison proves nothing\n%+v", out)
			}
			// The specrew lane too: the hook asks for what check_stop's todo
			// says, the crossing here owing evidence the tree cannot show.
			if out.Specrew == nil || out.Specrew.Crossing == nil || !strings.Contains(reason, "not ready for a verdict") || !strings.Contains(out.Todo[0], "not ready for a verdict") {
				t.Errorf("the pending crossing: mcp %+v, todo %q; hook %s", out.Specrew, out.Todo, reason)
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// The built command over standard input and output, as a host starts it:
// `baton mcp` with no argument, in a folder below the project's root. The
// workspace is the project (a path relative to its root reads there), the
// tools answer, and the process ends with status 0 when the client closes.
func TestMCPCommandOverStdio(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "baton")
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	proj := t.TempDir()
	putFile(t, filepath.Join(proj, ".baton.yaml"), "")
	// A boundary packet (it has Discussion Prompts) missing What Happens
	// Next and What I Need From You: two errors.
	putFile(t, filepath.Join(proj, "docs", "stop.md"), "## What I Just Did\n\nX.\n\n## Why I Stopped\n\nY.\n\n## What Needs Your Review\n\nNothing.\n\n"+
		"## Discussion Prompts\n\n1. Because Y changes the scope, should X stay? Recommended default: yes.\n")
	sub := filepath.Join(proj, "src", "deep")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "mcp")
	cmd.Dir = sub
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 4 {
		t.Fatalf("tools/list: %v %+v", err, tools)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: mcpserver.ToolCheckDocument, Arguments: map[string]any{"path": "docs/stop.md"}})
	if err != nil || res.IsError {
		t.Fatalf("check_document: %v %+v", err, res)
	}
	var doc mcpserver.DocumentOutput
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &doc); err != nil || doc.Kind != "packet" || doc.Errors != 2 {
		t.Errorf("check_document docs/stop.md from %s: %v %+v", sub, err, doc)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: mcpserver.ToolCheckDocument, Arguments: map[string]any{"path": "../../../outside.md"}})
	if err != nil || !res.IsError {
		t.Errorf("a path outside the project: %v %+v", err, res)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
		t.Errorf("baton mcp ended with %v\n%s", cmd.ProcessState, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("baton mcp wrote to standard error:\n%s", stderr.String())
	}
}

// baton mcp install, status and uninstall, for every host, in the project
// and for the user: the diff first, the entry the host reads, every other
// server kept, and the file given back byte for byte.
func TestMCPInstallCommand(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", "") // the record of what install made goes in $HOME too
	t.Setenv("CODEX_HOME", "")
	t.Setenv("COPILOT_HOME", "")
	other := "{\n  \"mcpServers\": {\n    \"other\": {\n      \"command\": \"npx\"\n    }\n  }\n}\n"
	for _, tt := range []struct {
		host, scope, file, before string
	}{
		{"claude", "--project", filepath.Join(proj, ".mcp.json"), other},
		{"claude", "--user", filepath.Join(home, ".claude.json"), "{\n  \"numStartups\": 4\n}\n"},
		{"codex", "--project", filepath.Join(proj, ".codex", "config.toml"), ""},
		{"codex", "--user", filepath.Join(home, ".codex", "config.toml"), "model = \"o3\"\n"},
		{"gemini", "--project", filepath.Join(proj, ".gemini", "settings.json"), other},
		{"copilot", "--user", filepath.Join(home, ".copilot", "mcp-config.json"), ""},
	} {
		t.Run(tt.host+tt.scope, func(t *testing.T) {
			if tt.before != "" {
				putFile(t, tt.file, tt.before)
			}
			mcpRun := func(args ...string) string {
				t.Helper()
				var out, errb bytes.Buffer
				if code := run(append([]string{"mcp"}, args...), strings.NewReader(""), &out, &errb); code != exitOK || errb.Len() > 0 {
					t.Fatalf("baton mcp %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errb.String())
				}
				return out.String()
			}
			out := mcpRun("install", "--host", tt.host, tt.scope, "--dir", proj, "--dry-run")
			if !strings.Contains(out, "+") || !strings.Contains(out, "would add") {
				t.Errorf("dry run: %s", out)
			}
			if got, _ := os.ReadFile(tt.file); string(got) != tt.before {
				t.Fatalf("the dry run wrote the file: %q", got)
			}
			out = mcpRun("install", "--host", tt.host, tt.scope, "--dir", proj)
			if !strings.Contains(out, "baton: added to ") || !strings.Contains(out, "baton mcp") {
				t.Errorf("install: %s", out)
			}
			// Whether the host will start it: a project's servers wait for
			// the person's approval (in the host's own records), the user's
			// do not.
			if want := "will start it"; tt.scope == "--project" {
				if !strings.Contains(out, "will not start it yet") || !strings.Contains(out, "to have it start: ") {
					t.Errorf("install in a project not yet approved: %s", out)
				}
			} else if !strings.Contains(out, want) {
				t.Errorf("install for the user: %s", out)
			}
			if out := mcpRun("install", "--host", tt.host, tt.scope, "--dir", proj); !strings.Contains(out, "nothing to change") {
				t.Errorf("a second install: %s", out)
			}
			var st struct {
				Hosts []struct{ Host, Scope, File, State, Command string }
			}
			if err := json.Unmarshal([]byte(mcpRun("status", "--json", "--dir", proj)), &st); err != nil {
				t.Fatal(err)
			}
			scope := strings.TrimPrefix(tt.scope, "--")
			found := false
			for _, h := range st.Hosts {
				if h.Host == tt.host && h.Scope == scope {
					found = true
					if h.File != tt.file || h.State != "present" || h.Command != "baton mcp" {
						t.Errorf("status: %+v", h)
					}
				}
			}
			if !found {
				t.Errorf("status lists no %s %s", tt.host, scope)
			}
			if text := mcpRun("status", "--dir", proj); !strings.Contains(text, "registered: baton mcp") {
				t.Errorf("status:\n%s", text)
			}
			mcpRun("uninstall", "--host", tt.host, tt.scope, "--dir", proj)
			got, err := os.ReadFile(tt.file)
			if tt.before == "" {
				if err == nil {
					t.Errorf("the file install made is still there: %q", got)
				}
			} else if string(got) != tt.before {
				t.Errorf("uninstall gave back %q, want %q", got, tt.before)
			}
			if out := mcpRun("uninstall", "--host", tt.host, tt.scope, "--dir", proj); !strings.Contains(out, "nothing to change") {
				t.Errorf("a second uninstall: %s", out)
			}
		})
	}
	var errb bytes.Buffer
	if code := run([]string{"mcp", "install", "--host", "cursor"}, strings.NewReader(""), &bytes.Buffer{}, &errb); code != exitUsage || !strings.Contains(errb.String(), "claude, codex, gemini, copilot") {
		t.Errorf("an unknown host: exit %d, %s", code, errb.String())
	}
}

// The Claude Code plugin and the Gemini CLI extension carry the server as
// install registers it: baton mcp, started in the project the host runs in.
func TestMCPInPluginAndExtension(t *testing.T) {
	for _, manifest := range []string{".claude-plugin/plugin.json", "extensions/gemini/baton/gemini-extension.json"} {
		data, err := os.ReadFile(filepath.Join("..", "..", manifest))
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			MCPServers map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"mcpServers"`
		}
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s: %v", manifest, err)
		}
		s, ok := m.MCPServers["baton"]
		if !ok || s.Command != "baton" || !slices.Equal(s.Args, []string{"mcp"}) {
			t.Errorf("%s: mcpServers %+v, want baton: baton mcp", manifest, m.MCPServers)
		}
	}
}

// On the real documents of the shared corpus (packets, handoffs and
// workflows of specrew, clio-coder and executable.md), check_document
// reports, file by file, the findings `baton check` reports.
func TestMCPCorpusSameAsCheck(t *testing.T) {
	root, err := filepath.Abs(corpus.Dir(t, "."))
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	run([]string{"check", "--format", "json", root}, strings.NewReader(""), &out, &errb)
	var rep struct {
		Files []struct {
			Path     string
			Findings []struct {
				Rule, Severity string
				Start          struct{ Line int }
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("check: %v\n%s", err, errb.String())
	}
	if len(rep.Files) < 200 {
		t.Fatalf("check read %d files of the corpus", len(rep.Files))
	}
	s, err := mcpserver.New(mcpserver.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	findings := 0
	for _, f := range rep.Files {
		var want []string
		for _, x := range f.Findings {
			want = append(want, fmtFinding(x.Rule, x.Severity, x.Start.Line))
		}
		slices.Sort(want)
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: mcpserver.ToolCheckDocument, Arguments: map[string]any{"path": f.Path}})
		if err != nil || res.IsError {
			t.Errorf("%s: %v %+v", f.Path, err, res)
			continue
		}
		var doc mcpserver.DocumentOutput
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &doc) //nolint:errcheck // checked by the comparison
		var got []string
		for _, x := range doc.Findings {
			got = append(got, fmtFinding(x.Rule, x.Severity, x.Line))
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: check_document and check differ:\nmcp   %q\ncheck %q", f.Path, got, want)
		}
		findings += len(want)
	}
	t.Logf("%d files, %d findings, the same from both", len(rep.Files), findings)
}
