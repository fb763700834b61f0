package server

import (
	"context"
	"strings"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/stopintent"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// fixAllKind applies every safe fix of a document at once.
const fixAllKind protocol.CodeActionKind = "source.fixAll.baton"

// codeActions offers the fixes of every finding that overlaps the range;
// in a stop message, markers to insert; and, when asked for source
// actions, every safe fix at once.
func (s *Server) codeActions(ctx context.Context, p *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	out := []protocol.CommandOrCodeAction{}
	snap, ok := s.snapshot(p.TextDocument.URI)
	if !ok {
		return out, nil
	}
	doc := snap.res.Doc
	m := mapper{doc.Lines, snap.enc}
	lo, hi := m.offset(p.Range.Start), m.offset(p.Range.End)
	want := func(k protocol.CodeActionKind) bool {
		if len(p.Context.Only) == 0 {
			return k != fixAllKind // source actions only when asked for
		}
		for _, o := range p.Context.Only {
			if k == o || strings.HasPrefix(string(k), string(o)+".") {
				return true
			}
		}
		return false
	}
	action := func(title string, kind protocol.CodeActionKind, edits []analysis.Edit, diags []protocol.Diagnostic, preferred bool) *protocol.CodeAction {
		k := kind
		a := &protocol.CodeAction{Title: title, Kind: &k, Diagnostics: diags, Edit: s.workspaceEdit(p.TextDocument.URI, m, edits)}
		if preferred {
			a.IsPreferred = ptr(true)
		}
		return a
	}

	diags := s.diagnostics(snap)
	if want(protocol.CodeActionKindQuickFix) {
		for i, f := range snap.res.Findings {
			if f.Span.End < lo || f.Span.Start > hi {
				continue
			}
			for _, fix := range f.Fixes {
				out = append(out, action(fix.Title, protocol.CodeActionKindQuickFix, fix.Edits, []protocol.Diagnostic{diags[i]}, fix.Safe && len(f.Fixes) == 1))
			}
		}
	}
	if want(protocol.CodeActionKindRefactorRewrite) {
		for _, a := range stopintent.Insertions(snap.res, lo) {
			out = append(out, action(a.Title, protocol.CodeActionKindRefactorRewrite, a.Edits, nil, false))
		}
	}
	if want(fixAllKind) {
		// The one fix policy: what `baton check --fix` writes, as one edit.
		fixed := analysis.FixAll(func(text string) *analysis.Result {
			if text == doc.Text {
				return snap.res
			}
			return s.analyzeText(p.TextDocument.URI, text)
		}, doc.Text)
		if edits := analysis.DiffEdit(doc.Text, fixed.Doc.Text); len(edits) > 0 {
			out = append(out, action("Fix all safe baton findings", fixAllKind, edits, nil, false))
		}
	}
	return out, nil
}

func (s *Server) workspaceEdit(u uri.URI, m mapper, edits []analysis.Edit) *protocol.WorkspaceEdit {
	tes := make([]protocol.TextEdit, len(edits))
	for i, e := range edits {
		tes[i] = protocol.TextEdit{Range: m.rangeOf(e.Span), NewText: e.NewText}
	}
	return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{u: tes}}
}
