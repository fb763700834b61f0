package server_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/server"
	"go.lsp.dev/protocol"
)

// syncBuffer is a log destination the server's goroutines may share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// A panic in an analyzer during the background analysis that follows an
// edit does not end the server: the edit's diagnostics say
// baton/internal-error (with the other analyzers' findings), the log has
// the stack, and the next request is served.
func TestAnalyzerPanicAfterEdit(t *testing.T) {
	crash := &analysis.Analyzer{
		Name: "crash",
		Kind: markdown.KindPacket,
		Run: func(p *analysis.Pass) any {
			if strings.Contains(p.Doc.Text, "PANIC") {
				panic("the test analyzer met PANIC")
			}
			return nil
		},
	}
	reg, err := analysis.NewRegistry(append(engine.Analyzers(), crash)...)
	if err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	c := startWith(t, server.Options{Registry: reg, Version: "test", Logger: slog.New(slog.NewTextHandler(&log, nil))})
	c.initialize(pushCaps(), "")
	c.open(docURI, missingWhy)
	if p := c.waitPush(docURI, version(1)); !slices.Equal(codes(p.Diagnostics), []string{"packet/missing-section"}) {
		t.Fatalf("version 1: %v", codes(p.Diagnostics))
	}
	c.change(docURI, 2, &protocol.TextDocumentContentChangeWholeDocument{Text: missingWhy + "\nPANIC\n"})
	p := c.waitPush(docURI, version(2))
	if got := codes(p.Diagnostics); !slices.Equal(got, []string{"baton/internal-error", "packet/missing-section"}) {
		t.Fatalf("version 2: %v, want the internal error and packet's finding", got)
	}
	d := p.Diagnostics[0]
	if d.Severity != protocol.DiagnosticSeverityError || d.Range.Start != (protocol.Position{}) ||
		!strings.Contains(fmt.Sprint(d.Message), "internal error in analyzer crash: the test analyzer met PANIC") {
		t.Errorf("internal-error diagnostic = %+v", d)
	}
	if l := log.String(); !strings.Contains(l, "internal error in analyzer crash") || !strings.Contains(l, "internalerror_test.go") {
		t.Errorf("log has no line with the stack:\n%s", l)
	}

	var syms []protocol.DocumentSymbol
	if err := c.call(protocol.MethodTextDocumentDocumentSymbol, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: docURI}}, &syms); err != nil || len(syms) == 0 {
		t.Fatalf("documentSymbol after the panic: %v, %d symbols", err, len(syms))
	}
	c.change(docURI, 3, &protocol.TextDocumentContentChangeWholeDocument{Text: missingWhy})
	if p := c.waitPush(docURI, version(3)); !slices.Equal(codes(p.Diagnostics), []string{"packet/missing-section"}) {
		t.Errorf("version 3, without PANIC: %v", codes(p.Diagnostics))
	}
}
