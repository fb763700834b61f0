package server

import (
	"context"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// snapshot is one version of a document with its analysis.
type snapshot struct {
	uri     uri.URI
	doc     *document // the open document it is of
	version int32
	gen     int
	envKey  string
	enc     markdown.Encoding
	res     *analysis.Result
	took    time.Duration // the analysis, when this snapshot made it (0: reused)
}

// scheduleLocked (re)starts the debounce timer of a document after an edit.
// s.mu must be held.
func (s *Server) scheduleLocked(u uri.URI, d *document) {
	if d.timer != nil {
		d.timer.Stop()
	}
	if !s.pushing() {
		return
	}
	d.timer = time.AfterFunc(s.settings.debounce, func() { s.publish(u) })
}

// analyzeNow analyses a document and publishes its diagnostics without
// waiting, off the read loop.
func (s *Server) analyzeNow(u uri.URI) {
	s.mu.Lock()
	d := s.docs[u]
	if d != nil && d.timer != nil {
		d.timer.Stop()
	}
	push := s.pushing() && s.state == initialized
	if push {
		s.wg.Add(1)
	}
	s.mu.Unlock()
	if !push {
		return
	}
	go func() {
		defer s.wg.Done()
		s.analyses <- struct{}{} // at most GOMAXPROCS at once: 1,000 documents opened together must not all be analysed at once
		defer func() { <-s.analyses }()
		s.publish(u)
	}()
}

// pushing reports whether diagnostics are pushed. s.mu must be held.
func (s *Server) pushing() bool {
	switch s.settings.mode {
	case "push", "both":
		return true
	case "pull":
		return false
	}
	return !s.clientPull
}

func (s *Server) stopTimers() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		if d.timer != nil {
			d.timer.Stop()
		}
	}
}

// snapshot returns the analysis of the current version of a document,
// computing it (outside the lock) when it is not cached.
func (s *Server) snapshot(u uri.URI) (*snapshot, bool) {
	s.mu.Lock()
	d := s.docs[u]
	if d == nil {
		s.mu.Unlock()
		return nil, false
	}
	snap := &snapshot{uri: u, doc: d, version: d.version, gen: s.settings.gen, enc: s.enc}
	s.mu.Unlock()
	env, envKey, f := s.envFor(u)
	snap.envKey = envKey
	s.mu.Lock()
	if d.result != nil && d.resultVer == snap.version && d.resultGen == snap.gen && d.resultEnv == envKey {
		snap.res = d.result
		s.keepLocked(u)
		s.mu.Unlock()
		return snap, true
	}
	text, lines, client := d.text, d.lines, s.settings.config
	s.mu.Unlock()

	var docPath string
	if len(u) > 7 && string(u[:7]) == "file://" {
		docPath = u.FsPath()
	}
	cfg, _ := effective(f, docPath, client)
	t0 := time.Now()
	snap.res = s.opts.Registry.AnalyzeEnv(markdown.ParseIndexed(string(u), text, lines), &cfg, env)
	snap.took = time.Since(t0)
	snap.res.Doc.DropSyntax() // the features read models and spans; the tree is most of a document's memory
	if docPath != "" && f.Ignored(docPath, false) != nil {
		// ignore: in .baton.yaml, as `baton check` skips the file; hover
		// and symbols still read its models.
		snap.res.Findings = nil
	}

	s.mu.Lock()
	if d := s.docs[u]; d != nil && d.version == snap.version && s.settings.gen == snap.gen {
		d.result, d.resultVer, d.resultGen, d.resultEnv = snap.res, snap.version, snap.gen, envKey
		d.kind = snap.res.Doc.Kind
		s.keepLocked(u)
	}
	s.mu.Unlock()
	return snap, true
}

// analyzeText analyses text as the document u would be with that text:
// the same environment and configuration as its snapshot (for the
// editor's fix-all, which re-analyses what its fixes make).
func (s *Server) analyzeText(u uri.URI, text string) *analysis.Result {
	env, _, f := s.envFor(u)
	s.mu.Lock()
	client := s.settings.config
	s.mu.Unlock()
	var docPath string
	if len(u) > 7 && string(u[:7]) == "file://" {
		docPath = u.FsPath()
	}
	cfg, _ := effective(f, docPath, client)
	return s.opts.Registry.AnalyzeEnv(markdown.Parse(string(u), text), &cfg, env)
}

// publish pushes the diagnostics of the current version of a document,
// unless it changed or closed meanwhile (a newer run will publish).
func (s *Server) publish(u uri.URI) {
	start := time.Now()
	snap, ok := s.snapshot(u)
	if !ok {
		return
	}
	diags := s.diagnostics(snap)
	snap.doc.pub.Lock()
	defer snap.doc.pub.Unlock()
	s.mu.Lock()
	d := s.docs[u]
	// The same document (not one closed and opened again since, whose
	// version may be the same), still at the version analysed.
	current := d == snap.doc && d.version == snap.version && s.settings.gen == snap.gen && !s.exited
	trace := s.trace
	var received, applied time.Time
	if current {
		received, applied = d.received, d.applied
	}
	s.mu.Unlock()
	if !current {
		return
	}
	err := s.client.PublishDiagnostics(context.Background(), &protocol.PublishDiagnosticsParams{
		URI:         u,
		Version:     protocol.NewOptional(snap.version),
		Diagnostics: diags,
	})
	if err != nil {
		s.log.Warn("publishDiagnostics failed", "uri", u, "err", err)
		return
	}
	if traceValue(trace) != protocol.TraceValueOff {
		s.tracePublish(trace, snap, len(diags), received, applied, start, time.Now())
	}
}

// tracePublish sends the $/logTrace of a publishDiagnostics: how long after
// the server received the version it went out, which is the editor latency
// of an edit (the debounce included, when there is one). Verbose adds where
// that time went.
func (s *Server) tracePublish(trace protocol.TraceValue, snap *snapshot, n int, received, applied, start, sent time.Time) {
	p := &protocol.LogTraceParams{Message: fmt.Sprintf("publishDiagnostics %s version %d (%d diagnostics): sent %s after the version was received",
		snap.uri, snap.version, n, sent.Sub(received).Round(time.Microsecond))}
	if trace == protocol.TraceValueVerbose {
		analysis := "the analysis of this version was reused"
		if snap.took > 0 {
			analysis = fmt.Sprintf("analysis (parse and rules) %s", snap.took.Round(time.Microsecond))
		}
		v := fmt.Sprintf("applied in %s; waited %s more before the analysis began (debounce, other work); %s; converting and sending %s",
			applied.Sub(received).Round(time.Microsecond), start.Sub(applied).Round(time.Microsecond), analysis,
			(sent.Sub(start) - snap.took).Round(time.Microsecond))
		p.Verbose = &v
	}
	if err := s.client.LogTrace(context.Background(), p); err != nil {
		s.log.Warn("logTrace failed", "err", err)
	}
}

// setTrace handles $/setTrace.
func (s *Server) setTrace(ctx context.Context, p *protocol.SetTraceParams) error {
	s.mu.Lock()
	s.trace = traceValue(p.Value)
	s.mu.Unlock()
	return nil
}

// traceValue is v when it is one the specification names, else off.
func traceValue(v protocol.TraceValue) protocol.TraceValue {
	switch v {
	case protocol.TraceValueMessages, protocol.TraceValueVerbose:
		return v
	}
	return protocol.TraceValueOff
}

// diagnostics converts a snapshot's findings for the wire.
func (s *Server) diagnostics(snap *snapshot) []protocol.Diagnostic {
	m := mapper{snap.res.Doc.Lines, snap.enc}
	out := make([]protocol.Diagnostic, 0, len(snap.res.Findings))
	for _, f := range snap.res.Findings {
		d := protocol.Diagnostic{
			Range:    m.rangeOf(f.Span),
			Severity: severity(f.Severity),
			Code:     protocol.String(f.Rule),
			Source:   protocol.NewOptional("baton"),
			Message:  protocol.String(f.Message),
		}
		if href, err := uri.Parse(s.ruleURL(f.Rule)); err == nil {
			d.CodeDescription = protocol.CodeDescription{Href: href}
		}
		for _, r := range f.Related {
			d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: snap.uri, Range: m.rangeOf(r.Span)},
				Message:  r.Message,
			})
		}
		out = append(out, d)
	}
	return out
}

func (s *Server) ruleURL(id string) string {
	return s.opts.DocsURL + "#" + analysis.Anchor(id)
}

func severity(s analysis.Severity) protocol.DiagnosticSeverity {
	switch s {
	case analysis.Error:
		return protocol.DiagnosticSeverityError
	case analysis.Warning:
		return protocol.DiagnosticSeverityWarning
	case analysis.Info:
		return protocol.DiagnosticSeverityInformation
	}
	return protocol.DiagnosticSeverityHint
}

// pullDiagnostics answers textDocument/diagnostic. The result ID names the
// document version and settings generation, so an unchanged document
// answers "unchanged".
func (s *Server) pullDiagnostics(ctx context.Context, p *protocol.DocumentDiagnosticParams) (protocol.DocumentDiagnosticReport, error) {
	u := p.TextDocument.URI
	if p.PreviousResultID != nil {
		// Unchanged is known before any analysis: a document whose analysis
		// is no longer kept is not analysed again to say so.
		s.mu.Lock()
		d := s.docs[u]
		var v int32
		var gen int
		if d != nil {
			v, gen = d.version, s.settings.gen
		}
		s.mu.Unlock()
		if d != nil {
			_, envKey, _ := s.envFor(u)
			if id := resultID(v, gen, envKey); *p.PreviousResultID == id {
				return &protocol.RelatedUnchangedDocumentDiagnosticReport{
					UnchangedDocumentDiagnosticReport: protocol.UnchangedDocumentDiagnosticReport{
						Kind: string(protocol.DocumentDiagnosticReportKindUnchanged), ResultID: id,
					},
				}, nil
			}
		}
	}
	snap, ok := s.snapshot(u)
	if !ok {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "document %s is not open", u)
	}
	id := resultID(snap.version, snap.gen, snap.envKey)
	return &protocol.RelatedFullDocumentDiagnosticReport{
		FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{
			Kind: string(protocol.DocumentDiagnosticReportKindFull), ResultID: &id, Items: s.diagnostics(snap),
		},
	}, nil
}

// resultID names a pulled report: the document's version, the settings and
// what its environment knew.
func resultID(version int32, gen int, envKey string) string {
	h := fnv.New32a()
	h.Write([]byte(envKey))
	return fmt.Sprintf("%d.%d.%x", version, gen, h.Sum32())
}

// mapper converts byte spans to positions in the negotiated encoding.
type mapper struct {
	lines *markdown.LineIndex
	enc   markdown.Encoding
}

func (m mapper) position(offset int) protocol.Position {
	p := m.lines.Position(offset, m.enc)
	return protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}
}

func (m mapper) rangeOf(s markdown.Span) protocol.Range {
	return protocol.Range{Start: m.position(s.Start), End: m.position(s.End)}
}

func (m mapper) offset(p protocol.Position) int {
	off, _ := m.lines.Offset(position(p), m.enc)
	return off
}
