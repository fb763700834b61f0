package server

import (
	"slices"

	"go.lsp.dev/uri"
)

// keptResults is how many documents keep their whole analysis between
// requests: the documents last edited, hovered or asked about. The others
// keep their text and what was published; a request about one analyses it
// again (as long as a parse of it takes), and it joins the kept ones.
//
// An analysis holds the models the features read: the packet's sections
// and consistency facts, the stop's classifier inputs, the headings, the
// findings with their fixes. With 1,000 documents of 16 KB open that was
// about 5 MB beside 16 MB of text, for documents nobody was looking at.
const keptResults = 32

// keepLocked marks u's analysis as the latest used and evicts the analysis
// of the document used longest ago when more than keptResults are kept.
// s.mu must be held.
func (s *Server) keepLocked(u uri.URI) {
	if len(s.recent) > 0 && s.recent[0] == u {
		return
	}
	if i := slices.Index(s.recent, u); i >= 0 {
		copy(s.recent[1:i+1], s.recent[:i])
		s.recent[0] = u
		return
	}
	s.recent = slices.Insert(s.recent, 0, u)
	if len(s.recent) <= keptResults {
		return
	}
	old := s.recent[len(s.recent)-1]
	s.recent[len(s.recent)-1] = ""
	s.recent = s.recent[:len(s.recent)-1]
	if d := s.docs[old]; d != nil {
		d.result = nil
	}
}

// forgetLocked takes a closed document out of the kept ones. s.mu must be
// held.
func (s *Server) forgetLocked(u uri.URI) {
	if i := slices.Index(s.recent, u); i >= 0 {
		s.recent = slices.Delete(s.recent, i, i+1)
	}
}
