package handoff

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/handoff/session"
)

// EnvLedger is the Env key of a Resolver: how the edge (server, CLI) finds
// a session's ledger. Without it, nothing is checked against a session.
const EnvLedger = "handoff.ledger"

// Resolver looks a session up by id and reads its ledger; it does the I/O
// (and any caching). It is only called with an id session.ValidID accepts.
type Resolver func(sessionID string) Lookup

// Lookup is what a Resolver found.
type Lookup struct {
	Ledger *session.Ledger // nil when Err is set
	// Err says why the ledger could not be read: no state folder, no
	// session with that id, an unreadable file.
	Err error
	// Looked lists where the resolver looked (state folders, session
	// folders), for the message when it found nothing.
	Looked []string
}

// resolve asks the environment's resolver for the document's session, or
// returns nil when there is no resolver or no usable session id.
func resolve(env analysis.Env, d *Doc) *Lookup {
	if !session.ValidID(d.SessionID) {
		return nil
	}
	var r Resolver
	switch v := env[EnvLedger].(type) {
	case Resolver:
		r = v
	case func(string) Lookup:
		r = v
	}
	if r == nil {
		return nil
	}
	lk := r(d.SessionID)
	return &lk
}

func (c *checker) ledger(lk *Lookup) {
	d := c.d
	if lk.Err != nil || lk.Ledger == nil {
		why := "the resolver returned no ledger"
		if lk.Err != nil {
			// One line: errors.Join of several folders' errors has one each.
			why = strings.Join(strings.Split(strings.TrimSpace(lk.Err.Error()), "\n"), "; ")
		}
		msg := fmt.Sprintf("could not read the ledger of session %s (%s)", d.SessionID, why)
		if len(lk.Looked) > 0 {
			msg += "; looked in " + strings.Join(lk.Looked, ", ")
		}
		c.pass.Report(RuleLedgerUnavailable, d.SessionLine, msg+": files and settled decisions are not checked")
		return
	}
	l := lk.Ledger
	c.files(l)
	c.settled(l)
	c.mentions(l)
}

func (c *checker) files(l *session.Ledger) {
	id := c.d.SessionID
	for _, s := range c.d.Sections {
		if !s.Known || (s.Name != Files && s.Name != Dropped) {
			continue
		}
		for _, it := range s.Items {
			if it.Malformed != "" {
				continue
			}
			_, found := l.Lookup(it.Path)
			switch {
			case s.Name == Files && !found:
				msg := fmt.Sprintf("`%s` was never touched by session %s: it is not in the session's read ledger", it.Path, id)
				if session.Normalize(l.Cwd, it.Path) == "" {
					// clio's normalizeHandoffPath strips every trailing
					// '/' and '\': the root is left empty, which no
					// ledger holds and clio always drops.
					msg = fmt.Sprintf("`%s` names no path a read ledger can hold: clio strips its trailing separators and nothing is left, so it drops it whatever session %s read", it.Path, id)
				} else if near := Nearest(l, it.Path, 3); len(near) > 0 {
					msg += " (nearest: `" + strings.Join(near, "`, `") + "`)"
				}
				c.pass.Report(RuleInventedPath, it.PathSpan, msg+"; move it to the dropped section",
					analysis.WithFix(analysis.Fix{
						Title: "Move it to \"### " + DroppedHeading + "\"",
						Edits: c.move(s, it, Dropped, c.doc.String(it.Span)),
					}))
			case s.Name == Dropped && found:
				norm := session.Normalize(l.Cwd, it.Path)
				msg := fmt.Sprintf("`%s` is in session %s's read ledger", it.Path, id)
				if norm != it.Path {
					msg += " (as `" + norm + "`)"
				}
				line := "- `" + norm + "`" + c.doc.Text[it.PathSpan.End+1:it.Span.End]
				c.pass.Report(RuleRestorablePath, it.PathSpan, msg+": it can go back under \"## Files\"",
					analysis.WithFix(analysis.Fix{
						Title: "Move it back under \"## Files\"",
						Edits: c.move(s, it, Files, line),
					}))
			}
		}
	}
}

// Nearest returns up to n ledger paths closest to p, leaving out "." (a
// search of the whole folder is no answer to a misspelled file).
func Nearest(l *session.Ledger, p string, n int) []string {
	var out []string
	for _, q := range l.Nearest(p, n+1) {
		if q != "." && len(out) < n {
			out = append(out, q)
		}
	}
	return out
}

// move takes an item out of section from and adds line (the item as it is
// to read) to the section named to, creating it when the document has none.
func (c *checker) move(from *Section, it *Item, to, line string) []analysis.Edit {
	dest := c.d.Section(to)
	emptied := len(from.Items) == 1 && len(from.Stray) == 0
	if dest == nil && emptied {
		// The section becomes the other one: rename it.
		return []analysis.Edit{
			{Span: from.Heading.Span, NewText: CanonicalHeading(to)},
			{Span: it.Span, NewText: line},
		}
	}
	remove := c.removeItem(it)
	if emptied {
		remove = c.removeSection(from)
	}
	var add analysis.Edit
	switch {
	case dest != nil:
		add = c.appendItem(dest, line)
	case to == Dropped:
		// Right after ## Files, where the renderer puts it.
		add = c.insertSection(from.Span.End, CanonicalHeading(Dropped)+c.nl+c.nl+line)
	default:
		// ## Files goes right before the dropped heading.
		add = c.insertSection(from.Span.Start, CanonicalHeading(Files)+c.nl+c.nl+line)
	}
	return []analysis.Edit{remove, c.fit(add, remove)}
}

func (c *checker) settled(l *session.Ledger) {
	id := c.d.SessionID
	for _, it := range c.d.Items(Decisions) {
		if !it.Settled || it.Malformed != "" {
			continue
		}
		if slices.ContainsFunc(l.Board, func(b session.Decision) bool { return expectedSummary(&b) == it.Summary }) {
			continue
		}
		m := boardMatch(l.Board, it.Summary)
		if m == nil {
			name, _, hasValue := strings.Cut(it.Summary, ": ")
			msg := fmt.Sprintf("this decision is marked settled, but no active decision on session %s's board reads %q", id, name)
			if !hasValue {
				msg = fmt.Sprintf("this decision is marked settled, but it is not \"<label or key>: <value>\" of an active decision on session %s's board", id)
			}
			if len(l.Board) == 0 {
				msg += " (the board holds no active decision)"
			}
			c.pass.Report(RuleSettledMismatch, it.SummarySpan, msg+": it misrepresents what the operator answered",
				analysis.WithFix(analysis.Fix{
					Title: "Drop the _(settled)_ marker",
					Edits: []analysis.Edit{{Span: markdown.Span{Start: it.SummarySpan.End, End: it.SettledSpan.End}}},
				}))
			continue
		}
		value, match := it.Summary[len(m.name)+2:], m.d
		want := expectedSummary(match)
		if strings.HasSuffix(it.Summary, TruncationMarker) && strings.HasPrefix(match.Value, strings.TrimSuffix(value, TruncationMarker)) {
			continue // cut by hand, or by an older bound: what is left still agrees
		}
		c.pass.Report(RuleSettledMismatch, it.SummarySpan,
			fmt.Sprintf("session %s's board says %q for %q, not %q: a settled decision must carry the operator's answer", id, match.Value, boardName(match), value),
			analysis.WithFix(analysis.Fix{
				Title: "Set it to the board's value: " + match.Value,
				Safe:  true,
				Edits: []analysis.Edit{{Span: it.SummarySpan, NewText: want}},
			}))
	}
}

type named struct {
	d    *session.Decision
	name string // as the summary spells it
}

// boardMatch finds the board decision a settled summary names: the longest
// label or key that "<name>: " starts it with, else the same ignoring case.
func boardMatch(board []session.Decision, summary string) *named {
	var best *named
	for _, fold := range []bool{false, true} {
		for i := range board {
			b := &board[i]
			for _, name := range []string{b.Label, b.Key} {
				if name == "" || len(summary) < len(name)+2 || summary[len(name):len(name)+2] != ": " {
					continue
				}
				if got := summary[:len(name)]; (got == name || fold && strings.EqualFold(got, name)) && (best == nil || len(name) > len(best.name)) {
					best = &named{b, got}
				}
			}
		}
		if best != nil {
			return best
		}
	}
	return nil
}

// boardName is what clio writes before a settled decision's value: its
// label, else its key.
func boardName(b *session.Decision) string {
	if b.Label != "" {
		return b.Label
	}
	return b.Key
}

// expectedSummary is the summary clio renders for a board decision.
func expectedSummary(b *session.Decision) string {
	s, _ := BoundString(boardName(b) + ": " + b.Value)
	return s
}

var codeSpan = lazyre.New("`([^`\r\n]+)`")

// mentions flags backticked paths in decisions, facts and command whys
// that the session never touched.
func (c *checker) mentions(l *session.Ledger) {
	id := c.d.SessionID
	for _, s := range c.d.Sections {
		if !s.Known || (s.Name != Decisions && s.Name != Facts && s.Name != Commands) {
			continue
		}
		var buf [2]Field
		for _, it := range s.Items {
			for _, f := range mentionFields(it, &buf) {
				if strings.IndexByte(f.Text, '`') < 0 {
					continue // codeSpan needs a backtick: skip the regexp
				}
				for _, m := range codeSpan.FindAllStringSubmatchIndex(f.Text, -1) {
					tok := f.Text[m[2]:m[3]]
					p, ok := pathLike(tok)
					if !ok || touched(l, p) {
						continue
					}
					span := markdown.Span{Start: f.Span.Start + m[2], End: f.Span.Start + m[3]}
					c.pass.Report(RuleUntouchedMention, span,
						fmt.Sprintf("`%s` looks like a path, but session %s never touched it (nothing in its read ledger matches)", tok, id))
				}
			}
		}
	}
}

// mentionFields are the texts of an item that may mention paths: not a
// command's argv, which is a command line. They are written into buf.
func mentionFields(it *Item, buf *[2]Field) []Field {
	switch it.Kind {
	case KindCommand:
		if it.Malformed == "" {
			buf[0] = Field{"why", it.Why, it.WhySpan}
			return buf[:1]
		}
		return nil
	case KindDecision:
		return it.fields(buf)
	}
	buf[0] = Field{"text", it.Text, it.TextSpan}
	return buf[:1]
}

var (
	lineSuffix = lazyre.New(`(:\d+)+$|#L\d+(-L?\d+)?$`)
	extension  = lazyre.New(`^[^/]*[A-Za-z0-9_\-]\.([A-Za-z0-9]{1,10})$`)
)

// codeExtensions are file extensions a backticked token without a "/" must
// end in to be taken as a path: `fmt.Println` and `e.g.` are not files.
var codeExtensions = map[string]bool{}

func init() {
	for _, e := range strings.Fields(`ts tsx mts cts js jsx mjs cjs json jsonc jsonl md mdx markdown txt rst go mod sum py pyi
		rs toml yaml yml xml html htm css scss sass less vue svelte astro c h cc cpp cxx hpp hh m mm java kt kts scala
		swift rb php pl pm lua sh bash zsh fish ps1 bat cmd sql graphql gql proto ex exs erl hrl zig nim dart cs fs fsx
		r jl hs ml mli clj cljs el vim tf tfvars hcl nix cfg conf ini env lock log csv tsv ipynb gradle bazel bzl mk
		cmake dockerfile gitignore editorconfig svg png jpg jpeg gif webp ico pdf wasm tmpl tpl j2 snap patch diff
		txtar sol`) {
		codeExtensions[e] = true
	}
}

// pathLike reports whether a backticked token names a file or folder: no
// white space or shell syntax, and a "/" (not a URL, not a scoped package)
// or a known file extension. A trailing line reference (":12", "#L12") is
// dropped.
func pathLike(tok string) (string, bool) {
	p := lineSuffix.ReplaceAllString(strings.TrimSpace(tok), "")
	if p == "" || strings.ContainsAny(p, " \t*?<>|\"'(){}[]$=,;!&`^%") || strings.Contains(p, "://") ||
		strings.HasPrefix(p, "-") || strings.HasPrefix(p, "@") || strings.HasPrefix(p, "#") {
		return "", false
	}
	if strings.ContainsAny(p, `/\`) {
		if !strings.ContainsFunc(p, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) {
			return "", false // "/", "1/2", "2024/01/02"
		}
		return p, true
	}
	m := extension.FindStringSubmatch(p)
	if m == nil || !codeExtensions[strings.ToLower(m[1])] {
		return "", false
	}
	return p, true
}

// touched reports whether the ledger holds p, a path under p (p is a
// folder), or a path ending in p's components (`handoff.ts` for
// src/domains/session/handoff.ts).
func touched(l *session.Ledger, p string) bool {
	if _, ok := l.Lookup(p); ok {
		return true
	}
	norm := session.Normalize(l.Cwd, p)
	rel := strings.TrimPrefix(path.Clean(strings.ReplaceAll(strings.TrimSpace(p), `\`, "/")), "./")
	for k := range l.Paths {
		if strings.HasPrefix(k, norm+"/") || norm == "." ||
			(!path.IsAbs(rel) && !strings.HasPrefix(rel, "../") && (k == rel || strings.HasSuffix(k, "/"+rel))) {
			return true
		}
	}
	return false
}
