package server

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/handoff"
	"go.lsp.dev/protocol"
)

// completion offers, on a heading line of a stop packet, the sections the
// packet under the cursor lacks (in packet order), and after "<!--" the
// markers.
func (s *Server) completion(ctx context.Context, p *protocol.CompletionParams) (protocol.CompletionResult, error) {
	items := protocol.CompletionItemSlice{}
	snap, ok := s.snapshot(p.TextDocument.URI)
	if !ok {
		return items, nil
	}
	doc := snap.res.Doc
	m := mapper{doc.Lines, snap.enc}
	off := m.offset(p.Position)
	line := doc.Lines.LineOf(off)
	start := doc.Lines.LineStart(line)
	prefix := doc.Text[start:off]
	edit := func(from int, text string) protocol.CompletionItemTextEdit {
		return &protocol.TextEdit{Range: protocol.Range{Start: m.position(from), End: m.position(off)}, NewText: text}
	}

	if i := strings.LastIndex(prefix, "<!--"); i >= 0 && !strings.Contains(prefix[i:], "-->") {
		from := start + i
		add := func(label, detail string) {
			items = append(items, protocol.CompletionItem{
				Label: label, Kind: protocol.CompletionItemKindSnippet, Detail: protocol.NewOptional(detail),
				FilterText: protocol.NewOptional(prefix[i:] + label[len("<!--"):]), TextEdit: edit(from, label),
			})
		}
		add(stopintent.ContinueMarker, "stop intent: the agent goes on with authorized work")
		add(stopintent.IntermediateMarker, "stop intent: async work in flight, one progress line")
		from2, to2 := "<from>", "<to>"
		if pm, _ := snap.res.Model(packet.Analyzer).(*packet.Model); pm != nil && len(pm.Packets) > 0 && pm.Packets[0].BoundaryFrom != "" {
			from2, to2 = pm.Packets[0].BoundaryFrom, pm.Packets[0].BoundaryTo
		}
		add(fmt.Sprintf("<!-- SPECREW-VERDICT-BOUNDARY: %s -> %s -->", from2, to2), "verdict marker: the last line of a boundary packet")
		return items, nil
	}

	if items := s.workflowCompletion(snap, off); items != nil {
		return items, nil
	}
	if items, more := ledgerPaths(snap.res, off, prefix, edit, start); items != nil {
		if more {
			// Typing more narrows the list: ask again then.
			return &protocol.CompletionList{IsIncomplete: true, Items: items}, nil
		}
		return items, nil
	}
	t := strings.TrimLeft(prefix, " ")
	rest := strings.TrimLeft(t, "#")
	hashes := len(t) - len(rest)
	switch {
	case len(prefix)-len(t) > 3, t != "" && hashes == 0, hashes > 6, rest != "" && rest[0] != ' ':
		return items, nil // not the start of a heading
	case doc.Kind != analysis.KindPacket && strings.TrimSpace(doc.Text) != strings.TrimSpace(prefix):
		return items, nil // other Markdown: no packet sections to offer
	}
	missing := missingSections(snap.res, off)
	for k, title := range missing {
		items = append(items, protocol.CompletionItem{
			Label: "## " + title, Kind: protocol.CompletionItemKindKeyword,
			Detail:     protocol.NewOptional("stop packet section"),
			SortText:   protocol.NewOptional(fmt.Sprintf("%02d", k)),
			FilterText: protocol.NewOptional(t + title),
			TextEdit:   edit(start, "## "+title),
		})
	}
	return items, nil
}

// missingSections are the section titles the packet at offset lacks, in
// packet order; every title when the document has no packet yet.
func missingSections(res *analysis.Result, off int) []string {
	pm, _ := res.Model(packet.Analyzer).(*packet.Model)
	var pk *packet.Packet
	if pm != nil {
		for _, p := range pm.Packets {
			if off >= p.Span.Start {
				pk = p
			}
		}
	}
	var out []string
	for i, title := range analysis.PacketHeadings {
		if pk != nil && pk.Section(i) != nil {
			continue
		}
		if pk != nil && i == packet.DiscussionPrompts {
			if boundary, _ := pk.Boundary(); !boundary {
				continue // a material-work packet has no Discussion Prompts
			}
		}
		out = append(out, title)
	}
	return out
}

// maxPathItems is the most ledger paths one completion offers; with more,
// the list is marked incomplete and typing narrows it.
const maxPathItems = 200

// ledgerPaths offers, in an item of a handoff document's ## Files, the
// paths of the session's read ledger not listed yet that hold what was
// typed after "- `" (any case): it completes the path and closes the
// backtick. more is true when there were more than maxPathItems.
func ledgerPaths(res *analysis.Result, off int, prefix string, edit func(int, string) protocol.CompletionItemTextEdit, lineStart int) (items protocol.CompletionItemSlice, more bool) {
	hm, _ := res.Model(handoff.Analyzer).(*handoff.Model)
	if hm == nil || hm.Lookup == nil || hm.Lookup.Ledger == nil {
		return nil, false
	}
	sec := hm.Doc.SectionAt(off)
	if sec == nil || sec.Name != handoff.Files {
		return nil, false
	}
	t := strings.TrimLeft(prefix, " ")
	if !strings.HasPrefix(t, "- `") || strings.Count(t, "`") != 1 {
		return nil, false
	}
	from := lineStart + len(prefix) - len(t) + len("- `")
	typed := strings.ToLower(t[len("- `"):])
	listed := map[string]bool{}
	for _, it := range hm.Doc.Items(handoff.Files) {
		listed[it.Path] = true
	}
	var paths []string
	for p := range hm.Lookup.Ledger.Paths {
		if !listed[p] && p != "." && (typed == "" || strings.Contains(strings.ToLower(p), typed)) {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	if len(paths) > maxPathItems {
		paths, more = paths[:maxPathItems], true
	}
	items = protocol.CompletionItemSlice{}
	for _, p := range paths {
		items = append(items, protocol.CompletionItem{
			Label: p, Kind: protocol.CompletionItemKindFile,
			Detail:   protocol.NewOptional("in the session's read ledger"),
			TextEdit: edit(from, p+"`: "),
		})
	}
	return items, more
}
