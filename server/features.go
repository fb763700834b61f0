package server

import (
	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/markdown"
	"go.lsp.dev/protocol"
)

// The editor features are computed in each document kind's package
// (analysis.Features); the server picks the kind's and converts byte spans
// and results to the protocol's.

// featuresOf are the editor features of a document kind (engine.Kinds);
// nil for Markdown of no kind baton knows.
func featuresOf(k markdown.Kind) *analysis.Features { return engine.FeaturesOf(k) }

// features is featuresOf the snapshot's document, never nil.
func (snap *snapshot) features() *analysis.Features {
	if f := featuresOf(snap.res.Doc.Kind); f != nil {
		return f
	}
	return &noFeatures
}

var noFeatures analysis.Features

var completionKinds = [...]protocol.CompletionItemKind{
	analysis.CompleteText:     protocol.CompletionItemKindText,
	analysis.CompleteSnippet:  protocol.CompletionItemKindSnippet,
	analysis.CompleteKeyword:  protocol.CompletionItemKindKeyword,
	analysis.CompleteClass:    protocol.CompletionItemKindClass,
	analysis.CompleteProperty: protocol.CompletionItemKindProperty,
	analysis.CompleteFile:     protocol.CompletionItemKindFile,
}

func (m mapper) completionItem(it analysis.CompletionItem) protocol.CompletionItem {
	out := protocol.CompletionItem{
		Label: it.Label, Kind: completionKinds[it.Kind],
		TextEdit: &protocol.TextEdit{Range: m.rangeOf(it.Edit.Span), NewText: it.Edit.NewText},
	}
	if it.Detail != "" {
		out.Detail = protocol.NewOptional(it.Detail)
	}
	if it.SortText != "" {
		out.SortText = protocol.NewOptional(it.SortText)
	}
	if it.FilterText != "" {
		out.FilterText = protocol.NewOptional(it.FilterText)
	}
	return out
}

var symbolKinds = [...]protocol.SymbolKind{
	analysis.SymbolSection:  protocol.SymbolKindString,
	analysis.SymbolModule:   protocol.SymbolKindModule,
	analysis.SymbolEvent:    protocol.SymbolKindEvent,
	analysis.SymbolFunction: protocol.SymbolKindFunction,
	analysis.SymbolVariable: protocol.SymbolKindVariable,
}

func (m mapper) symbols(syms []analysis.Symbol) []protocol.DocumentSymbol {
	var out []protocol.DocumentSymbol
	for _, s := range syms {
		sym := protocol.DocumentSymbol{
			Name: s.Name, Kind: symbolKinds[s.Kind],
			Range: m.rangeOf(s.Span), SelectionRange: m.rangeOf(s.Selection),
			Children: m.symbols(s.Children),
		}
		if s.Detail != "" {
			detail := s.Detail
			sym.Detail = &detail
		}
		out = append(out, sym)
	}
	return out
}
