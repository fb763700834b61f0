package analysis

import (
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"
)

// Rule is one check baton makes, with the documentation a user reads when
// it fires (on hover, from `baton explain`, and in docs/rules.md).
type Rule struct {
	ID       string   // "kind/name", e.g. "packet/missing-section"
	Summary  string   // one line
	Doc      string   // Markdown: what the rule checks, why, and how to fix it
	Severity Severity // the default
	// Follows names the upstream checks the rule enforces, as
	// "<project> <check>": "specrew validation-fail.bare-path-in-boundary-handoff",
	// "clio parseTaskMemoryHandoff", "executable.md …". A rule of baton's
	// own (one no upstream code makes) follows none.
	Follows []string
}

// Analyzer checks one kind of document. One run reports findings for any
// of its rules, so a document is parsed into the analyzer's model once.
type Analyzer struct {
	Name  string
	Kind  markdown.Kind // the documents it runs on
	Rules []*Rule
	// Requires lists the analyzers whose models Run reads (Pass.Model). The
	// registry runs them first; they must run on the same kind of document.
	Requires []*Analyzer
	// Run reports findings through the pass and returns the model it built
	// (the server uses it for hover, symbols and folding), or nil.
	Run func(*Pass) any
}

// Config adjusts what rules report.
type Config struct {
	// Severity overrides a rule's default severity; Off silences the rule.
	Severity map[string]Severity
	// Phrases extends the phrase lists rules read text with, by list name
	// (each analyzer documents its lists).
	Phrases map[string][]string
	// Kind, when set, is the kind the document is taken for whatever its
	// text shows (a .baton.yaml override's kind:); KindFrom says which
	// override set it.
	Kind     *markdown.Kind
	KindFrom string
}

// Env is what the world around a document tells the rules (state read
// from the workspace, a session store), by key; each analyzer documents the
// keys it reads. It is read-only during a run.
type Env map[string]any

// Pass is one analyzer's run over one document.
type Pass struct {
	Doc      *markdown.Document
	Config   *Config // never nil
	Env      Env     // may be nil
	analyzer *Analyzer
	findings []Finding
	models   map[*Analyzer]any
}

// Model returns the model a required analyzer built for this document, or
// nil when it built none (an analyzer whose requirement failed is not run).
// Asking for the model of an analyzer
// not in Requires panics: without the declaration nothing guarantees it ran
// first, and a nil that depends on the registry's order would be silence.
func (p *Pass) Model(a *Analyzer) any {
	if !slices.Contains(p.analyzer.Requires, a) {
		panic(fmt.Sprintf("analyzer %s read the model of %s, which it does not require", p.analyzer.Name, a.Name))
	}
	return p.models[a]
}

// Report records a finding for one of the analyzer's rules. Its severity is
// the rule's default; configuration is applied afterwards.
func (p *Pass) Report(r *Rule, span markdown.Span, message string, opts ...func(*Finding)) {
	if !slices.Contains(p.analyzer.Rules, r) {
		panic(fmt.Sprintf("analyzer %s reported rule %s, which it does not declare", p.analyzer.Name, r.ID))
	}
	f := Finding{Rule: r.ID, Severity: r.Severity, Span: span, Message: message}
	for _, o := range opts {
		o(&f)
	}
	p.findings = append(p.findings, f)
}

// WithRelated adds a related span to a finding.
func WithRelated(span markdown.Span, message string) func(*Finding) {
	return func(f *Finding) { f.Related = append(f.Related, Related{span, message}) }
}

// WithSeverity reports a finding at another severity than its rule's
// default, where the upstream check a rule follows is louder or quieter
// in one case than another (configuration still overrides it).
func WithSeverity(sev Severity) func(*Finding) {
	return func(f *Finding) { f.Severity = sev }
}

// WithFix adds a fix to a finding.
func WithFix(fix Fix) func(*Finding) {
	return func(f *Finding) { f.Fixes = append(f.Fixes, fix) }
}

// Registry holds every analyzer and rule baton knows.
type Registry struct {
	analyzers []*Analyzer // each after what it requires
	rules     map[string]*Rule
	ids       []string
	log       *slog.Logger // where an analyzer's panic is logged; nil discards
}

var ruleID = lazyre.New(`^[a-z]+/[a-z0-9]+(-[a-z0-9]+)*$`)

// NewRegistry checks that every rule is well formed and its ID unique, and
// orders the analyzers so that each runs after those it requires (keeping
// the given order otherwise). It refuses a requirement the registry does not
// hold, one on another kind of document, and a cycle.
func NewRegistry(analyzers ...*Analyzer) (*Registry, error) {
	ordered, err := orderAnalyzers(analyzers)
	if err != nil {
		return nil, err
	}
	r := &Registry{analyzers: ordered, rules: map[string]*Rule{}}
	for _, a := range ordered {
		for _, rule := range a.Rules {
			switch {
			case !ruleID.MatchString(rule.ID):
				return nil, fmt.Errorf("rule ID %q is not of the form kind/name", rule.ID)
			case r.rules[rule.ID] != nil:
				return nil, fmt.Errorf("rule %s is declared twice", rule.ID)
			case rule.Summary == "" || strings.TrimSpace(rule.Doc) == "":
				return nil, fmt.Errorf("rule %s has no summary or doc", rule.ID)
			case rule.Severity < Error || rule.Severity > Hint:
				return nil, fmt.Errorf("rule %s has no default severity", rule.ID)
			}
			r.rules[rule.ID] = rule
			r.ids = append(r.ids, rule.ID)
		}
	}
	slices.Sort(r.ids)
	return r, nil
}

// orderAnalyzers sorts analyzers topologically by Requires, stably: an
// analyzer moves only as far as its requirements make it.
func orderAnalyzers(analyzers []*Analyzer) ([]*Analyzer, error) {
	held := map[*Analyzer]bool{}
	for _, a := range analyzers {
		if held[a] {
			return nil, fmt.Errorf("analyzer %s is registered twice", a.Name)
		}
		held[a] = true
	}
	for _, a := range analyzers {
		for _, req := range a.Requires {
			switch {
			case !held[req]:
				return nil, fmt.Errorf("analyzer %s requires %s, which the registry does not hold", a.Name, req.Name)
			case req.Kind != a.Kind:
				return nil, fmt.Errorf("analyzer %s (on %s documents) requires %s, which runs on %s documents", a.Name, a.Kind, req.Name, req.Kind)
			}
		}
	}
	const (
		unvisited = iota
		visiting
		done
	)
	state := map[*Analyzer]int{}
	var out []*Analyzer
	var visit func(a *Analyzer, path []string) error
	visit = func(a *Analyzer, path []string) error {
		switch state[a] {
		case done:
			return nil
		case visiting:
			return fmt.Errorf("analyzers require each other in a cycle: %s", strings.Join(append(path, a.Name), " -> "))
		}
		state[a] = visiting
		for _, req := range a.Requires {
			if err := visit(req, append(path, a.Name)); err != nil {
				return err
			}
		}
		state[a] = done
		out = append(out, a)
		return nil
	}
	for _, a := range analyzers {
		if err := visit(a, nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// WithLogger returns a copy of the registry that logs an analyzer's panic,
// with its stack, to l. The copy shares the analyzers and rules.
func (r *Registry) WithLogger(l *slog.Logger) *Registry {
	c := *r
	c.log = l
	return &c
}

// Rule returns the rule with id, or nil.
func (r *Registry) Rule(id string) *Rule { return r.rules[id] }

// Rules returns every rule, sorted by ID.
func (r *Registry) Rules() []*Rule {
	out := make([]*Rule, len(r.ids))
	for i, id := range r.ids {
		out[i] = r.rules[id]
	}
	return out
}

// Result is what analysing one document produced.
type Result struct {
	Doc      *markdown.Document
	Findings []Finding // sorted; rules configured off and suppressed findings removed; at most MaxFindings and the one counting the rest
	models   map[*Analyzer]any

	past      int   // the findings past MaxFindings, left out of Findings
	pastFixes []Fix // the first safe fix of each of them that has one, in order
	marker    bool  // Findings ends with the baton/too-many-findings finding that counts them
}

// Count is how many findings the document has: those past MaxFindings
// included, and the baton/too-many-findings finding that stands for them
// not counted.
func (r *Result) Count() int {
	n := len(r.Findings) + r.past
	if r.marker {
		n--
	}
	return n
}

// Model returns the model analyzer a built for the document, or nil.
func (r *Result) Model(a *Analyzer) any { return r.models[a] }

// Analyze runs every analyzer for the document's kind.
func (r *Registry) Analyze(doc *markdown.Document, cfg *Config) *Result {
	return r.AnalyzeEnv(doc, cfg, nil)
}

// AnalyzeEnv is Analyze with what the environment knows. Suppression
// comments (see RuleUnusedSuppression) apply once every analyzer ran.
func (r *Registry) AnalyzeEnv(doc *markdown.Document, cfg *Config, env Env) *Result {
	if doc.TooLarge > 0 {
		return r.tooLarge(doc, cfg)
	}
	if cfg == nil {
		cfg = &Config{}
	}
	doc = KindIn(doc, cfg, env)
	res := &Result{Doc: doc, models: map[*Analyzer]any{}}
	failed := map[*Analyzer]bool{}
	for _, a := range r.analyzers {
		if a.Kind != doc.Kind {
			continue
		}
		p := &Pass{Doc: doc, Config: cfg, Env: env, analyzer: a, models: res.models}
		if req := failedRequirement(a, failed); req != nil {
			// Its run would read a missing model as "nothing there" and
			// report on that: it is not run, and says so.
			p.findings = []Finding{internalError(fmt.Sprintf("analyzer %s was not run: it requires %s, which failed on this document; its rules were not checked", a.Name, req.Name))}
			failed[a] = true
		} else if m, ok := r.run(a, p); !ok {
			failed[a] = true
		} else if m != nil {
			res.models[a] = m
		}
		for _, f := range p.findings {
			if s, ok := cfg.Severity[f.Rule]; ok {
				f.Severity = s
			}
			if f.Severity != Off {
				res.Findings = append(res.Findings, f)
			}
		}
	}
	for _, f := range r.nestingCut(doc) {
		if s, ok := cfg.Severity[f.Rule]; ok {
			f.Severity = s
		}
		if f.Severity != Off {
			res.Findings = append(res.Findings, f)
		}
	}
	res.Findings = r.suppress(doc, cfg, res.Findings)
	SortFindings(res.Findings)
	r.capFindings(res, cfg)
	return res
}

// RuleInternalError is reported when an analyzer panics: baton has a bug.
var RuleInternalError = &Rule{
	ID:       "baton/internal-error",
	Summary:  "An analyzer failed on this document; its rules were not checked.",
	Severity: Error,
	Doc: "An analyzer crashed (a bug in baton) while checking this document. Its findings are replaced by this " +
		"one, at the start of the document; the other analyzers' findings are kept, and the editor or `baton " +
		"check` carries on. An analyzer that reads the failed one's model is not run either, and says so in a " +
		"finding of its own. The message names the analyzer and what went wrong; the language server's log, or " +
		"`baton check`'s standard error, holds the stack.\n\n" +
		"Please report it, with the document (or the smallest part of it that still fails) and the stack, at " +
		"https://github.com/baton-md/baton/issues.",
}

// InternalErrorAnalyzer declares baton/internal-error. It has no work of its
// own: the registry reports the rule for any analyzer that panics.
var InternalErrorAnalyzer = &Analyzer{
	Name:  "internal-error",
	Kind:  markdown.KindOther,
	Rules: []*Rule{RuleInternalError},
	Run:   func(*Pass) any { return nil },
}

// run runs one analyzer; ok is false when it panicked. A panic becomes a
// baton/internal-error finding in place of the analyzer's findings and
// model, and a log line with the stack: one buggy analyzer must not end the
// language server or the CLI, nor silence the others.
func (r *Registry) run(a *Analyzer, p *Pass) (model any, ok bool) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		model, ok = nil, false
		p.findings = []Finding{internalError(fmt.Sprintf("internal error in analyzer %s: %v; its rules were not checked (please report this bug to baton, with the document)", a.Name, v))}
		if r.log != nil {
			r.log.Error(fmt.Sprintf("internal error in analyzer %s: %v", a.Name, v), "document", p.Doc.URI, "stack", string(debug.Stack()))
		}
	}()
	return a.Run(p), true
}

// failedRequirement returns an analyzer a requires that failed, or nil.
func failedRequirement(a *Analyzer, failed map[*Analyzer]bool) *Analyzer {
	for _, req := range a.Requires {
		if failed[req] {
			return req
		}
	}
	return nil
}

// internalError is a baton/internal-error finding at the document's start.
func internalError(message string) Finding {
	return Finding{Rule: RuleInternalError.ID, Severity: RuleInternalError.Severity, Message: message}
}
