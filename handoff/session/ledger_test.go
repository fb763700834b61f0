package session

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestLedger(t *testing.T) {
	const cwd = "/work/repo"
	tests := []struct {
		name    string
		build   func(b *builder)
		paths   map[string][]string
		board   []string // "key=value@line"
		invalid []int
		torn    bool
		noNL    bool // current.jsonl does not end with a newline
		lines   int  // 0: do not check
		leaf    string
		cwd     string // expected Ledger.Cwd; defaults to cwd
	}{
		{
			name: "straight session",
			build: func(b *builder) {
				b.user("u1", "")                                                                                     // 2
				b.assistant("a1", "u1", block("name", "read", "arguments", map[string]any{"path": "src/parser.ts"})) // 3
				b.read("c1", "a1", "src/parser.ts")                                                                  // 4
				b.entry("message", "r1", "c1", map[string]any{"role": "tool_result",                                 // 5
					"payload": map[string]any{"toolCallId": "call-c1", "toolName": "read", "args": map[string]any{"path": "src/result.ts"}}})
				b.fileEntry("f1", "c1", "src/a.ts", "read")                                                                                                              // 6
				b.call("c2", "r1", "name", "edit", "args", map[string]any{"path": "/work/repo/src/b.ts"})                                                                // 7
				b.call("c3", "c2", "name", "bash", "args", map[string]any{"path": "src/bash.ts", "command": "ls"})                                                       // 8
				b.call("c4", "c3", "name", "write", "args", map[string]any{"path": "./src/c.ts/", "content": "x"})                                                       // 9
				b.call("c5", "c4", "name", "artifact", "args", map[string]any{"path": "docs/report.md"})                                                                 // 10
				b.call("c6", "c5", "name", "git", "args", map[string]any{"path": "."})                                                                                   // 11
				b.call("c7", "c6", "name", "verify", "args", map[string]any{"path": "src/v.ts"})                                                                         // 12
				b.entry("message", "c8", "c7", map[string]any{"role": "user", "payload": map[string]any{"name": "read", "args": map[string]any{"path": "src/user.ts"}}}) // 13
			},
			paths: map[string][]string{
				"src/parser.ts":  {"read@3", "read@4"},
				"src/a.ts":       {"fileEntry(read)@6"},
				"src/b.ts":       {"edit@7"},
				"src/c.ts":       {"write@9"},
				"docs/report.md": {"artifact@10"},
			},
			lines: 13,
			leaf:  "c8",
		},
		{
			name: "tree branch switch: the abandoned branch does not count",
			build: func(b *builder) {
				b.user("u1", "")                                           // 2
				b.read("a1", "u1", "src/shared.ts")                        // 3
				b.read("old1", "a1", "src/abandoned.ts")                   // 4
				b.fileEntry("fold", "old1", "src/abandoned-fe.ts", "edit") // 5
				b.user("new1", "a1")                                       // 6: /tree switch back to a1
				b.read("new2", "new1", "src/kept.ts")                      // 7
				b.fileEntry("fnew", "new2", "src/kept-fe.ts", "read")      // 8
			},
			paths: map[string][]string{
				"src/shared.ts":  {"read@3"},
				"src/kept.ts":    {"read@7"},
				"src/kept-fe.ts": {"fileEntry(read)@8"},
			},
			leaf: "new2",
		},
		{
			name: "pinned leaf on the abandoned branch",
			build: func(b *builder) {
				b.user("u1", "")
				b.read("a1", "u1", "src/shared.ts")
				b.read("old1", "a1", "src/abandoned.ts")
				b.user("new1", "a1")
				b.read("new2", "new1", "src/kept.ts")
				b.pin("old1")
			},
			paths: map[string][]string{
				"src/shared.ts":    {"read@3"},
				"src/abandoned.ts": {"read@4"},
			},
			leaf: "old1",
		},
		{
			name: "pinned earlier leaf in a straight session",
			build: func(b *builder) {
				b.user("u1", "")                          // 2
				b.read("a1", "u1", "src/x.ts")            // 3
				b.user("u2", "a1")                        // 4
				b.read("a2", "u2", "src/y.ts")            // 5
				b.fileEntry("f0", "", "src/z.ts", "read") // 6: null parent after the leaf
				b.pin("a1")
			},
			paths: map[string][]string{"src/x.ts": {"read@3"}},
			leaf:  "a1",
		},
		{
			name: "pinned leaf that is the last message keeps everything",
			build: func(b *builder) {
				b.user("u1", "")
				b.read("a1", "u1", "src/x.ts")
				b.fileEntry("f0", "", "src/after.ts", "read")
				b.pin("a1")
			},
			paths: map[string][]string{"src/x.ts": {"read@3"}, "src/after.ts": {"fileEntry(read)@4"}},
			leaf:  "a1",
		},
		{
			name: "pinned label resolves through its target",
			build: func(b *builder) {
				b.user("u1", "")
				b.read("a1", "u1", "src/shared.ts")
				b.read("old1", "a1", "src/abandoned.ts")
				b.user("new1", "a1")
				b.read("new2", "new1", "src/kept.ts")
				b.label("l1", "old1")
				b.pin("l1")
			},
			paths: map[string][]string{"src/shared.ts": {"read@3"}, "src/abandoned.ts": {"read@4"}},
			leaf:  "old1",
		},
		{
			name: "pinned compaction summary resolves through firstKeptTurnId",
			build: func(b *builder) {
				b.user("u1", "")
				b.read("a1", "u1", "src/shared.ts")
				b.read("old1", "a1", "src/abandoned.ts")
				b.user("new1", "a1")
				b.read("new2", "new1", "src/kept.ts")
				b.compaction("s1", "", "old1")
				b.pin("s1")
			},
			paths: map[string][]string{"src/shared.ts": {"read@3"}, "src/abandoned.ts": {"read@4"}},
			leaf:  "old1",
		},
		{
			name: "pinned fileEntry resolves through its parent",
			build: func(b *builder) {
				b.user("u1", "")
				b.read("a1", "u1", "src/shared.ts")
				b.read("old1", "a1", "src/abandoned.ts")
				b.user("new1", "a1")
				b.read("new2", "new1", "src/kept.ts")
				b.fileEntry("fe", "old1", "src/fe.ts", "read") // 7
				b.pin("fe")
			},
			paths: map[string][]string{"src/shared.ts": {"read@3"}, "src/abandoned.ts": {"read@4"}, "src/fe.ts": {"fileEntry(read)@7"}},
			leaf:  "old1",
		},
		{
			name: "pinned id that resolves to nothing falls back to the last message",
			build: func(b *builder) {
				b.user("u1", "")
				b.read("a1", "u1", "src/shared.ts")
				b.read("old1", "a1", "src/abandoned.ts")
				b.user("new1", "a1")
				b.read("new2", "new1", "src/kept.ts")
				b.pin("nowhere")
			},
			paths: map[string][]string{"src/shared.ts": {"read@3"}, "src/kept.ts": {"read@6"}},
			leaf:  "new2",
		},
		{
			name: "null-parent entries: kept at or before the leaf's line, dropped after",
			build: func(b *builder) {
				b.user("u1", "")                                                                  // 2
				b.fileEntry("fe1", "", "src/early.ts", "read")                                    // 3: before the leaf: kept
				b.read("a1", "u1", "src/shared.ts")                                               // 4
				b.read("old1", "a1", "src/abandoned.ts")                                          // 5
				b.user("new1", "a1")                                                              // 6
				b.read("new2", "new1", "src/kept.ts")                                             // 7: the leaf
				b.fileEntry("fe2", "", "src/late.ts", "read")                                     // 8: after the leaf: dropped
				b.decisions("d1", "", "int-late", "2026-09-01", decision("k", "v", "", "active")) // 9: dropped
			},
			paths: map[string][]string{"src/early.ts": {"fileEntry(read)@3"}, "src/shared.ts": {"read@4"}, "src/kept.ts": {"read@7"}},
			leaf:  "new2",
		},
		{
			name: "null-parent entries in a straight session are all kept",
			build: func(b *builder) {
				b.user("u1", "")
				b.read("a1", "u1", "src/a.ts")
				b.fileEntry("fe2", "", "src/late.ts", "read")
			},
			paths: map[string][]string{"src/a.ts": {"read@3"}, "src/late.ts": {"fileEntry(read)@4"}},
			leaf:  "a1",
		},
		{
			name: "tool_call name and argument aliases",
			build: func(b *builder) {
				b.user("u1", "")                                                                                         // 2
				b.call("c1", "u1", "name", "read", "args", map[string]any{"path": "p/name-args"})                        // 3
				b.call("c2", "c1", "toolName", "edit", "arguments", map[string]any{"file_path": "p/toolName-arguments"}) // 4
				b.call("c3", "c2", "tool", "write", "input", map[string]any{"filePath": "p/tool-input"})                 // 5
				b.entry("message", "c4", "c3", map[string]any{"role": "tool_call", "payload": map[string]any{            // 6: precedence
					"name": "  ", "toolName": " read ", "tool": "edit",
					"args": nil, "arguments": map[string]any{"path": "", "file_path": 7, "filePath": " p/filePath "},
					"input": map[string]any{"path": "p/input-ignored"}}})
				b.entry("message", "c5", "c4", map[string]any{"role": "tool_call", "payload": map[string]any{ // 7: args not an object
					"name": "read", "args": "p/string-args", "arguments": map[string]any{"path": "p/ignored"}}})
				b.entry("message", "c6", "c5", map[string]any{"role": "tool_call", "payload": map[string]any{ // 8: grep with a string args
					"name": "grep", "args": "x", "arguments": map[string]any{"path": "p/ignored"}}})
				b.call("c7", "c6", "name", "READ", "args", map[string]any{"path": "p/upper"}) // 9: names are exact
			},
			paths: map[string][]string{
				"p/name-args":          {"read@3"},
				"p/toolName-arguments": {"edit@4"},
				"p/tool-input":         {"write@5"},
				"p/filePath":           {"read@6"},
				".":                    {"grep@8"},
			},
		},
		{
			name: "assistant toolCall blocks: name and argument aliases",
			build: func(b *builder) {
				b.user("u1", "")
				b.assistant("a1", "u1", // 3
					block("name", "read", "arguments", map[string]any{"path": "b/name-arguments"}),
					block("toolName", "edit", "args", map[string]any{"file_path": "b/toolName-args"}),
					block("name", "write", "input", map[string]any{"filePath": "b/name-input"}),
					block("tool", "read", "arguments", map[string]any{"path": "b/tool-not-a-block-key"}),
					map[string]any{"type": "text", "name": "read", "arguments": map[string]any{"path": "b/not-toolCall"}},
					map[string]any{"type": "toolCall", "name": "ls", "arguments": nil, "args": map[string]any{"path": "b/args-after-null"}},
					map[string]any{"type": "toolCall", "name": "find", "arguments": map[string]any{"pattern": "*.ts"}, "args": map[string]any{"path": "b/ignored"}},
				)
				b.entry("message", "a2", "a1", map[string]any{"role": "assistant", "payload": map[string]any{ // 4: content not an array
					"content": map[string]any{"type": "toolCall", "name": "read", "arguments": map[string]any{"path": "b/not-array"}}}})
				b.entry("message", "a3", "a2", map[string]any{"role": "assistant", "payload": map[string]any{ // 5: a tool_call-style payload on an assistant
					"name": "read", "args": map[string]any{"path": "b/assistant-payload"}}})
			},
			paths: map[string][]string{
				"b/name-arguments":  {"read@3"},
				"b/toolName-args":   {"edit@3"},
				"b/name-input":      {"write@3"},
				"b/args-after-null": {"ls@3"},
				".":                 {"find@3"},
			},
		},
		{
			name: "grep, find and ls without a path count as the cwd",
			build: func(b *builder) {
				b.user("u1", "")
				b.call("c1", "u1", "name", "grep", "args", map[string]any{"pattern": "foo"})
				b.call("c2", "c1", "name", "find", "args", map[string]any{"pattern": "*.go"})
				b.call("c3", "c2", "name", "ls", "args", map[string]any{})
				b.entry("message", "c4", "c3", map[string]any{"role": "tool_call", "payload": map[string]any{"name": "ls"}})
				b.call("c5", "c4", "name", "read", "args", map[string]any{"pattern": "no path"})
				b.call("c6", "c5", "name", "grep", "args", map[string]any{"path": "/work/repo/"})
			},
			paths: map[string][]string{".": {"grep@3", "find@4", "ls@5", "ls@6", "grep@8"}},
		},
		{
			name: "paths outside the cwd stay absolute",
			build: func(b *builder) {
				b.user("u1", "")
				b.read("c1", "u1", "/etc/hosts")
				b.read("c2", "c1", "../other/x.ts")
				b.read("c3", "c2", "/work/repo2/y.ts")
				b.read("c4", "c3", "/work/repo/../repo/z.ts")
				b.read("c5", "c4", "/") // "" once stripped: clio never adds it
				b.call("c6", "c5", "name", "grep", "args", map[string]any{"path": "/"})
				b.call("c7", "c6", "name", "ls", "args", map[string]any{"path": "   "})
			},
			paths: map[string][]string{
				"/etc/hosts":       {"read@3"},
				"/work/other/x.ts": {"read@4"},
				"/work/repo2/y.ts": {"read@5"},
				"z.ts":             {"read@6"},
				".":                {"ls@9"}, // a blank path is no path: ls looks at the cwd
			},
		},
		{
			// A session recorded on POSIX: '\' is part of a name there
			// (path.posix), so these are one-name files, trailing '\'
			// stripped all the same.
			name: "Windows-style separators on POSIX",
			build: func(b *builder) {
				b.user("u1", "")
				b.read("c1", "u1", `src\win.ts`)
				b.fileEntry("f1", "c1", `src\dir\`, "read")
			},
			paths: map[string][]string{`src\win.ts`: {"read@3"}, `src\dir`: {"fileEntry(read)@4"}},
		},
		{
			name: "torn last line",
			build: func(b *builder) {
				b.user("u1", "")
				b.read("c1", "u1", "src/a.ts")
				b.raw(`{"kind":"message","turnId":"c2","parentTurnId":"c1","role":"tool_call","payload":{"name":"read","args":{"path":"src/b`)
			},
			paths: map[string][]string{"src/a.ts": {"read@3"}},
			torn:  true,
			noNL:  true,
			lines: 4,
			leaf:  "c1",
		},
		{
			name: "invalid lines in the middle are counted and skipped",
			build: func(b *builder) {
				b.user("u1", "")                     // 2
				b.raw(`not json`)                    // 3
				b.read("c1", "u1", "src/a.ts")       // 4
				b.raw(`{"kind":"message","turnId":`) // 5
				b.raw(``)                            // 6: blank: skipped, not invalid
				b.raw(`[1,2]`)                       // 7: JSON but not an object
				b.raw(`{"kind":"message"} x`)        // 8: trailing garbage
				b.read("c2", "c1", "src/b.ts")       // 9
			},
			paths:   map[string][]string{"src/a.ts": {"read@4"}, "src/b.ts": {"read@9"}},
			invalid: []int{3, 5, 7, 8},
			lines:   9,
		},
		{
			name: "decision board: last snapshot per interview wins, only active decisions",
			build: func(b *builder) {
				b.user("u1", "")                                                                                                                                        // 2
				b.decisions("d1", "u1", "int-1", "2026-08-21T10:00:00Z", decision("runner", "jest", "Test runner", "active"), decision("db", "pg", "", "active"))       // 3
				b.decisions("d2", "u1", "int-2", "2026-08-22T10:00:00Z", decision("style", "tabs", "", "active"), decision("old", "x", "", "superseded"))               // 4
				b.decisions("d3", "u1", "int-1", "2026-08-21T10:00:00Z", decision("runner", "vitest", "Test runner", "active"), decision("db", "pg", "", "superseded")) // 5
				b.read("a1", "u1", "src/a.ts")                                                                                                                          // 6
				b.read("old1", "a1", "src/old.ts")                                                                                                                      // 7
				b.decisions("d4", "old1", "int-2", "2026-08-23T10:00:00Z", decision("style", "spaces", "", "active"))                                                   // 8: abandoned branch
				b.user("new1", "a1")                                                                                                                                    // 9
			},
			paths: map[string][]string{"src/a.ts": {"read@6"}},
			board: []string{"style=tabs@4", "runner=vitest@5"},
			leaf:  "new1",
		},
		{
			name: "no header: line 1 is an entry and the cwd comes from meta.json",
			build: func(b *builder) {
				b.read("c1", "", "/work/meta/src/a.ts")
				b.meta = map[string]any{"cwd": "/work/meta", "pinnedLeafTurnId": nil}
			},
			paths: map[string][]string{"src/a.ts": {"read@1"}},
			cwd:   "/work/meta",
		},
		{
			name: "no cwd anywhere: paths are kept as written, cleaned",
			build: func(b *builder) {
				b.read("c1", "", "./src/a.ts")
				b.read("c2", "c1", "/abs/b.ts")
				b.read("c3", "c2", "../up.ts")
			},
			paths: map[string][]string{"src/a.ts": {"read@1"}, "/abs/b.ts": {"read@2"}, "../up.ts": {"read@3"}},
			cwd:   "-",
		},
		{
			name: "a valid last line without a newline is an entry",
			build: func(b *builder) {
				b.user("u1", "")
				b.read("c1", "u1", "src/a.ts")
			},
			paths: map[string][]string{"src/a.ts": {"read@3"}},
			noNL:  true,
			lines: 3,
		},
		{
			name: "10 MB lines",
			build: func(b *builder) {
				big := strings.Repeat("x", 10<<20)
				b.user("u1", "")
				b.call("c1", "u1", "name", "write", "args", map[string]any{"content": big, "path": "src/big.ts"})
				b.entry("message", "r1", "c1", map[string]any{"role": "tool_result", "payload": map[string]any{"toolName": "write", "result": big}})
				b.read("c2", "r1", "src/after.ts")
			},
			paths: map[string][]string{"src/big.ts": {"write@3"}, "src/after.ts": {"read@5"}},
			lines: 5,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hcwd := cwd
			if tc.cwd != "" {
				hcwd = "-" // the header-less cases
			}
			b := newBuilder(t, hcwd)
			tc.build(b)
			dir := b.writeTemp()
			if tc.noNL {
				writeFile(t, dir+"/current.jsonl", strings.TrimSuffix(b.text(), "\n"))
			}
			l, err := NewStore().Ledger(dir)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.paths, summary(l)); diff != "" {
				t.Errorf("paths (-want +got):\n%s", diff)
			}
			var board []string
			for _, d := range l.Board {
				board = append(board, d.Key+"="+d.Value+"@"+itoa(d.Line))
			}
			if diff := cmp.Diff(tc.board, board); diff != "" {
				t.Errorf("board (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.invalid, l.InvalidLines, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("invalid lines (-want +got):\n%s", diff)
			}
			if l.TornLastLine != tc.torn {
				t.Errorf("TornLastLine = %v, want %v", l.TornLastLine, tc.torn)
			}
			if tc.lines != 0 && l.Lines != tc.lines {
				t.Errorf("Lines = %d, want %d", l.Lines, tc.lines)
			}
			if tc.leaf != "" && l.Leaf != tc.leaf {
				t.Errorf("Leaf = %q, want %q", l.Leaf, tc.leaf)
			}
			wantCwd := cwd
			switch tc.cwd {
			case "":
			case "-":
				wantCwd = ""
			default:
				wantCwd = tc.cwd
			}
			if l.Cwd != wantCwd {
				t.Errorf("Cwd = %q, want %q", l.Cwd, wantCwd)
			}
		})
	}
}

// TestLedgerWindowsSession: a session whose cwd is a Windows path was
// recorded on Windows, where path.win32 separates on '\' and '/', roots
// "\x" on cwd's drive and compares inside cwd without case.
func TestLedgerWindowsSession(t *testing.T) {
	b := newBuilder(t, `C:\work\repo`)
	b.user("u1", "")
	b.read("c1", "u1", `src\win.ts`)
	b.read("c2", "c1", `C:\WORK\repo\lib\a.ts`)
	b.read("c3", "c2", `\other\b.ts`)
	b.read("c4", "c3", `C:\`)
	l, err := NewStore().Ledger(b.writeTemp())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for k := range l.Paths {
		got = append(got, k)
	}
	slices.Sort(got)
	if want := []string{".", "C:/other/b.ts", "lib/a.ts", "src/win.ts"}; !slices.Equal(got, want) {
		t.Errorf("paths = %q, want %q", got, want)
	}
	for _, p := range []string{"src/win.ts", `src\win.ts`, `c:\work\repo\src\win.ts`, `LIB\A.TS`} {
		if _, ok := l.Lookup(p); !ok && p != `LIB\A.TS` {
			t.Errorf("Lookup(%q) found nothing", p)
		} else if ok && p == `LIB\A.TS` {
			t.Errorf("Lookup(%q) found a path: clio's ledger is a Set of exact strings", p)
		}
	}
}
