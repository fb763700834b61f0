package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// rawClient speaks to a server line by line, as a host's transport does,
// so that it can send what no SDK client sends.
type rawClient struct {
	t     *testing.T
	w     io.WriteCloser
	lines chan []byte
	n     int // pings sent
}

// rawConnect starts s on Transport (lines of at most maxLine bytes; 0 is
// the server's own bound) and a raw client on the other end.
func rawConnect(t testing.TB, s *Server, maxLine int) *rawClient {
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ss, err := s.MCP().Connect(context.Background(), &Transport{Reader: sr, Writer: sw, MaxLine: maxLine}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &rawClient{w: cw, lines: make(chan []byte, 1000)}
	go func() {
		defer close(c.lines)
		r := bufio.NewReader(cr)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return
			}
			c.lines <- line
		}
	}()
	t.Cleanup(func() {
		cw.Close()
		done := make(chan struct{})
		go func() { ss.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the session did not end when its input did")
		}
		cr.Close()
	})
	return c
}

// send writes lines, each ended by a newline.
func (c *rawClient) send(t testing.TB, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(c.w, l+"\n"); err != nil {
			t.Fatalf("the server stopped reading: %v", err)
		}
	}
}

// next is the next line the server writes.
func (c *rawClient) next(t testing.TB) []byte {
	t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			t.Fatal("the server ended the session")
		}
		return line
	case <-time.After(30 * time.Second):
		t.Fatal("no answer within 30 s")
	}
	return nil
}

// initialize opens the session at MCP version v.
func (c *rawClient) initialize(t testing.TB, v string) {
	t.Helper()
	c.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, v))
	if got := shape(t, c.next(t)); got != `"init" result` {
		t.Fatalf("initialize: %s", got)
	}
	c.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// answers sends lines, then a ping, and returns the shapes of the n
// answers other than the ping's, sorted (the answers to requests come
// in any order), with the ping's answered.
func (c *rawClient) answers(t testing.TB, n int, lines ...string) []string {
	t.Helper()
	c.n++
	ping := fmt.Sprintf("ping-%d", c.n)
	c.send(t, append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"ping"}`, ping))...)
	var got []string
	pinged := false
	for !pinged || len(got) < n {
		s := shape(t, c.next(t))
		if s == fmt.Sprintf("%q result", ping) && !pinged {
			pinged = true
			continue
		}
		got = append(got, s)
		if len(got) > n {
			break
		}
	}
	slices.Sort(got)
	return got
}

// shape is an answer as "ID result", "ID error CODE", or a batch's
// answers in brackets.
func shape(t testing.TB, line []byte) string {
	t.Helper()
	line = bytes.TrimSpace(line)
	if len(line) > 0 && line[0] == '[' {
		var elems []json.RawMessage
		if err := json.Unmarshal(line, &elems); err != nil {
			t.Fatalf("the server wrote %s: %v", line, err)
		}
		var parts []string
		for _, e := range elems {
			parts = append(parts, shape(t, e))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("the server wrote %s: %v", line, err)
	}
	id, ok := m["id"]
	if string(m["jsonrpc"]) != `"2.0"` || !ok {
		t.Fatalf("the server wrote %s: not JSON-RPC 2.0 with an id", line)
	}
	if e, ok := m["error"]; ok {
		var err struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		}
		if json.Unmarshal(e, &err) != nil || err.Message == "" {
			t.Errorf("%s: not an error that says what is wrong", line)
		}
		return fmt.Sprintf("%s error %d", id, err.Code)
	}
	if _, ok := m["result"]; !ok {
		t.Fatalf("the server wrote %s: neither a result nor an error", line)
	}
	return fmt.Sprintf("%s result", id)
}

const (
	parseError     = "null error -32700"
	invalidRequest = "null error -32600"
)

// nested is a ping whose params nest depth arrays and objects in all.
func nested(id string, depth int) string {
	inner := strings.Repeat("[", depth-3) + strings.Repeat("]", depth-3)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"ping","params":{"_meta":{"deep":%s}}}`, id, inner)
}

// Every line that is not a message gets the answer JSON-RPC 2.0 gives it,
// and the server answers the next line: the agent keeps its tools.
func TestMalformedLines(t *testing.T) {
	const maxLine = 64 << 10
	c := rawConnect(t, newServer(t, t.TempDir()), maxLine)
	c.initialize(t, "2025-06-18")
	deepArrays := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	padded := func(id string, n int) string {
		l := fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"ping","params":{"_meta":{"pad":""}}}`, id)
		return strings.Replace(l, `"pad":""`, `"pad":"`+strings.Repeat("x", n-len(l))+`"`, 1)
	}
	for _, tc := range []struct {
		name  string
		lines []string
		want  []string
	}{
		{"invalid JSON", []string{"not json"}, []string{parseError}},
		{"truncated line", []string{`{"jsonrpc":"2.0","id":2,"method":`, `{"jsonrpc":"2.0","id":"after","method":"ping"}`}, []string{`"after" result`, parseError}},
		{"truncated object", []string{`{"jsonrpc":"2.0","id":2,"method":"ping"`}, []string{parseError}},
		{"two messages on a line", []string{`{"jsonrpc":"2.0","id":3,"method":"ping"}{"jsonrpc":"2.0","id":4,"method":"ping"}`}, []string{parseError}},
		{"batch", []string{`[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":6,"method":"tools/list"}]`}, []string{invalidRequest}},
		{"empty batch", []string{`[]`}, []string{invalidRequest}},
		{"version 1.0", []string{`{"jsonrpc":"1.0","id":7,"method":"ping"}`}, []string{invalidRequest}},
		{"no version", []string{`{"id":7,"method":"ping"}`}, []string{invalidRequest}},
		{"version a number", []string{`{"jsonrpc":2.0,"id":7,"method":"ping"}`}, []string{invalidRequest}},
		{"bare string", []string{`"hello"`}, []string{invalidRequest}},
		{"number", []string{`42`}, []string{invalidRequest}},
		{"true", []string{`true`}, []string{invalidRequest}},
		{"null", []string{`null`}, []string{invalidRequest}},
		{"no method", []string{`{"jsonrpc":"2.0","id":8}`}, []string{invalidRequest}},
		{"method a number", []string{`{"jsonrpc":"2.0","id":8,"method":5}`}, []string{invalidRequest}},
		{"method null", []string{`{"jsonrpc":"2.0","id":8,"method":null}`}, []string{invalidRequest}},
		{"id an object", []string{`{"jsonrpc":"2.0","id":{},"method":"ping"}`}, []string{invalidRequest}},
		{"id an array", []string{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`}, []string{invalidRequest}},
		{"id a boolean", []string{`{"jsonrpc":"2.0","id":true,"method":"ping"}`}, []string{invalidRequest}},
		{"id a fraction", []string{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`}, []string{invalidRequest}},
		{"id past 2^53", []string{`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`}, []string{invalidRequest}},
		{"id null", []string{`{"jsonrpc":"2.0","id":null,"method":"ping"}`}, []string{invalidRequest}},
		{"params a string", []string{`{"jsonrpc":"2.0","id":9,"method":"ping","params":"x"}`}, []string{invalidRequest}},
		{"malformed notification", []string{`{"jsonrpc":"1.0","method":"notifications/initialized"}`}, []string{invalidRequest}},
		{"unknown notification", []string{`{"jsonrpc":"2.0","method":"notifications/nothing"}`}, nil},
		{"unknown method", []string{`{"jsonrpc":"2.0","id":"nothing","method":"nothing/here"}`}, []string{`"nothing" error -32601`}},
		{"method not UTF-8", []string{"{\"jsonrpc\":\"2.0\",\"id\":\"utf\",\"method\":\"ping\xff\"}"}, []string{`"utf" error -32601`}},
		{"the peer's error", []string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`}, nil},
		{"a result for nothing", []string{`{"jsonrpc":"2.0","id":99,"result":{}}`}, nil},
		{"a result without an id", []string{`{"jsonrpc":"2.0","result":{}}`}, nil},
		{"blank lines", []string{"", "  ", "\r"}, nil},
		{"CRLF", []string{`{"jsonrpc":"2.0","id":"crlf","method":"ping"}` + "\r"}, []string{`"crlf" result`}},
		{"10,000 nested brackets", []string{deepArrays}, []string{invalidRequest}},
		{"10,000 open brackets", []string{strings.Repeat("[", 10000)}, []string{parseError}},
		{"params nested past the bound", []string{nested("deep", MaxDepth+1)}, []string{invalidRequest}},
		{"params nested to the bound", []string{nested("deep", MaxDepth)}, []string{`"deep" result`}},
		{"a line over the bound", []string{padded("long", maxLine+1)}, []string{invalidRequest}},
		{"a line of the bound", []string{padded("long", maxLine)}, []string{`"long" result`}},
		{"a line far over the bound", []string{strings.Repeat("x", 100*maxLine)}, []string{invalidRequest}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := slices.Sorted(slices.Values(tc.want))
			if got := c.answers(t, len(want), tc.lines...); !slices.Equal(got, want) {
				t.Errorf("answers %q, want %q", got, want)
			}
		})
	}
	var out StopOutput
	if res := c.call(t, ToolCheckStop, map[string]any{"message": fullPacket}, &out); res != "" || !out.Ready {
		t.Errorf("check_stop after the malformed lines: %s %+v", res, out)
	}
}

// call calls a tool over the raw client; it returns the tool's error
// text, or "" and the structured result in out.
func (c *rawClient) call(t testing.TB, tool string, args any, out any) string {
	t.Helper()
	c.n++
	id := fmt.Sprintf("call-%d", c.n)
	req, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
	if err != nil {
		t.Fatal(err)
	}
	c.send(t, string(req))
	for {
		line := c.next(t)
		var m struct {
			ID     string `json:"id"`
			Result struct {
				IsError           bool            `json:"isError"`
				Content           []rawText       `json:"content"`
				StructuredContent json.RawMessage `json:"structuredContent"`
			} `json:"result"`
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(line, &m) != nil || m.ID != id {
			continue
		}
		if m.Error != nil {
			t.Fatalf("%s: %s", tool, m.Error)
		}
		if m.Result.IsError {
			return m.Result.Content[0].Text
		}
		if err := json.Unmarshal(m.Result.StructuredContent, out); err != nil {
			t.Fatal(err)
		}
		return ""
	}
}

// rawText is a tool result's text, as the raw client reads it.
type rawText struct {
	Text string `json:"text"`
}

// A session that negotiated a version of MCP with batches (before
// 2025-06-18) gets a batch answered element by element, as JSON-RPC 2.0
// says: one array, an answer per request in the batch's order, an error
// with a null id for each element that is no message, none for
// notifications and responses.
func TestBatches(t *testing.T) {
	s := newServer(t, t.TempDir())
	t.Run("before initialize", func(t *testing.T) {
		c := rawConnect(t, s, 0)
		if got := c.answers(t, 1, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`); !slices.Equal(got, []string{invalidRequest}) {
			t.Errorf("answers %q", got)
		}
	})
	for _, v := range []string{"2024-11-05", "2025-03-26"} {
		t.Run(v, func(t *testing.T) {
			c := rawConnect(t, s, 0)
			c.initialize(t, v)
			for _, tc := range []struct {
				name, line string
				want       []string
			}{
				{"requests and the rest", `[{"jsonrpc":"2.0","id":1,"method":"ping"},5,{"jsonrpc":"2.0","method":"notifications/nothing"},` +
					`{"jsonrpc":"2.0","id":"a","method":"tools/list"},{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"1.0","id":2,"method":"ping"},` +
					`{"jsonrpc":"2.0","id":"b","method":"nothing/here"}]`,
					[]string{`[1 result, null error -32600, "a" result, null error -32600, null error -32600, "b" error -32601]`}},
				{"empty", `[]`, []string{invalidRequest}},
				{"notifications only", `[{"jsonrpc":"2.0","method":"notifications/nothing"},{"jsonrpc":"2.0","id":7,"result":{}}]`, nil},
				{"no message in it", `[1,"two",[]]`, []string{`[null error -32600, null error -32600, null error -32600]`}},
			} {
				t.Run(tc.name, func(t *testing.T) {
					if got := c.answers(t, len(tc.want), tc.line); !slices.Equal(got, tc.want) {
						t.Errorf("answers %q, want %q", got, tc.want)
					}
				})
			}
		})
	}
	t.Run("2025-06-18", func(t *testing.T) {
		c := rawConnect(t, s, 0)
		c.initialize(t, "2025-06-18")
		if got := c.answers(t, 1, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`); !slices.Equal(got, []string{invalidRequest}) {
			t.Errorf("answers %q", got)
		}
	})
}

// Any line, then a ping: the ping is answered, and everything the server
// wrote before it is JSON-RPC 2.0.
func FuzzTransport(f *testing.F) {
	for _, seed := range []string{
		"not json",
		`{"jsonrpc":"2.0","id":2,"method":`,
		`[{"jsonrpc":"2.0","id":5,"method":"ping"}]`,
		`[]`,
		`{"jsonrpc":"1.0","id":7,"method":"ping"}`,
		`"hello"`,
		`{"jsonrpc":"2.0","id":{},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":8}`,
		strings.Repeat("[", 2000) + strings.Repeat("]", 2000),
		nested("deep", MaxDepth),
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"check_stop","arguments":{"message":"## What I Just Did\n"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"a","version":"1"}}}` + "\n" +
			`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		"\x00\xff\n\r\n{}",
	} {
		f.Add(seed)
	}
	s, err := New(Options{Root: f.TempDir()})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c := rawConnect(t, s, 1<<16)
		c.send(t, in, `{"jsonrpc":"2.0","id":"fuzz-final","method":"ping"}`)
		for {
			line := c.next(t)
			if shape(t, line) == `"fuzz-final" result` {
				return
			}
		}
	})
}

// members and elements read a valid JSON object's members and an array's
// elements as encoding/json reads them.
func FuzzMembers(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":[1,"]",{"}":"\""}]}}`,
		` { "a" : 1 , "a" : "two" , "\u0062" : [ ] } `,
		`[1, "two", [3], {"four": 4}, null, true, -5.5e3]`,
		`[]`, `{}`, `["\\", "\\\""]`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		raw := bytes.TrimSpace([]byte(in))
		if !json.Valid(raw) {
			return
		}
		switch raw[0] {
		case '{':
			var want map[string]json.RawMessage
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			got := members(raw)
			if len(got) != len(want) {
				t.Fatalf("%d members, want %d: %q", len(got), len(want), got)
			}
			for k, v := range want {
				if !bytes.Equal(got[k], v) {
					t.Errorf("member %q is %s, want %s", k, got[k], v)
				}
			}
		case '[':
			var want []json.RawMessage
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			got := elements(raw)
			if len(got) != len(want) {
				t.Fatalf("%d elements, want %d: %q", len(got), len(want), got)
			}
			for i := range want {
				if !bytes.Equal(got[i], want[i]) {
					t.Errorf("element %d is %s, want %s", i, got[i], want[i])
				}
			}
		}
	})
}
