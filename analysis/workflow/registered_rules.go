package workflow

import (
	"fmt"
	"slices"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/markdown"
)

var RuleComponentForm = &analysis.Rule{
	ID:       "workflow/component-form",
	Summary:  "A component the engine registers is invoked in a form its code refuses.",
	Severity: analysis.Error,
	Doc: "Some of the components the engine registers refuse, in their own code, a form of invocation their props " +
		"schema cannot say: `<Json>` renders the JSON text of its `value` and binds nothing, so `as` is refused " +
		"(`<Json> renders JSON text and binds nothing, so `as` is not accepted.`), and it renders its value, not " +
		"content, so any closing-tag form is refused, `<Json value={plan}></Json>` included " +
		"(`<Json> renders the value it is given, not content: write <Json value={…} />.`; " +
		"packages/core/src/components/Json.ts). A function component's content is the shape of the tag, not what " +
		"it renders (packages/core/src/expand.ts, hasContent is `!selfClosing`). Write `<Json value={plan} />`; " +
		"the quick fix writes it self-closing when nothing is between its tags. A repository file of the same name " +
		"is another component, and is not checked here.\n\n" +
		"**The engine** fails the invocation when execution reaches it: a printed error, or a failed run under a " +
		"throwing error mode.",
	Follows: []string{
		"executable.md packages/core/src/components/Json.ts Json (as; content)",
	},
}

// checkRegistered checks what the engine's own components refuse of a
// literal prop, or of their form, in their code rather than their schema.
func (k *checker) checkRegistered() {
	for _, t := range k.c.Tags {
		if !t.Closed || k.failureExpected(t) {
			continue
		}
		res := k.resOf(t)
		if res.Kind != ResolveRegistered || res.Configured {
			continue
		}
		switch t.Name {
		case "Json":
			k.checkJSONForm(t)
		case "Glob":
			k.checkGlob(t)
		case "File":
			k.checkFilePath(t)
		case "Fetch":
			k.checkFetch(t)
		case "Prompt":
			k.checkDuration(t, "<Prompt timeout>")
		case "AgentProvider":
			k.checkDuration(t, "<AgentProvider timeout>")
			k.checkAgentProvider(t)
		}
	}
}

// checkJSONForm: <Json> binds nothing and takes no content
// (packages/core/src/components/Json.ts).
func (k *checker) checkJSONForm(t *Tag) {
	// An as the engine refuses as a binding name first is
	// workflow/directive-form's.
	if a := t.Attr("as"); a != nil {
		if name, _, ok := bindingName(t, a); ok && isBindingName(name) && !reservedWords[name] {
			start := a.Span.Start
			for start > t.NameSpan.End && (k.c.Text[start-1] == ' ' || k.c.Text[start-1] == '\t') {
				start--
			}
			k.report(RuleComponentForm, a.Span, fmt.Sprintf("<Json> renders JSON text and binds nothing: the engine refuses %s when it reaches it (\"<Json> renders JSON text and binds nothing, so `as` is not accepted.\"); render it where it stands, or bind the value with <Let as=%q value={…} />",
				k.c.Text[a.Span.Start:a.Span.End], name),
				analysis.WithFix(analysis.Fix{Title: "Remove as", Edits: []analysis.Edit{{Span: markdown.Span{Start: start, End: a.Span.End}}}}))
		}
	}
	if !t.SelfClosing {
		var opts []func(*analysis.Finding)
		if blank(k.c.Text[t.Inner.Start:t.Inner.End]) {
			open := strings.TrimRight(k.c.Text[t.Open.Start:t.Open.End-1], " \t\r\n")
			opts = append(opts, analysis.WithFix(analysis.Fix{Title: "Write <Json> self-closing", Safe: true,
				Edits: []analysis.Edit{{Span: t.Span, NewText: open + " />"}}}))
		}
		k.report(RuleComponentForm, t.NameSpan, "<Json> renders the value it is given, not content, and a closing tag is content even with nothing between: the engine refuses it (\"<Json> renders the value it is given, not content: write <Json value={…} />.\"); write it self-closing", opts...)
	}
}

// literalString is the string a literal prop is, and whether it is one.
func literalString(t *Tag, a *Attr) (string, bool) {
	if a == nil {
		return "", false
	}
	v, ok := literalValue(t, a)
	s, isString := v.(string)
	return s, ok && isString
}

// checkGlob checks <Glob>'s literal patterns as the component and the
// runtime read them (packages/core/src/components/Glob.ts, patterns and
// failed; packages/runtime/apis.ts, toRegExp and pruneMatcher): the
// include patterns, then the exclude patterns, each refused at the first
// that is empty, absolute or starts with ..; then every one compiled
// before the search starts, an exclude ending in /** once more without it.
func (k *checker) checkGlob(t *Tag) {
	include, exclude := t.Attr("include"), t.Attr("exclude")
	var lists [2][]string
	for i, a := range []*Attr{include, exclude} {
		if a == nil {
			continue
		}
		prop := a.Name
		for _, p := range literalStrings(t, a) {
			why := ""
			switch {
			case p == "":
				why = prop + " holds an empty pattern, which matches nothing; give a pattern relative to the working directory."
			case strings.HasPrefix(p, "/") || windowsAbsolute.MatchString(p):
				why = fmt.Sprintf("%s pattern \"%s\" is absolute; give a pattern relative to the working directory.", prop, p)
			case p == ".." || strings.HasPrefix(p, "../"):
				why = fmt.Sprintf("%s pattern \"%s\" reaches outside the working directory.", prop, p)
			}
			if why != "" {
				k.report(RulePropValue, a.Span, fmt.Sprintf("%s: the engine refuses <Glob> when it reaches it (\"%s\")", k.c.Text[a.Span.Start:a.Span.End], why))
				return
			}
			lists[i] = append(lists[i], p)
		}
	}
	for i, a := range []*Attr{include, exclude} {
		for _, p := range lists[i] {
			ok, known := globCompiles(p)
			if known && ok && i == 1 && (p == "**" || strings.HasSuffix(p, "/**")) {
				ok, known = globCompiles(strings.TrimSuffix(p, "/**"))
			}
			if !known || ok {
				continue
			}
			var quoted []string
			for _, q := range append(slices.Clone(lists[0]), lists[1]...) {
				quoted = append(quoted, `"`+q+`"`)
			}
			k.report(RulePropValue, a.Span, fmt.Sprintf("the pattern %q is no glob the runtime can compile (a [ class or { group never closed, a } that closes none, a range such as [z-a]): the engine refuses <Glob> when it reaches it (\"%s\")",
				p, "one of these patterns cannot be used: "+strings.Join(quoted, ", ")+"."))
			return
		}
	}
}

var windowsAbsolute = lazyre.New(`^[A-Za-z]:[\\/]`)

// literalStrings is the strings of a literal array prop, in order; nil
// for a prop that is no literal array.
func literalStrings(t *Tag, a *Attr) []string {
	v, _ := literalValue(t, a)
	list, _ := v.([]any)
	var out []string
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// checkFilePath checks <File path> as the runtime admits it before it reads
// or writes (packages/runtime/host-files.ts, inadmissible; the workflow
// host's packages/workflow/src/deno/workspace/logical-path.ts,
// resolveLogicalPath, alike): not empty, not absolute, not out of the
// working directory by its .. segments.
func (k *checker) checkFilePath(t *Tag) {
	a := t.Attr("path")
	p, ok := literalString(t, a)
	if !ok {
		return
	}
	why := ""
	switch {
	case p == "":
		why = "path is empty; give a path relative to the working directory."
	case strings.HasPrefix(p, "/"):
		why = "an absolute path is not accepted; give a path relative to the working directory."
	case strings.ContainsAny(p, "\\\x00") || windowsDrive.MatchString(p):
		return // a separator or a drive only some platforms read as one
	case leavesFolder(p):
		why = fmt.Sprintf("%q resolves outside the working directory.", p)
	}
	if why != "" {
		k.report(RulePropValue, a.Span, fmt.Sprintf("%s: the engine refuses <File> when it reaches it (\"%s\")", k.c.Text[a.Span.Start:a.Span.End], why))
	}
}

var windowsDrive = lazyre.New(`^[A-Za-z]:`)

// leavesFolder reports a relative slash path whose .. segments leave the folder
// it is relative to.
func leavesFolder(p string) bool {
	depth := 0
	for seg := range strings.SplitSeq(p, "/") {
		switch seg {
		case "", ".":
		case "..":
			if depth == 0 {
				return true
			}
			depth--
		default:
			depth++
		}
	}
	return false
}

// checkFetch checks <Fetch>'s literal request as the engine admits it
// before anything is sent (packages/core/src/fetch-request.ts,
// prepareFetchRequest).
func (k *checker) checkFetch(t *Tag) {
	refuse := func(a *Attr, why string) {
		k.report(RulePropValue, a.Span, fmt.Sprintf("%s: the engine refuses <Fetch> when it reaches it, before any request (%s)", k.c.Text[a.Span.Start:a.Span.End], why))
	}
	if a := t.Attr("url"); a != nil {
		if u, ok := literalString(t, a); ok {
			if scheme, has := urlScheme(u); !has {
				refuse(a, fmt.Sprintf("\"<Fetch url> must be an absolute http: or https: URL, got %s\"", jsonText(u)))
			} else if scheme != "http" && scheme != "https" {
				refuse(a, fmt.Sprintf("<Fetch url> takes only an absolute http: or https: URL, and %s is a %s: URL", jsonText(u), scheme))
			}
		}
	}
	if a := t.Attr("method"); a != nil {
		if m, ok := literalString(t, a); ok && m != "GET" && m != "HEAD" {
			refuse(a, fmt.Sprintf("\"<Fetch method> accepts only GET and HEAD, got %s\"", jsonText(m)))
		}
	}
	if a := t.Attr("headers"); a != nil {
		if v, ok := literalValue(t, a); ok {
			if h, isObject := v.(map[string]any); isObject {
				seen := map[string]string{}
				names := make([]string, 0, len(h))
				for name := range h {
					names = append(names, name)
				}
				slices.Sort(names)
				for _, name := range names {
					if !isASCII(name) {
						continue // lower-cased by Unicode's rules, not judged
					}
					key := strings.ToLower(name)
					if other, dup := seen[key]; dup {
						refuse(a, fmt.Sprintf("\"<Fetch headers> names %s twice: header names are case-insensitive, so two spellings of one name are ambiguous\" (%s and %s)", jsonText(key), jsonText(other), jsonText(name)))
						break
					}
					seen[key] = name
				}
			}
		}
	}
	k.checkDuration(t, `<Fetch timeout> ("timeout" prop)`)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// urlScheme is the scheme the WHATWG URL parser reads at the start of s,
// lower-cased, and whether it reads one: after leading and trailing C0
// controls and spaces, and every tab and line break, are removed, an ASCII
// letter, then letters, digits, +, - or ., then ":". Without one, new
// URL(s) fails.
func urlScheme(s string) (string, bool) {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= 0x20 })
	s = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
	if s == "" || !isASCIILetter(s[0]) {
		return "", false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':':
			return strings.ToLower(s[:i]), true
		case isASCIILetter(c) || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.':
		default:
			return "", false
		}
	}
	return "", false
}

// checkDuration checks a literal timeout prop as the engine's duration
// grammar reads it (packages/runtime/duration.ts, parseDuration).
func (k *checker) checkDuration(t *Tag, label string) {
	a := t.Attr("timeout")
	s, ok := literalString(t, a)
	if !ok || isDuration(jsTrim(s)) {
		return
	}
	k.report(RulePropValue, a.Span, fmt.Sprintf("%s: the engine refuses <%s> when it reaches it (\"%s must be a duration like 500ms, 30s, or 5min, got %s\"): a positive whole number of ms, s, m or min",
		k.c.Text[a.Span.Start:a.Span.End], t.Name, label, jsonText(s)))
}

// jsTrim is JavaScript's String.prototype.trim: its white space and line
// terminators, which are not Go's.
func jsTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
			return true
		}
		return r >= 0x2000 && r <= 0x200a
	})
}

// agentProviders are the provider names the stock `xmd` registers: `acpx`
// for `xmd run` (packages/cli/src/cli.ts, installAgentStack), `test-agent`
// inside `<TestAgent>` under `xmd test`
// (packages/test-agent/src/provider.ts, TEST_AGENT_PROVIDER).
var agentProviders = []string{"acpx", "test-agent"}

// checkAgentProvider reports an <AgentProvider name> no stock registration
// answers (packages/core/src/agent/provider-api.ts: "Unknown agent provider
// \"openai\""). A provider TypeScript registers (registerAgentProvider,
// from a component's code or an eval block) answers names no document
// shows, so the name is judged only where no such code can be around it:
// the document runs none, and every tag around it is structural or one of
// the engine's own.
func (k *checker) checkAgentProvider(t *Tag) {
	if k.r.mode == ModeWorkflow || k.r.mode == ModeTest || (k.r.mode == "" && IsTestDocument(k.r.docPath)) {
		return // xmd run's registrations
	}
	a := t.Attr("name")
	name, ok := literalString(t, a)
	if !ok || slices.Contains(agentProviders, name) {
		return
	}
	for p := t.Parent; p != nil; p = p.Parent {
		if res := k.resOf(p); res.Kind != ResolveStructural && (res.Kind != ResolveRegistered || res.Configured) {
			return
		}
	}
	for _, cb := range k.c.CodeBlocks {
		if cb.Eval {
			code := k.c.Text[cb.Content.Start:cb.Content.End]
			if strings.Contains(code, "registerAgentProvider") || strings.Contains(code, "AgentProviders") {
				return
			}
		}
	}
	k.report(RulePropValue, a.Span, fmt.Sprintf("%s: `xmd run` registers the agent provider \"acpx\" and no other, so the engine refuses <AgentProvider> when it reaches it (\"Unknown agent provider %q\"); write name=\"acpx\", and choose the agent with defaultAgent",
		k.c.Text[a.Span.Start:a.Span.End], name))
}
