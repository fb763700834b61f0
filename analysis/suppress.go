package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/baton-md/baton/internal/ascii"
	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"

	"github.com/yuin/goldmark/ast"
	gtext "github.com/yuin/goldmark/text"
)

// Inline suppressions are HTML comments in a document's own HTML (not in
// code, not in block quotes):
//
//	<!-- baton-disable-next-line RULE[, RULE…] -->   findings starting on the next non-blank line
//	<!-- baton-disable RULE… -->                    findings starting after it …
//	<!-- baton-enable RULE… -->                     … and before this (or the end of the document)
//
// Without rule IDs a comment means every rule. Rule IDs are separated by
// commas or spaces. Every registry honours them, in documents of every kind,
// after all analyzers ran (Registry.AnalyzeEnv); a registry that holds
// SuppressionAnalyzer also reports, under baton/unused-suppression, the
// comments that suppressed nothing and the rule IDs it does not know.

// RuleUnusedSuppression is reported on a suppression comment that does
// nothing.
var RuleUnusedSuppression = &Rule{
	ID:       "baton/unused-suppression",
	Summary:  "A suppression comment suppresses nothing, names an unknown rule, or is not a suppression comment.",
	Severity: Warning,
	Doc: "Findings can be silenced in the document itself with HTML comments (in the document's own HTML: " +
		"comments in code and in block quotes are not suppressions):\n\n" +
		"```markdown\n" +
		"<!-- baton-disable-next-line packet/heading-level -->\n" +
		"### What I Just Did\n\n" +
		"<!-- baton-disable packet/informational-review-item, packet/review-not-held -->\n" +
		"…findings of these two rules that start here are not reported…\n" +
		"<!-- baton-enable packet/informational-review-item, packet/review-not-held -->\n" +
		"```\n\n" +
		"`baton-disable-next-line` silences the findings of the rules it names that start on the next " +
		"non-blank line; `baton-disable` those that start after it, up to a `baton-enable` naming the rule " +
		"(or a bare `baton-enable`), else to the end of the document. Without rule IDs, a comment means every rule. " +
		"Rule IDs are separated by commas or spaces.\n\n" +
		"This rule reports a suppression comment that silenced nothing (the finding it was written for is " +
		"gone, or its rule is configured `off`: remove the comment, or the rule ID from it), a rule ID baton " +
		"does not know (`baton explain` lists them: fix the spelling), and a `baton-…` comment that is not one of " +
		"`baton-disable-next-line`, `baton-disable` and `baton-enable`. A comment never suppresses the finding " +
		"about itself; an earlier comment can (`<!-- baton-disable baton/unused-suppression -->`), or set the " +
		"rule's severity to `off` in the configuration.",
}

// SuppressionAnalyzer declares baton/unused-suppression. It has no work of
// its own: the registry honours suppression comments in every document, and
// when it holds this analyzer it reports the rule itself, after every other
// analyzer ran, on documents of every kind (an analyzer runs on one kind and
// cannot see the findings of the others).
var SuppressionAnalyzer = &Analyzer{
	Name:  "suppression",
	Kind:  markdown.KindOther,
	Rules: []*Rule{RuleUnusedSuppression},
	Run:   func(*Pass) any { return nil },
}

type directiveKind int

const (
	disableNextLine directiveKind = iota
	disableRange
	enableRange
	notADirective // a "baton-…" comment of no known kind
)

var directiveKeywords = map[string]directiveKind{
	"baton-disable-next-line": disableNextLine,
	"baton-disable":           disableRange,
	"baton-enable":            enableRange,
}

// directive is one suppression comment.
type directive struct {
	kind    directiveKind
	span    markdown.Span   // the comment, "<!--" to "-->"
	keyword markdown.Span   // "baton-disable…"
	name    string          // the keyword's text
	tokens  []markdown.Span // what follows the keyword, split at commas and spaces
	all     *entry          // a bare comment (no tokens): every rule
	entries []*entry
	unknown []markdown.Span // tokens naming no rule the registry knows
	target  int             // disableNextLine: the line it applies to, or -1
}

// entry is one rule a disabling directive names (or all of them).
type entry struct {
	d    *directive
	rule string // "" for every rule
	tok  markdown.Span
	used bool
}

var (
	htmlComment   = lazyre.New(`(?s)<!--(.*?)-->`)
	batonKeyword  = lazyre.New(`^\s*(baton-[A-Za-z0-9-]*)`)
	directiveToks = lazyre.New(`[^\s,]+`)
)

// parseDirectives finds the suppression comments of doc, in order.
func (r *Registry) parseDirectives(doc *markdown.Document) []*directive {
	var ds []*directive
	_ = ast.Walk(doc.Root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		start, stop := -1, -1
		switch n := n.(type) {
		case *ast.Blockquote:
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			start, stop = segmentsSpan(n.Lines())
			if n.HasClosure() {
				if start < 0 {
					start = n.ClosureLine.Start
				}
				stop = n.ClosureLine.Stop
			}
		case *ast.RawHTML:
			start, stop = segmentsSpan(n.Segments)
		default:
			return ast.WalkContinue, nil
		}
		if start >= 0 {
			ds = r.appendDirectives(ds, doc, start, stop)
		}
		return ast.WalkContinue, nil
	})
	return ds
}

func segmentsSpan(segs *gtext.Segments) (start, stop int) {
	if segs.Len() == 0 {
		return -1, -1
	}
	return segs.At(0).Start, segs.At(segs.Len() - 1).Stop
}

// appendDirectives reads the suppression comments in doc.Text[start:stop].
func (r *Registry) appendDirectives(ds []*directive, doc *markdown.Document, start, stop int) []*directive {
	html := doc.Text[start:stop]
	if ascii.Index(html, "baton-", len("baton")) < 0 {
		return ds
	}
	for _, m := range htmlComment.FindAllStringSubmatchIndex(html, -1) {
		body := html[m[2]:m[3]]
		k := batonKeyword.FindStringSubmatchIndex(body)
		if k == nil {
			continue
		}
		off := start + m[2] // the body's offset in the text
		d := &directive{span: markdown.Span{Start: start + m[0], End: start + m[1]}, keyword: markdown.Span{Start: off + k[2], End: off + k[3]}, target: -1}
		d.name = doc.String(d.keyword)
		kind, ok := directiveKeywords[d.name]
		if !ok {
			d.kind = notADirective
			ds = append(ds, d)
			continue
		}
		d.kind = kind
		rest := off + k[3]
		for _, t := range directiveToks.FindAllStringIndex(body[k[3]:], -1) {
			d.tokens = append(d.tokens, markdown.Span{Start: rest + t[0], End: rest + t[1]})
		}
		for _, t := range d.tokens {
			id := doc.String(t)
			if r.rules[id] == nil {
				d.unknown = append(d.unknown, t)
			} else if kind != enableRange {
				d.entries = append(d.entries, &entry{d: d, rule: id, tok: t})
			}
		}
		if len(d.tokens) == 0 && kind != enableRange {
			d.all = &entry{d: d, tok: d.keyword}
			d.entries = []*entry{d.all}
		}
		if kind == disableNextLine {
			d.target = nextNonBlankLine(doc, d.span.End)
		}
		ds = append(ds, d)
	}
	return ds
}

// nextNonBlankLine is the first line after the one holding the byte before
// offset that has more than spaces, or -1.
func nextNonBlankLine(doc *markdown.Document, offset int) int {
	for l := doc.Lines.LineOf(max(offset-1, 0)) + 1; l < doc.Lines.LineCount(); l++ {
		if strings.TrimSpace(doc.Lines.Line(l)) != "" {
			return l
		}
	}
	return -1
}

// tracker replays the range directives in order, so that the rules
// disabled at increasing offsets can be asked for.
type tracker struct {
	doc      *markdown.Document
	ds       []*directive
	next     int
	byRule   map[string][]*entry // open baton-disable RULE entries
	all      []*entry            // open bare baton-disable entries
	except   map[string]bool     // rules enabled again while a bare disable is open
	nextLine map[int][]*directive
}

func newTracker(doc *markdown.Document, ds []*directive) *tracker {
	t := &tracker{doc: doc, ds: ds, byRule: map[string][]*entry{}, except: map[string]bool{}, nextLine: map[int][]*directive{}}
	for _, d := range ds {
		if d.kind == disableNextLine && d.target >= 0 {
			t.nextLine[d.target] = append(t.nextLine[d.target], d)
		}
	}
	return t
}

// covering returns the entries that suppress a finding of rule starting at
// offset. Offsets must not decrease from one call to the next.
func (t *tracker) covering(rule string, offset int) []*entry {
	for ; t.next < len(t.ds); t.next++ {
		d := t.ds[t.next]
		if d.kind == enableRange && d.span.Start > offset || d.kind != enableRange && d.span.End > offset {
			break
		}
		switch d.kind {
		case disableRange:
			if d.all != nil {
				t.all = append(t.all, d.all)
				clear(t.except)
			}
			for _, e := range d.entries {
				if e != d.all {
					t.byRule[e.rule] = append(t.byRule[e.rule], e)
				}
			}
		case enableRange:
			if len(d.tokens) == 0 {
				clear(t.byRule)
				clear(t.except)
				t.all = nil
			}
			for _, tok := range d.tokens {
				id := t.doc.String(tok)
				delete(t.byRule, id)
				if len(t.all) > 0 {
					t.except[id] = true
				}
			}
		}
	}
	var out []*entry
	out = append(out, t.byRule[rule]...)
	if !t.except[rule] {
		out = append(out, t.all...)
	}
	for _, d := range t.nextLine[t.doc.Lines.LineOf(offset)] {
		for _, e := range d.entries {
			if e.rule == "" || e.rule == rule {
				out = append(out, e)
			}
		}
	}
	return out
}

// suppress removes the findings the document's suppression comments
// silence and, when the registry holds SuppressionAnalyzer, adds the
// findings about comments that did nothing.
func (r *Registry) suppress(doc *markdown.Document, cfg *Config, findings []Finding) []Finding {
	if ascii.Index(doc.Text, "baton-", len("baton")) < 0 { // its hyphen: rarer than its b
		return findings
	}
	ds := r.parseDirectives(doc)
	if len(ds) == 0 {
		return findings
	}
	order := make([]int, len(findings))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return findings[a].Span.Start - findings[b].Span.Start })
	drop := make([]bool, len(findings))
	t := newTracker(doc, ds)
	for _, i := range order {
		if es := t.covering(findings[i].Rule, findings[i].Span.Start); len(es) > 0 {
			drop[i] = true
			for _, e := range es {
				e.used = true
			}
		}
	}
	kept := findings[:0]
	for i, f := range findings {
		if !drop[i] {
			kept = append(kept, f)
		}
	}
	if r.rules[RuleUnusedSuppression.ID] != RuleUnusedSuppression {
		return kept
	}
	sev := RuleUnusedSuppression.Severity
	if s, ok := cfg.Severity[RuleUnusedSuppression.ID]; ok {
		sev = s
	}
	if sev == Off {
		return kept
	}
	// The findings about a comment can only be suppressed by comments
	// before it, and whether a comment is used can depend on suppressing
	// such a finding; so the comments are judged from the last to the
	// first, once the entries covering each place such a finding can start
	// (the comment, its keyword, each rule ID) are known.
	cover := make([]map[int][]*entry, len(ds))
	t = newTracker(doc, ds)
	for i, d := range ds {
		cover[i] = map[int][]*entry{}
		for _, off := range append([]int{d.span.Start, d.keyword.Start}, tokenStarts(d)...) {
			if _, ok := cover[i][off]; !ok {
				cover[i][off] = t.covering(RuleUnusedSuppression.ID, off)
			}
		}
	}
	var added []Finding
	for i := len(ds) - 1; i >= 0; i-- {
		for _, f := range r.unusedFindings(doc, ds[i]) {
			if es := cover[i][f.Span.Start]; len(es) > 0 {
				for _, e := range es {
					e.used = true
				}
				continue
			}
			f.Severity = sev
			added = append(added, f)
		}
	}
	return append(kept, added...)
}

func tokenStarts(d *directive) []int {
	out := make([]int, len(d.tokens))
	for i, t := range d.tokens {
		out[i] = t.Start
	}
	return out
}

// unusedFindings reports what is wrong with one comment, given which of its
// entries were used.
func (r *Registry) unusedFindings(doc *markdown.Document, d *directive) []Finding {
	var out []Finding
	report := func(span markdown.Span, msg string, fixes ...Fix) {
		out = append(out, Finding{Rule: RuleUnusedSuppression.ID, Severity: RuleUnusedSuppression.Severity, Span: span, Message: msg, Fixes: fixes})
	}
	if d.kind == notADirective {
		report(d.span, fmt.Sprintf("%q is not a suppression comment, so it suppresses nothing: write baton-disable-next-line, baton-disable or baton-enable", d.name),
			removeComment(doc, d))
		return out
	}
	for _, u := range d.unknown {
		report(u, fmt.Sprintf("%s names rule %q, which baton does not know (`baton explain` lists the rules)", d.name, doc.String(u)))
	}
	if d.kind == enableRange || len(d.entries) == 0 {
		return out
	}
	where := "on the next line"
	switch {
	case d.kind == disableRange:
		where = "after it"
	case d.target < 0:
		where = "after it (there is no next line)"
	}
	var unused []*entry
	for _, e := range d.entries {
		if !e.used {
			unused = append(unused, e)
		}
	}
	switch {
	case len(unused) == 0:
	case len(unused) == len(d.entries) && d.all != nil:
		report(d.keyword, fmt.Sprintf("%s suppresses nothing: no finding starts %s", d.name, where), removeComment(doc, d))
	case len(unused) == len(d.entries):
		ids := make([]string, len(unused))
		for i, e := range unused {
			ids[i] = e.rule
		}
		report(d.keyword, fmt.Sprintf("%s %s suppresses nothing: no finding of %s starts %s", d.name, strings.Join(ids, ", "), plural(len(ids), "that rule", "those rules"), where),
			removeComment(doc, d))
	default:
		for _, e := range unused {
			report(e.tok, fmt.Sprintf("%s suppresses nothing for %s: no finding of that rule starts %s", d.name, e.rule, where), removeToken(d, e.tok))
		}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// removeComment deletes a comment, with its line when nothing else is on it.
func removeComment(doc *markdown.Document, d *directive) Fix {
	s := d.span
	first, last := doc.Lines.LineOf(s.Start), doc.Lines.LineOf(max(s.End-1, s.Start))
	before := doc.Text[doc.Lines.LineStart(first):s.Start]
	after := doc.Text[s.End:doc.Lines.LineEnd(last)]
	if strings.TrimSpace(before) == "" && strings.TrimSpace(after) == "" {
		s.Start = doc.Lines.LineStart(first)
		if last+1 < doc.Lines.LineCount() {
			s.End = doc.Lines.LineStart(last + 1)
		} else {
			s.End = doc.Lines.LineEnd(last)
		}
	}
	return Fix{Title: "Remove the " + d.name + " comment", Edits: []Edit{{Span: s}}}
}

// removeToken deletes one rule ID from a comment naming several, with the
// separator after it (or, for the last, before it).
func removeToken(d *directive, tok markdown.Span) Fix {
	i := slices.Index(d.tokens, tok)
	s := tok
	if i+1 < len(d.tokens) {
		s.End = d.tokens[i+1].Start
	} else if i > 0 {
		s.Start = d.tokens[i-1].End
	}
	return Fix{Title: "Remove this rule from the " + d.name + " comment", Edits: []Edit{{Span: s}}}
}
