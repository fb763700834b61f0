package server_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// The soak: 8 clients, each with its own in-process server (server.Run over
// pipes), edit and request concurrently for a bounded time, under the race
// detector in `make test`. Afterwards every server has exited with 0 and
// the number of goroutines is back to what it was before.
//
//	go test -race ./server/ -run TestSoak -soak 2m     (make soak)
//	BATON_SOAK=30s go test -race ./server/ -run TestSoak

var soakFor = flag.Duration("soak", 0, "how long TestSoak runs (default 2s, or $BATON_SOAK)")

func soakDuration(t *testing.T) time.Duration {
	if *soakFor > 0 {
		return *soakFor
	}
	if v := os.Getenv("BATON_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("BATON_SOAK=%q: %v", v, err)
		}
		return d
	}
	if testing.Short() {
		return 500 * time.Millisecond
	}
	return 2 * time.Second
}

// settledGoroutines waits until at most want goroutines run, and returns
// the last count.
func settledGoroutines(want int, within time.Duration) int {
	deadline := time.Now().Add(within)
	for {
		n := runtime.NumGoroutine()
		if n <= want || time.Now().After(deadline) {
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestSoak(t *testing.T) {
	const clients = 8
	runtime.GC()
	baseline := settledGoroutines(0, 200*time.Millisecond) // nothing of ours runs yet
	d := soakDuration(t)
	deadline := time.Now().Add(d)

	var wg sync.WaitGroup
	cs := make([]*client, clients)
	for i := range cs {
		c := start(t)
		if i%2 == 0 {
			c.initialize(pushCaps(), `{"debounce": 5}`)
		} else {
			c.initialize(pullCaps(), "")
		}
		cs[i] = c
	}
	var ops [clients]int
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.Background()
			notify := func(method string, params any) bool {
				if err := c.conn.Notify(ctx, method, params); err != nil {
					t.Errorf("client %d: notify %s: %v", i, method, err)
					return false
				}
				return true
			}
			var docs []uri.URI
			for k := range 3 {
				u := uri.URI(fmt.Sprintf("file:///ws/soak-%d-%d.md", i, k))
				docs = append(docs, u)
				notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{
					TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: "markdown", Version: 1, Text: missingWhy}})
			}
			versions := map[uri.URI]int32{}
			for n := 0; time.Now().Before(deadline); n++ {
				u := docs[n%len(docs)]
				versions[u]++
				v := versions[u] + 1
				var ch protocol.TextDocumentContentChangeEvent = &protocol.TextDocumentContentChangePartial{
					Range: protocol.Range{Start: protocol.Position{Line: 2, Character: 0}, End: protocol.Position{Line: 2, Character: 0}},
					Text:  "x",
				}
				if n%7 == 0 {
					ch = &protocol.TextDocumentContentChangeWholeDocument{Text: missingWhy + strings.Repeat("\nmore text", n%5)}
				}
				if !notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
					TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: v},
					ContentChanges: []protocol.TextDocumentContentChangeEvent{ch},
				}) {
					return
				}
				var raw jsonrpc2.RawMessage
				var err error
				switch n % 4 {
				case 0:
					err = c.call(protocol.MethodTextDocumentHover, hoverAt(u, uint32(n%12), 3), &raw)
				case 1:
					err = c.call(protocol.MethodTextDocumentDiagnostic, &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &raw)
				case 2:
					err = c.call(protocol.MethodTextDocumentDocumentSymbol, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &raw)
				case 3:
					// A request cancelled as soon as it is sent: a result or -32800.
					cctx, cancel := context.WithCancel(ctx)
					done := make(chan error, 1)
					go func() {
						_, err := c.conn.Call(cctx, protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
							TextDocument: protocol.TextDocumentIdentifier{URI: u},
							Range:        protocol.Range{End: protocol.Position{Line: 5}},
						}, &raw)
						done <- err
					}()
					cancel()
					err = <-done
					if err != nil && (ctx.Err() == nil) && strings.Contains(err.Error(), "context canceled") {
						err = nil // the client gave up waiting
					}
					if rpcCode(err) == jsonrpc2.Code(-32800) {
						err = nil
					}
				}
				if err != nil {
					t.Errorf("client %d: request %d: %v", i, n, err)
					return
				}
				ops[i]++
			}
			for _, u := range docs[:1] {
				notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
			}
		}()
	}
	wg.Wait()
	for i, c := range cs {
		if err := c.call(protocol.MethodShutdown, nil, nil); err != nil {
			t.Errorf("client %d: shutdown: %v", i, err)
		}
		if err := c.conn.Notify(context.Background(), protocol.MethodExit, nil); err != nil {
			t.Errorf("client %d: exit: %v", i, err)
		}
	}
	for i, c := range cs {
		select {
		case code := <-c.exit:
			if code != 0 {
				t.Errorf("client %d: server exit code %d, want 0", i, code)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("client %d: server did not exit", i)
		}
		c.conn.Close()
		<-c.conn.Done()
	}
	total := 0
	for _, n := range ops {
		total += n
	}
	t.Logf("%d clients, %v, %d request rounds", clients, d, total)
	if n := settledGoroutines(baseline, 10*time.Second); n > baseline {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		t.Fatalf("%d goroutines after every server exited, %d before:\n%s", n, baseline, buf)
	}
}
