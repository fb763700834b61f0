package workflow

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/baton-md/baton/analysis"
)

var RuleTSComponent = &analysis.Rule{
	ID:       "workflow/ts-component",
	Summary:  "A TypeScript component breaks the contract the engine loads it by.",
	Severity: analysis.Error,
	Doc: "A component written in TypeScript (`components/Name.ts`) is a module the engine imports when an invocation " +
		"reaches it (packages/core/src/execute.ts, the function component's loading): its default export must be a " +
		"generator function (`export default function* Name(props) { … }`), or every invocation fails with " +
		"`Function component \"Name\" at components/Name.ts must have a default export that is a generator function`; " +
		"and its props are what `export const props` declares, a closed object with none when it exports none, so an " +
		"invocation that passes a prop to a component that declares no props fails its prop validation " +
		"(`Prop validation failed for <Name />: \"/topic\" must NOT have additional properties`). Export the " +
		"generator as the default, and declare the props it takes.\n\n" +
		"baton reads the module's text, not its types: it reports a module with no default export at all (no " +
		"`export default`, no `as default`), and props passed to one that exports no `props`. A module that " +
		"re-exports another (`export * from`) or exports nothing at all (an empty file) is not judged, nor is a default " +
		"export that is not a generator.\n\n" +
		"**The engine** fails every invocation of the component when it reaches it: the import's error, or the " +
		"prop validation's — a printed error, or a failed run under a throwing error mode.",
	Follows: []string{"executable.md packages/core/src/execute.ts durableImportComponent (a function component: its default export, its props)"},
}

// tsFacts is what baton reads of a TypeScript component's text.
type tsFacts struct {
	read       bool // the text was read, and no re-export hides what it exports
	hasDefault bool
	hasProps   bool
	hasReturns bool
}

var (
	tsDefault  = regexp.MustCompile(`\bexport\s+default\b|\bas\s+default\b`)
	tsProps    = regexp.MustCompile(`\bexport\s+(?:const|let|var)\s+props\b|\bexport\s+(?:async\s+)?function\s*\*?\s*props\b|\bexport\s*\{[^}]*\bprops\b`)
	tsReturns  = regexp.MustCompile(`\bexport\s+(?:const|let|var)\s+returns\b|\bexport\s*\{[^}]*\breturns\b`)
	tsReexport = regexp.MustCompile(`\bexport\s*\*`)
	tsExport   = regexp.MustCompile(`\bexport\b`)
)

// tsComponent reads the TypeScript component at p, once for the document.
func (r *resolver) tsComponent(p string) tsFacts {
	if f, ok := r.ts[p]; ok {
		return f
	}
	var f tsFacts
	if r.fsys != nil {
		if data, err := readRegular(r.fsys, p); err == nil && len(data) <= maxRead {
			text := string(data)
			// A module that exports nothing at all (an empty file, a
			// stand-in) is not judged: it is not yet anything's component.
			if tsExport.MatchString(text) && !tsReexport.MatchString(text) {
				f = tsFacts{read: true, hasDefault: tsDefault.MatchString(text), hasProps: tsProps.MatchString(text), hasReturns: tsReturns.MatchString(text)}
			}
		}
	}
	if r.ts == nil {
		r.ts = map[string]tsFacts{}
	}
	r.ts[p] = f
	return f
}

// checkTSComponents checks each invocation of a TypeScript component of
// the repository against what its module exports.
func (k *checker) checkTSComponents() {
	for _, t := range k.c.Tags {
		res := k.resOf(t)
		if res.Kind != ResolveFile || !strings.HasSuffix(res.Path, ".ts") || !t.Closed || k.failureExpected(t) {
			continue
		}
		f := k.r.tsComponent(res.Path)
		if !f.read {
			continue
		}
		if !f.hasDefault {
			k.report(RuleTSComponent, t.NameSpan, fmt.Sprintf("<%s> is %s, which has no default export: the engine fails every invocation of it (\"Function component %q at %s must have a default export that is a generator function\"); export the component as export default function* %s(props) { … }",
				t.Name, res.Path, t.Name, res.Path, t.Name))
			continue
		}
		if f.hasProps {
			continue
		}
		for _, a := range t.Attrs {
			if passes(a) {
				k.report(RuleTSComponent, a.NameSpan, fmt.Sprintf("%s exports no props, so <%s> takes none: the engine refuses %s (\"Prop validation failed for <%s />: \\\"/%s\\\" must NOT have additional properties\"); declare it in the module (export const props = { %s: { type: \"string\" } }), or do not pass it",
					res.Path, t.Name, a.Name, t.Name, a.Name, a.Name))
			}
		}
	}
}
