package analysis

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Rule is one check baton makes, with the documentation a user reads when
// it fires (on hover, from `baton explain`, and in docs/rules.md).
type Rule struct {
	ID       string   // "kind/name", e.g. "packet/missing-section"
	Summary  string   // one line
	Doc      string   // Markdown: what the rule checks, why, and how to fix it
	Severity Severity // the default
}

// Analyzer checks one kind of document. One run reports findings for any
// of its rules, so a document is parsed into the analyzer's model once.
type Analyzer struct {
	Name  string
	Kind  Kind // the documents it runs on
	Rules []*Rule
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
}

// Env is what the world around a document tells the rules (state read
// from the workspace, a session store), by key; each analyzer documents the
// keys it reads. It is read-only during a run.
type Env map[string]any

// Pass is one analyzer's run over one document.
type Pass struct {
	Doc      *Document
	Config   *Config // never nil
	Env      Env     // may be nil
	analyzer *Analyzer
	findings []Finding
	models   map[*Analyzer]any
}

// Model returns the model an analyzer that ran earlier on this document
// built (analyzers run in registry order), or nil.
func (p *Pass) Model(a *Analyzer) any { return p.models[a] }

// Report records a finding for one of the analyzer's rules. Its severity is
// the rule's default; configuration is applied afterwards.
func (p *Pass) Report(r *Rule, span Span, message string, opts ...func(*Finding)) {
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
func WithRelated(span Span, message string) func(*Finding) {
	return func(f *Finding) { f.Related = append(f.Related, Related{span, message}) }
}

// WithFix adds a fix to a finding.
func WithFix(fix Fix) func(*Finding) {
	return func(f *Finding) { f.Fixes = append(f.Fixes, fix) }
}

// Registry holds every analyzer and rule baton knows.
type Registry struct {
	analyzers []*Analyzer
	rules     map[string]*Rule
	ids       []string
}

var ruleID = regexp.MustCompile(`^[a-z]+/[a-z0-9]+(-[a-z0-9]+)*$`)

// NewRegistry checks that every rule is well formed and its ID unique.
func NewRegistry(analyzers ...*Analyzer) (*Registry, error) {
	r := &Registry{analyzers: analyzers, rules: map[string]*Rule{}}
	for _, a := range analyzers {
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
	Doc      *Document
	Findings []Finding // sorted; rules configured off and suppressed findings removed
	models   map[*Analyzer]any
}

// Model returns the model analyzer a built for the document, or nil.
func (r *Result) Model(a *Analyzer) any { return r.models[a] }

// Analyze runs every analyzer for the document's kind.
func (r *Registry) Analyze(doc *Document, cfg *Config) *Result { return r.AnalyzeEnv(doc, cfg, nil) }

// AnalyzeEnv is Analyze with what the environment knows. Suppression
// comments (see RuleUnusedSuppression) apply once every analyzer ran.
func (r *Registry) AnalyzeEnv(doc *Document, cfg *Config, env Env) *Result {
	if doc.TooLarge > 0 {
		return r.tooLarge(doc, cfg)
	}
	res := &Result{Doc: doc, models: map[*Analyzer]any{}}
	if cfg == nil {
		cfg = &Config{}
	}
	for _, a := range r.analyzers {
		if a.Kind != doc.Kind {
			continue
		}
		p := &Pass{Doc: doc, Config: cfg, Env: env, analyzer: a, models: res.models}
		if m := a.Run(p); m != nil {
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
	res.Findings = r.suppress(doc, cfg, res.Findings)
	SortFindings(res.Findings)
	res.Findings = r.capFindings(res.Findings, cfg)
	return res
}
