// Package config reads baton's configuration file, .baton.yaml: which
// severity each rule reports at, per folder or file pattern, where
// clio-coder's sessions live, and extra phrases for the packet phrase lists.
//
//	rules:                      # per-rule severity: error | warning | info | hint | off
//	  packet/heading-level: off
//	overrides:                  # applied in order, after rules, to the documents they match
//	  - files: ["drafts/**", "**/*.draft.md"]
//	    rules: { packet/review-not-held: warning }
//	  - files: "docs/design/**"
//	    kind: other               # packet | handoff | workflow | other, whatever the text shows
//	handoff:
//	  state-dir: ~/.local/state/clio-coder
//	phrases:                    # extra phrases per list name (the names of packet.DefaultPhrases)
//	  held: ["on ice"]
//	workflow:                   # XMD component resolution (see Workflow)
//	  component-dirs: [components, shared]
//	  registered: [Probe, TestAgent.*]
//
// Every section is optional, and a key the schema does not name is an
// error. files takes a list of patterns or one pattern; a pattern is matched
// (see Match) against the document's path relative to the folder holding
// the configuration file, with `/` between folders, so "*.md" matches only
// in that folder and "**/*.md" at any depth; a pattern ending in "/" means
// everything below that folder. state-dir may start with "~" (the home
// folder); a relative state-dir is relative to the configuration file's
// folder. A phrase list takes a list of phrases or one phrase.
//
// Discover finds the file that applies to a document, Load reads it,
// Validate checks its rule IDs and phrase list names against what baton
// knows, and For gives the configuration for one document. Problems are
// reported as an *Error, each with the line and column it is at.
package config

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
	"github.com/baton-md/baton/internal/ignore"
	"github.com/baton-md/baton/internal/safefile"
	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"
)

// FileName is the name of the configuration file.
const FileName = ".baton.yaml"

// maxFileBytes bounds a configuration file: a hand-written one is a few
// hundred bytes.
const maxFileBytes = 1 << 20

// File is a parsed configuration file.
type File struct {
	Path string // as given to Load or Parse
	Dir  string // the absolute folder holding it: patterns and a relative state-dir are relative to it

	Rules        map[string]analysis.Severity // nil when the file sets none
	RulePatterns []RulePattern                // rules: keys holding * ? [ or {, in file order
	Overrides    []Override
	StateDir     string              // handoff.state-dir, "~" expanded and made absolute; "" when unset
	Phrases      map[string][]string // nil when the file adds none
	Ignore       []ignore.Pattern    // ignore:, gitignore patterns relative to Dir
	ignored      *ignore.Matcher     // Ignore's matcher, built once by Parse
	Workflow     Workflow            // the workflow section

	names []name   // the rule IDs, rule patterns and phrase list names written, for Validate
	ids   []string // the rule IDs Validate was given, which rule patterns are matched against
}

// RulePattern sets the severity of every rule whose ID matches a glob
// (`workflow/*`, `*/heading-*`; `*` stays within one part of an ID, `**`
// spans the `/`).
type RulePattern struct {
	Pattern  string
	Severity analysis.Severity
}

// Override sets rule severities for the documents matching any of its
// patterns.
type Override struct {
	Files        []string // patterns, as written (less a leading "./"); see Match
	Rules        map[string]analysis.Severity
	RulePatterns []RulePattern
	// Kind, when set, is the kind the matching documents are taken for,
	// whatever their text shows (a document that reads as a workflow but
	// only quotes one, or a workflow with no sign baton can see).
	Kind *markdown.Kind
	// Workflow, when set, is how XMD components resolve for the matching
	// documents: each key it sets replaces the top-level one (WorkflowFor).
	Workflow *Workflow
}

// Settings are what the configuration says beyond the analysis.Config.
type Settings struct {
	StateDir string // where clio-coder's sessions are looked for first; "" when unset
}

// name is a rule ID, rule pattern or phrase list name and where it is
// written.
type name struct {
	phrase       bool // a phrase list name, else a rule ID or pattern
	pattern      bool // a rule pattern
	text         string
	line, column int
}

// Problem is one thing wrong with a configuration file. Line and Column are
// 1-based (the column counts characters); either is 0 when unknown.
type Problem struct {
	Line, Column int
	Message      string
}

// Error lists what is wrong with a configuration file, in file order.
type Error struct {
	Path     string
	Problems []Problem
}

func (e *Error) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Path)
		if p.Line > 0 {
			fmt.Fprintf(&b, ":%d", p.Line)
			if p.Column > 0 {
				fmt.Fprintf(&b, ":%d", p.Column)
			}
		}
		b.WriteString(": ")
		b.WriteString(p.Message)
	}
	return b.String()
}

// Load reads and parses the configuration file at path. A file that cannot
// be read gives the os error; a malformed one an *Error.
func Load(path string) (*File, error) {
	data, err := safefile.ReadFile(path, maxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("read configuration: %w", err)
	}
	return Parse(path, data)
}

// LoadWith reads and parses the configuration file at path and validates
// it against reg (see ParseWith): every problem at once.
func LoadWith(path string, reg *analysis.Registry) (*File, error) {
	data, err := safefile.ReadFile(path, maxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("read configuration: %w", err)
	}
	return ParseWith(path, data, reg)
}

// ParseWith is Parse then Validate, with the problems of both in one
// *Error, in file order: a file with a malformed severity and an unknown
// rule reports both, not the second only once the first is fixed.
func ParseWith(path string, data []byte, reg *analysis.Registry) (*File, error) {
	f, problems, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	problems = append(problems, f.validate(reg)...)
	if len(problems) > 0 {
		slices.SortStableFunc(problems, func(a, b Problem) int { return cmp.Or(a.Line-b.Line, a.Column-b.Column) })
		return nil, &Error{Path: path, Problems: problems}
	}
	return f, nil
}

// Parse parses data as the configuration file at path (which need not
// exist: an editor's unsaved buffer parses too). Validate checks the names
// it holds; ParseWith does both.
func Parse(path string, data []byte) (*File, error) {
	f, problems, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		slices.SortStableFunc(problems, func(a, b Problem) int { return cmp.Or(a.Line-b.Line, a.Column-b.Column) })
		return nil, &Error{Path: path, Problems: problems}
	}
	return f, nil
}

// parse reads data, returning the file and its problems (the file is
// whatever could be read despite them); the error is not the file's.
func parse(path string, data []byte) (*File, []Problem, error) {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, nil, fmt.Errorf("configuration %s: %w", path, err)
	}
	p := &parser{f: &File{Path: path, Dir: dir}}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	switch err := dec.Decode(&doc); {
	case errors.Is(err, io.EOF):
		return p.f, nil, nil
	case err != nil:
		p.problems = append(p.problems, yamlProblem(err))
	default:
		var next yaml.Node
		if err := dec.Decode(&next); err == nil {
			p.errorf(&next, "a configuration file holds one YAML document; this is a second one")
		} else if !errors.Is(err, io.EOF) {
			p.problems = append(p.problems, yamlProblem(err))
		}
		if len(doc.Content) > 0 {
			p.file(doc.Content[0])
		}
	}
	if len(p.f.Ignore) > 0 {
		p.f.ignored = &ignore.Matcher{}
		p.f.ignored.Add(p.f.Ignore...)
	}
	return p.f, p.problems, nil
}

var yamlLine = lazyre.New(`^yaml: line (\d+): (.*)$`)

// yamlProblem keeps the line of a YAML syntax error.
func yamlProblem(err error) Problem {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return Problem{Line: line, Message: "YAML: " + m[2]}
	}
	return Problem{Message: "YAML: " + strings.TrimPrefix(msg, "yaml: ")}
}

type parser struct {
	f        *File
	problems []Problem
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	p.problems = append(p.problems, Problem{Line: n.Line, Column: n.Column, Message: fmt.Sprintf(format, args...)})
}

func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// mapping calls do for each key of a mapping node, in order, reporting a
// node of another kind, a key that is not a scalar, duplicate keys and, when
// keys is not empty, the keys not in it. A null node is an empty mapping.
func (p *parser) mapping(n *yaml.Node, what string, keys []string, do func(key string, k, v *yaml.Node)) {
	n = deref(n)
	if isNull(n) {
		return
	}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "%s must be a mapping, not %s", what, describe(n))
		return
	}
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			p.errorf(k, "a key in %s must be a plain value, not %s", what, describe(k))
			continue
		}
		if first := seen[k.Value]; first != nil {
			p.errorf(k, "%s sets %s twice (first at line %d)", what, k.Value, first.Line)
			continue
		}
		seen[k.Value] = k
		if len(keys) > 0 && !slices.Contains(keys, k.Value) {
			p.errorf(k, "unknown key %q in %s (want %s)", k.Value, what, orList(keys))
			continue
		}
		do(k.Value, k, v)
	}
}

// stringList reads a list of plain values, or one; ok is false when n is
// neither (which is reported).
func (p *parser) stringList(n *yaml.Node, what string) (values []string, nodes []*yaml.Node, ok bool) {
	n = deref(n)
	items := []*yaml.Node{n}
	switch {
	case isNull(n):
		return nil, nil, true
	case n.Kind == yaml.SequenceNode:
		items = n.Content
	case n.Kind != yaml.ScalarNode:
		p.errorf(n, "%s must be a list of strings, not %s", what, describe(n))
		return nil, nil, false
	}
	ok = true
	for _, it := range items {
		it = deref(it)
		if it.Kind != yaml.ScalarNode || isNull(it) {
			p.errorf(it, "%s must be a list of strings; this item is %s", what, describe(it))
			ok = false
			continue
		}
		values = append(values, it.Value)
		nodes = append(nodes, it)
	}
	return values, nodes, ok
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if isNull(n) {
			return "empty"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "a YAML document"
}

func (p *parser) file(n *yaml.Node) {
	p.mapping(n, "the configuration", keysOf(topKeys), func(key string, k, v *yaml.Node) {
		switch key {
		case "rules":
			p.f.Rules, p.f.RulePatterns = p.rules(v, "rules")
		case "ignore":
			p.ignore(v)
		case "overrides":
			p.overrides(v)
		case "handoff":
			p.mapping(v, "handoff", keysOf(handoffKeys), func(_ string, k, v *yaml.Node) { p.stateDir(v) })
		case "phrases":
			p.phrases(v)
		case "workflow":
			p.workflow(v, "workflow", &p.f.Workflow)
		}
	})
}

// rules reads a mapping of rule ID (or rule pattern) to severity.
func (p *parser) rules(n *yaml.Node, what string) (out map[string]analysis.Severity, patterns []RulePattern) {
	p.mapping(n, what, nil, func(id string, k, v *yaml.Node) {
		isPattern := strings.ContainsAny(id, "*?[{")
		if isPattern && !doublestar.ValidatePattern(id) {
			p.errorf(k, "rule pattern %q is malformed: check its [ ] classes, { } braces and \\ escapes", id)
			return
		}
		p.f.names = append(p.f.names, name{text: id, pattern: isPattern, line: k.Line, column: k.Column})
		if v.Kind != yaml.ScalarNode || isNull(v) {
			p.errorf(v, "rule %s has no severity: want error, warning, info, hint or off, not %s", id, describe(v))
			return
		}
		sev, err := analysis.ParseSeverity(v.Value)
		if err != nil {
			p.errorf(v, "unknown severity %q for rule %s (want error, warning, info, hint or off)", v.Value, id)
			return
		}
		if isPattern {
			patterns = append(patterns, RulePattern{Pattern: id, Severity: sev})
			return
		}
		if out == nil {
			out = map[string]analysis.Severity{}
		}
		out[id] = sev
	})
	return out, patterns
}

// ignore reads the ignore: list of gitignore patterns.
func (p *parser) ignore(n *yaml.Node) {
	pats, nodes, _ := p.stringList(n, "ignore")
	for j, pat := range pats {
		ip, ok, err := ignore.Parse("", fmt.Sprintf("%s:%d", p.f.Path, nodes[j].Line), pat)
		switch {
		case err != nil:
			p.errorf(nodes[j], "ignore: %v", err)
		case !ok:
			p.errorf(nodes[j], "ignore: %q is not a pattern (blank, or a # comment)", pat)
		default:
			p.f.Ignore = append(p.f.Ignore, ip)
		}
	}
}

func (p *parser) overrides(n *yaml.Node) {
	n = deref(n)
	if isNull(n) {
		return
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, "overrides must be a list of {files, rules}, not %s", describe(n))
		return
	}
	for i, item := range n.Content {
		item = deref(item)
		what := fmt.Sprintf("overrides[%d]", i)
		var o Override
		hasFiles := false
		p.mapping(item, what, keysOf(overrideKeys), func(key string, k, v *yaml.Node) {
			switch key {
			case "files":
				hasFiles = true
				pats, nodes, ok := p.stringList(v, what+".files")
				if ok && len(pats) == 0 {
					p.errorf(v, "%s.files is empty: give at least one pattern", what)
				}
				for j, pat := range pats {
					if clean, err := checkPattern(pat); err != nil {
						p.errorf(nodes[j], "pattern %q: %v", pat, err)
					} else {
						o.Files = append(o.Files, clean)
					}
				}
			case "rules":
				o.Rules, o.RulePatterns = p.rules(v, what+".rules")
			case "kind":
				k, ok := markdown.KindOfID(v.Value)
				if v.Kind != yaml.ScalarNode || !ok {
					p.errorf(v, "%s.kind must be packet, handoff, workflow or other, not %s", what, describe(v))
					return
				}
				o.Kind = &k
			case "workflow":
				o.Workflow = &Workflow{}
				p.workflow(v, what+".workflow", o.Workflow)
			}
		})
		if item.Kind == yaml.MappingNode && !hasFiles {
			p.errorf(item, "%s has no files: say which documents it applies to", what)
		}
		p.f.Overrides = append(p.f.Overrides, o)
	}
}

// checkPattern returns a files pattern as it is matched.
func checkPattern(pat string) (string, error) {
	for strings.HasPrefix(pat, "./") {
		pat = pat[2:]
	}
	switch {
	case pat == "" || pat == ".":
		return "", errors.New("empty pattern")
	case strings.HasPrefix(pat, "/"):
		return "", errors.New("patterns are relative to the configuration file's folder: drop the leading /")
	case slices.Contains(strings.Split(pat, "/"), ".."):
		return "", errors.New("patterns match below the configuration file's folder only: \"..\" never matches")
	}
	if strings.HasSuffix(pat, "/") {
		pat += "**"
	}
	if _, err := Match(pat, ""); err != nil {
		return "", errors.New("malformed, so it can never match: check its [ ] classes, { } braces and \\ escapes")
	}
	// A document's path relative to the folder has no empty and no "."
	// segment: a pattern with one matches nothing.
	for _, seg := range strings.Split(pat, "/") {
		if seg == "" || seg == "." {
			return "", fmt.Errorf("can never match: a document's path has no %q between two slashes", seg)
		}
	}
	return pat, nil
}

func (p *parser) stateDir(v *yaml.Node) {
	if v.Kind != yaml.ScalarNode || isNull(v) || v.Value == "" {
		p.errorf(v, "handoff.state-dir must be a folder, not %s", describe(v))
		return
	}
	dir := v.Value
	if dir == "~" || strings.HasPrefix(dir, "~/") || strings.HasPrefix(dir, "~"+string(filepath.Separator)) {
		home, err := os.UserHomeDir()
		if err != nil {
			p.errorf(v, "handoff.state-dir %q: %v", dir, err)
			return
		}
		dir = filepath.Join(home, dir[1:])
	} else if strings.HasPrefix(dir, "~") {
		p.errorf(v, "handoff.state-dir %q: only ~ (your home folder) is expanded, not ~user", dir)
		return
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(p.f.Dir, dir)
	}
	p.f.StateDir = filepath.Clean(dir)
}

func (p *parser) phrases(n *yaml.Node) {
	p.mapping(n, "phrases", nil, func(list string, k, v *yaml.Node) {
		p.f.names = append(p.f.names, name{phrase: true, text: list, line: k.Line, column: k.Column})
		what := "phrases." + list
		phrases, nodes, _ := p.stringList(v, what)
		for j, ph := range phrases {
			if strings.TrimSpace(ph) == "" {
				p.errorf(nodes[j], "%s holds an empty phrase", what)
			}
		}
		if len(phrases) > 0 {
			if p.f.Phrases == nil {
				p.f.Phrases = map[string][]string{}
			}
			p.f.Phrases[list] = phrases
		}
	})
}

// Validate checks the rule IDs against the rules reg holds and the phrase
// list names against packet.DefaultPhrases. A nil File is valid.
func (f *File) Validate(reg *analysis.Registry) error {
	if f == nil {
		return nil
	}
	if problems := f.validate(reg); len(problems) > 0 {
		return &Error{Path: f.Path, Problems: problems}
	}
	return nil
}

// validate returns the problems Validate reports.
func (f *File) validate(reg *analysis.Registry) []Problem {
	var ids []string
	for _, r := range reg.Rules() {
		ids = append(ids, r.ID)
	}
	f.ids = ids
	lists := slices.Sorted(maps.Keys(packet.DefaultPhrases))
	var problems []Problem
	for _, n := range f.names {
		var msg string
		switch {
		case n.pattern:
			if slices.ContainsFunc(ids, func(id string) bool { ok, _ := doublestar.Match(n.text, id); return ok }) {
				continue
			}
			msg = fmt.Sprintf("rule pattern %q matches no rule (`baton explain` lists the rules)", n.text)
		case n.phrase && packet.DefaultPhrases[n.text] == nil:
			msg = fmt.Sprintf("unknown phrase list %q (want %s)", n.text, orList(lists))
		case !n.phrase && reg.Rule(n.text) == nil:
			msg = fmt.Sprintf("unknown rule %q", n.text)
			if near := nearest(n.text, ids); near != "" {
				msg += fmt.Sprintf(": did you mean %s?", near)
			} else {
				msg += " (`baton explain` lists the rules)"
			}
		default:
			continue
		}
		problems = append(problems, Problem{Line: n.line, Column: n.column, Message: msg})
	}
	return problems
}

// For returns the configuration for the document at path (relative paths
// are relative to the working folder): the rules section, then every
// override matching the document, in order. A nil File gives the zero
// configuration.
func (f *File) For(path string) (analysis.Config, Settings) {
	if f == nil {
		return analysis.Config{}, Settings{}
	}
	cfg := analysis.Config{Phrases: maps.Clone(f.Phrases)}
	f.apply(&cfg, f.RulePatterns, f.Rules)
	rel := f.relative(path)
	for i, o := range f.Overrides {
		if rel == "" || !o.matches(rel) {
			continue
		}
		f.apply(&cfg, o.RulePatterns, o.Rules)
		if o.Kind != nil {
			cfg.Kind, cfg.KindFrom = o.Kind, fmt.Sprintf("%s overrides[%d]", filepath.Base(f.Path), i)
		}
	}
	return cfg, Settings{StateDir: f.StateDir}
}

// apply sets the severities of one rules mapping: its patterns first, in
// the order written, then its rule IDs, so `workflow/*: off` with
// `workflow/syntax: error` beside it keeps that one rule on whatever the
// order. Patterns match the rules Validate was given.
func (f *File) apply(cfg *analysis.Config, patterns []RulePattern, rules map[string]analysis.Severity) {
	if len(patterns) == 0 && len(rules) == 0 {
		return
	}
	if cfg.Severity == nil {
		cfg.Severity = map[string]analysis.Severity{}
	}
	for _, rp := range patterns {
		for _, id := range f.ids {
			if ok, _ := doublestar.Match(rp.Pattern, id); ok {
				cfg.Severity[id] = rp.Severity
			}
		}
	}
	maps.Copy(cfg.Severity, rules)
}

// Ignored returns the ignore: pattern that ignores the document or folder
// at path (relative paths are relative to the working folder), or nil. A
// path outside the file's folder is never ignored.
func (f *File) Ignored(path string, isDir bool) *ignore.Pattern {
	if f == nil || len(f.Ignore) == 0 {
		return nil
	}
	rel := f.relative(path)
	if rel == "" {
		return nil
	}
	m := f.ignored
	if m == nil { // a File not made by Parse
		m = &ignore.Matcher{}
		m.Add(f.Ignore...)
	}
	return m.Ignored(rel, isDir)
}

// relative is path relative to the file's folder, with "/" between
// folders, or "" when it lies outside.
func (f *File) relative(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(f.Dir, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

func (o Override) matches(rel string) bool {
	for _, pat := range o.Files {
		if ok, _ := Match(pat, rel); ok {
			return true
		}
	}
	return false
}

// Discover returns the path of the nearest configuration file in folder
// start or a folder above it, up to the root of the file system, or "" when
// there is none. start may also be a file, for its folder.
func Discover(start string) (string, error) {
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", fmt.Errorf("look for %s: %w", FileName, err)
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		dir = filepath.Dir(dir)
	}
	for {
		if path, found, err := DiscoverHere(dir); found || err != nil {
			return path, err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// DiscoverHere is one step of Discover: the .baton.yaml of the folder dir
// (an absolute path) itself, found false when it has none.
func DiscoverHere(dir string) (path string, found bool, err error) {
	path = filepath.Join(dir, FileName)
	// A .baton.yaml that is there but is no file (a folder, a
	// dangling symlink, a pipe) is an error, not silently skipped:
	// the user meant it to configure baton.
	_, err = os.Lstat(path)
	switch {
	case err == nil:
		fi, serr := os.Stat(path)
		switch {
		case serr != nil && errors.Is(serr, fs.ErrNotExist):
			return "", true, fmt.Errorf("%s is a symbolic link to nothing (%s)", path, readlink(path))
		case serr != nil:
			return "", true, fmt.Errorf("look for %s: %w", FileName, serr)
		case !fi.Mode().IsRegular():
			return "", true, fmt.Errorf("%s is %s, not a configuration file", path, safefile.What(fi.Mode()))
		}
		return path, true, nil
	case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
		return "", true, fmt.Errorf("look for %s: %w", FileName, err)
	}
	return "", false, nil
}

func readlink(path string) string {
	target, err := os.Readlink(path)
	if err != nil {
		return err.Error()
	}
	return "it points to " + target
}

func orList(words []string) string {
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// Nearest is the word of words closest to w by edit distance, when it is
// close enough to be a misspelling of it, or "" (for "did you mean").
func Nearest(w string, words []string) string { return nearest(w, words) }

// nearest is the word closest to w by edit distance, when it is close
// enough to be a misspelling of it, or "".
func nearest(w string, words []string) string {
	best, bestD := "", min(3, len(w)/3)+1
	for _, c := range words {
		if d := distance(w, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
