package analysis

import "github.com/baton-md/baton/markdown"

// A Confirmer recognises from its environment a document that its text
// alone left of no kind (an XMD component that resolves to a file of the
// workspace): ok and why as a markdown.Detector would say, at the span
// that decided. When it does not, why may say what it looked for, and at
// where.
type Confirmer struct {
	Kind    markdown.Kind
	Confirm func(*markdown.Document, Env) (why string, at markdown.Span, ok bool)
}

// confirmers are the kinds' own, set by the engine (SetConfirmers).
var confirmers []Confirmer

// SetConfirmers sets the confirmers KindIn asks, in order. It is for the
// engine's kind values, at start-up.
func SetConfirmers(cs []Confirmer) { confirmers = cs }

// KindIn is the kind of doc in its environment: the kind cfg forces (a
// .baton.yaml override's kind), else the kind its text shows, else the
// kind a detector's Confirm finds in env. The document is returned as it
// is when its kind stands, else as a copy that differs only in Kind and
// KindWhy (a document is shared and never changed).
func KindIn(doc *markdown.Document, cfg *Config, env Env) *markdown.Document {
	if cfg != nil && cfg.Kind != nil {
		if *cfg.Kind == doc.Kind {
			return doc
		}
		return withKind(doc, *cfg.Kind, "the configuration says so ("+cfg.KindFrom+")", markdown.Span{})
	}
	if doc.Kind != markdown.KindOther || len(doc.Components) == 0 || doc.TooLarge > 0 {
		return doc
	}
	other, otherAt := "", doc.Components[0].Span
	for _, det := range confirmers {
		why, at, ok := det.Confirm(doc, env)
		if ok {
			return withKind(doc, det.Kind, why, at)
		}
		if other == "" {
			other, otherAt = why, at
		}
	}
	if other == "" {
		other = "`<" + doc.Components[0].Name + ">` resolves to no component here, and nothing else shows XMD"
	}
	return withKind(doc, markdown.KindOther, other, otherAt)
}

func withKind(doc *markdown.Document, k markdown.Kind, why string, at markdown.Span) *markdown.Document {
	c := *doc
	c.Kind, c.KindWhy, c.KindSpan = k, why, at
	return &c
}
