package server_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// tracesOf returns the $/logTrace messages received so far that name u at
// version v.
func (c *client) tracesOf(u string, v int32) []protocol.LogTraceParams {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []protocol.LogTraceParams
	for _, p := range c.traces {
		if strings.Contains(p.Message, " "+u+" version "+strconv.Itoa(int(v))+" ") {
			out = append(out, p)
		}
	}
	return out
}

// TestTraceTimesEachPublish: with trace on, each publishDiagnostics is
// followed by a $/logTrace saying how long after the version was received
// it was sent (the editor latency of that edit); verbose adds where the time
// went; $/setTrace turns it off, and nothing is traced then.
func TestTraceTimesEachPublish(t *testing.T) {
	c := start(t)
	c.trace = protocol.TraceValueMessages
	c.initialize(pushCaps(), `{"debounce": 0}`)
	u := "file:///tmp/trace/p.md"
	c.open(uri.URI(u), "# Notes\n\nsome text\n")
	c.waitPush(uri.URI(u), version(1))
	waitTrace := func(v int32) protocol.LogTraceParams {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second) // a hang guard, not a timing
		for time.Now().Before(deadline) {
			if ts := c.tracesOf(u, v); len(ts) > 0 {
				return ts[0]
			}
			time.Sleep(time.Millisecond)
		}
		t.Fatalf("no $/logTrace for version %d", v)
		return protocol.LogTraceParams{}
	}
	tr := waitTrace(1)
	if !strings.HasPrefix(tr.Message, "publishDiagnostics "+u+" version 1 (0 diagnostics): sent ") ||
		!strings.HasSuffix(tr.Message, " after the version was received") {
		t.Errorf("trace = %q", tr.Message)
	}
	sent := strings.TrimSuffix(strings.SplitN(tr.Message, ": sent ", 2)[1], " after the version was received")
	if d, err := time.ParseDuration(sent); err != nil || d <= 0 {
		t.Errorf("the trace's time %q is not a positive duration: %v", sent, err)
	}
	if tr.Verbose != nil {
		t.Errorf("trace messages carries a verbose part: %q", *tr.Verbose)
	}

	c.notify(protocol.MethodSetTrace, &protocol.SetTraceParams{Value: protocol.TraceValueVerbose})
	c.change(uri.URI(u), 2, &protocol.TextDocumentContentChangeWholeDocument{Text: "# Notes\n\nmore text\n"})
	c.waitPush(uri.URI(u), version(2))
	if tr := waitTrace(2); tr.Verbose == nil || !strings.Contains(*tr.Verbose, "analysis (parse and rules) ") {
		t.Errorf("verbose trace = %+v", tr)
	}

	// Off: a publish is followed by its trace before the next publish goes
	// out, so none for versions 3 and 4 by the time version 4 is published
	// means none at all.
	c.notify(protocol.MethodSetTrace, &protocol.SetTraceParams{Value: protocol.TraceValueOff})
	c.change(uri.URI(u), 3, &protocol.TextDocumentContentChangeWholeDocument{Text: "# Notes\n\nthird\n"})
	c.waitPush(uri.URI(u), version(3))
	c.change(uri.URI(u), 4, &protocol.TextDocumentContentChangeWholeDocument{Text: "# Notes\n\nfourth\n"})
	c.waitPush(uri.URI(u), version(4))
	if ts := append(c.tracesOf(u, 3), c.tracesOf(u, 4)...); len(ts) > 0 {
		t.Errorf("trace off, yet %+v", ts)
	}
	// A value the specification does not name is off too.
	c.notify(protocol.MethodSetTrace, &protocol.SetTraceParams{Value: "loud"})
	c.change(uri.URI(u), 5, &protocol.TextDocumentContentChangeWholeDocument{Text: "# Notes\n\nfifth\n"})
	c.waitPush(uri.URI(u), version(5))
	c.change(uri.URI(u), 6, &protocol.TextDocumentContentChangeWholeDocument{Text: "# Notes\n\nsixth\n"})
	c.waitPush(uri.URI(u), version(6))
	if ts := c.tracesOf(u, 5); len(ts) > 0 {
		t.Errorf("trace %q, yet %+v", "loud", ts)
	}
}

// TestNoTraceByDefault: a client that does not ask for trace gets none.
func TestNoTraceByDefault(t *testing.T) {
	c := start(t)
	c.initialize(pushCaps(), `{"debounce": 0}`)
	u := uri.URI("file:///tmp/trace/q.md")
	c.open(u, "# Notes\n")
	c.waitPush(u, version(1))
	c.change(u, 2, &protocol.TextDocumentContentChangeWholeDocument{Text: "# Notes\n\nx\n"})
	c.waitPush(u, version(2))
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.traces) > 0 {
		t.Errorf("no trace asked for, yet %+v", c.traces)
	}
}
