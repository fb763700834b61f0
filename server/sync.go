package server

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// document is an open text document: the latest text the client sent and
// the analysis of the latest version, once computed.
type document struct {
	version  int32
	text     string
	path     string              // the file path of a file:// URI, else ""
	received time.Time           // when version arrived (didOpen or didChange)
	applied  time.Time           // when it was applied and its analysis scheduled
	lines    *markdown.LineIndex // of text, for applying the next edits
	timer    *time.Timer         // pending debounced analysis
	// pub orders the document's publishDiagnostics, so that a stale
	// result never follows a newer one or the [] sent on close. Each
	// document has its own: one document's publish, held up writing,
	// does not hold up another's.
	pub sync.Mutex

	result    *analysis.Result // analysis of resultVer under settings resultGen; nil once evicted (results.go)
	kind      markdown.Kind    // of the latest analysis, kept when its result is evicted
	resultVer int32
	resultGen int
	resultEnv string // what the environment knew then
}

func (s *Server) didOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	received := time.Now()
	td := p.TextDocument
	// The decoder's strings may point into the whole message it read (the
	// URI, unescaped, is a slice of it): a URI kept as the document's key
	// then kept the message, a second copy of the text, alive while the
	// document was open. The key is a string of its own.
	td.URI = uri.URI(strings.Clone(string(td.URI)))
	s.mu.Lock()
	if old := s.docs[td.URI]; old != nil && old.timer != nil {
		old.timer.Stop()
	}
	text := s.texts.store(td.Text)
	d := &document{version: td.Version, text: text, lines: markdown.NewLineIndex(text), received: received, applied: received}
	if len(td.URI) > 7 && string(td.URI[:7]) == "file://" {
		d.path = td.URI.FsPath()
	}
	s.docs[td.URI] = d
	s.mu.Unlock()
	s.analyzeNow(td.URI)
	return nil
}

func (s *Server) didChange(ctx context.Context, p *protocol.DidChangeTextDocumentParams) error {
	received := time.Now()
	u := p.TextDocument.URI
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[u]
	if d == nil {
		return fmt.Errorf("didChange for %s, which is not open", u)
	}
	if p.TextDocument.Version <= d.version {
		// Versions only increase; an older one is a stale or replayed
		// message, and applying it would corrupt the text.
		return fmt.Errorf("didChange for %s: version %d is not newer than %d", u, p.TextDocument.Version, d.version)
	}
	text, lines, err := applyChanges(d.text, d.lines, s.enc, p.ContentChanges, func(r protocol.Range) {
		s.log.Warn("change range outside the document; clamped", "uri", u, "range", r)
	})
	if err != nil {
		return fmt.Errorf("didChange for %s: %w", u, err)
	}
	d.text, d.lines, d.version, d.received, d.applied = text, lines, p.TextDocument.Version, received, time.Now()
	s.scheduleLocked(u, d)
	if d.kind == markdown.KindWorkflow {
		// Other open workflows may call this component: re-lint them too.
		s.workflowGen++
		for o, od := range s.docs {
			if o != u && od.kind == markdown.KindWorkflow {
				s.scheduleLocked(o, od)
			}
		}
	}
	return nil
}

func (s *Server) didSave(ctx context.Context, p *protocol.DidSaveTextDocumentParams) error {
	s.analyzeNow(p.TextDocument.URI)
	return nil
}

func (s *Server) didClose(ctx context.Context, p *protocol.DidCloseTextDocumentParams) error {
	u := p.TextDocument.URI
	s.mu.Lock()
	d := s.docs[u]
	if d != nil && d.timer != nil {
		d.timer.Stop()
	}
	delete(s.docs, u)
	s.forgetLocked(u)
	s.mu.Unlock()

	if d != nil {
		d.pub.Lock() // after a publish of it being written; none follows
		defer d.pub.Unlock()
	}
	return s.client.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: []protocol.Diagnostic{}})
}

// applyChanges applies a didChange's changes in order, each at positions
// of the text the ones before it made. Nothing is applied when one is
// malformed: the document keeps its last good version. A run of partial
// changes is applied in place (markdown.TextEditor): one copy of the text,
// not one per change. A large text is edited in a recycled buffer
// (largeTexts), and its line starts are updated around the edit, not found
// again in the whole text.
func applyChanges(text string, lines *markdown.LineIndex, enc markdown.Encoding, changes []protocol.TextDocumentContentChangeEvent, clamped func(protocol.Range)) (string, *markdown.LineIndex, error) {
	var ed *markdown.TextEditor
	pooled := false
	flush := func() {
		switch {
		case ed == nil:
		case pooled:
			text, lines = ed.ResultWith(largeTexts.seal)
		default:
			text, lines = ed.Result()
		}
		ed = nil
	}
	for i, ch := range changes {
		switch ch := ch.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			ed = nil
			text, lines = ch.Text, markdown.NewLineIndex(ch.Text)
		case *protocol.TextDocumentContentChangePartial:
			if ed == nil && len(changes) == 1 && len(text) <= textMaxPacked {
				// The common case, one keystroke: a copy with the change.
				t, exact, err := applyChange(text, lines, enc, ch.Range, ch.Text)
				if err != nil {
					return "", nil, fmt.Errorf("change %d: %w", i, err)
				}
				if !exact {
					clamped(ch.Range)
				}
				text, lines = t, markdown.NewLineIndex(t)
				continue
			}
			if ed == nil {
				if pooled = len(text) > textMaxPacked; pooled {
					ed = markdown.NewTextEditorIn(largeTexts.get(len(text)+len(ch.Text)), text, lines)
				} else {
					ed = markdown.NewTextEditor(text, lines)
				}
			}
			start, ok1 := ed.Offset(position(ch.Range.Start), enc)
			end, ok2 := ed.Offset(position(ch.Range.End), enc)
			if end < start {
				r := ch.Range
				return "", nil, fmt.Errorf("change %d: range %d:%d-%d:%d ends before it starts", i, r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
			}
			if !ok1 || !ok2 {
				clamped(ch.Range)
			}
			ed.Replace(start, end, ch.Text)
		default:
			return "", nil, fmt.Errorf("change %d has no text", i)
		}
	}
	flush()
	return text, lines, nil
}

// applyChange replaces a range of text, given in enc, by newText. A range
// past the end of a line or of the text is clamped (exact is false); a range
// whose end comes before its start is an error.
func applyChange(text string, lines *markdown.LineIndex, enc markdown.Encoding, r protocol.Range, newText string) (result string, exact bool, err error) {
	start, ok1 := lines.Offset(position(r.Start), enc)
	end, ok2 := lines.Offset(position(r.End), enc)
	if end < start {
		return text, false, fmt.Errorf("range %d:%d-%d:%d ends before it starts", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
	}
	var b strings.Builder
	b.Grow(len(text) - (end - start) + len(newText))
	b.WriteString(text[:start])
	b.WriteString(newText)
	b.WriteString(text[end:])
	return b.String(), ok1 && ok2, nil
}

func position(p protocol.Position) markdown.Position {
	return markdown.Position{Line: int(p.Line), Character: int(p.Character)}
}
