// Package markdown is baton's model of a Markdown document: Parse reads a
// text once with goldmark (CommonMark, as the formats' own tools read it)
// into an immutable Document that every rule and editor feature shares:
// its syntax tree, front matter, headings (and the lines specrew reads as
// packet headings), line index and position encodings, a TextEditor that
// applies an editor's changes in place, and the parse's limits.
//
// A document's kind is decided at parse time by the detectors the engine
// sets (SetDetectors), each from its kind's own package; without them every
// document is of no kind. Spans are byte offsets.
package markdown
