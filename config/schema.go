package config

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/analysis/packet"
)

// key is a key of a configuration mapping: the parser accepts exactly
// these, and the JSON Schema describes them with the same words.
type key struct {
	name, doc string
}

// The keys of each mapping, in the order the parser's messages list them.
var (
	topKeys = []key{
		{"rules", "Per-rule severity: a rule ID (or a rule pattern holding * ? [ or {) and error, warning, info, hint or off."},
		{"overrides", "Rule severities, or the document kind, for the documents matching patterns, applied in order after rules."},
		{"handoff", "How handoff documents find their clio-coder session."},
		{"phrases", "Phrases added to baton's built-in phrase lists."},
		{"ignore", "gitignore patterns, relative to this file's folder: the documents baton does not check."},
		{"workflow", "How XMD components resolve."},
	}
	overrideKeys = []key{
		{"files", "Patterns matched against the document's path relative to this file's folder (doublestar syntax: * ? [ ] { } and ** across folders)."},
		{"rules", "Severities, as the top-level rules."},
		{"kind", "The kind the matching documents are taken for, whatever their text shows: packet, handoff, workflow or other (other: baton checks nothing in them)."},
		{"workflow", "How XMD components resolve for the matching documents, as the top-level workflow section; a key set here replaces the top-level one."},
	}
	handoffKeys = []key{
		{"state-dir", "The folder clio-coder's sessions are looked for in first; ~ is your home folder, a relative path is relative to this file's folder."},
	}
	workflowKeys = []key{
		{"component-dirs", "The folders XMD component files are searched in, relative to this file's folder; they replace the defaults (components and . of the workspace root, and the document's own folder)."},
		{"registered", "Names of components a host registers at run time (* matches any run of characters)."},
		{"mode", "How the engine runs the documents: run (xmd run), test (xmd test: the document's folder is searched first) or workflow (xmd workflow start: the workflow host's components exist). Default: test for *.test.md, else run, and the workflow host's components are taken as registered."},
	}
)

func keysOf(keys []key) []string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.name
	}
	return names
}

// SchemaID is where the published schema lives.
const SchemaID = "https://raw.githubusercontent.com/baton-md/baton/main/docs/baton.schema.json"

// Schema returns the JSON Schema (draft-07, the draft the YAML language
// server supports fully) of a configuration file whose rules are reg's. It
// accepts what Parse and Validate accept, bar what JSON Schema cannot say
// (a duplicate key is the YAML parser's to report; a rule pattern must
// match a rule).
func Schema(reg *analysis.Registry) []byte {
	type obj = map[string]any
	scalar := obj{"type": []string{"string", "number", "boolean"}}
	stringList := func(doc string, nullable bool) obj {
		types := []any{scalar, obj{"type": "array", "items": scalar}}
		if nullable {
			types = append(types, obj{"type": "null"})
		}
		return obj{"description": doc, "anyOf": types}
	}
	mapping := func(doc string, props obj) obj {
		return obj{"description": doc, "type": []string{"object", "null"}, "properties": props, "additionalProperties": false}
	}
	describe := func(keys []key) map[string]string {
		m := map[string]string{}
		for _, k := range keys {
			m[k.name] = k.doc
		}
		return m
	}

	// A severity is one of the names, in any case.
	var names, folded []string
	for s := analysis.Off; s <= analysis.Hint; s++ {
		names = append(names, s.String())
		var b strings.Builder
		for _, r := range s.String() {
			b.WriteString("[" + strings.ToLower(string(r)) + strings.ToUpper(string(r)) + "]")
		}
		folded = append(folded, b.String())
	}
	severity := obj{
		"description": "error, warning, info, hint or off (any case); off silences the rule",
		"anyOf": []any{
			obj{"enum": names},
			obj{"type": "string", "pattern": "^(?:" + strings.Join(folded, "|") + ")$"},
		},
	}
	ruleProps := obj{}
	for _, r := range reg.Rules() {
		ruleProps[r.ID] = obj{"$ref": "#/definitions/severity", "description": r.Summary + " (default: " + r.Severity.String() + ")"}
	}
	top, ov, ho, wf := describe(topKeys), describe(overrideKeys), describe(handoffKeys), describe(workflowKeys)
	rules := obj{
		"type":                 []string{"object", "null"},
		"properties":           ruleProps,
		"patternProperties":    obj{`[*?\[{]`: obj{"$ref": "#/definitions/severity"}},
		"additionalProperties": false,
	}
	phraseProps := obj{}
	for _, list := range slices.Sorted(maps.Keys(packet.DefaultPhrases)) {
		phraseProps[list] = stringList("Phrases added to the "+list+" list.", true)
	}
	workflowProps := obj{
		"component-dirs": stringList(wf["component-dirs"], true),
		"registered":     stringList(wf["registered"], true),
		"mode":           obj{"description": wf["mode"], "enum": []string{"run", "test", "workflow"}},
	}
	override := obj{
		"type":     "object",
		"required": []string{"files"},
		"properties": obj{
			"files": obj{"description": ov["files"], "anyOf": []any{
				obj{"type": "string", "minLength": 1},
				obj{"type": "array", "minItems": 1, "items": obj{"type": "string", "minLength": 1}},
			}},
			"rules":    obj{"description": ov["rules"], "$ref": "#/definitions/rules"},
			"kind":     obj{"description": ov["kind"], "enum": []string{"packet", "handoff", "workflow", "other"}},
			"workflow": mapping(ov["workflow"], workflowProps),
		},
		"additionalProperties": false,
	}
	schema := obj{
		"$schema":     "http://json-schema.org/draft-07/schema#",
		"$id":         SchemaID,
		"title":       "baton configuration (.baton.yaml)",
		"description": "The configuration of baton, the linter of the Markdown AI coding agents hand each other. Generated by `baton config schema`.",
		"type":        []string{"object", "null"},
		"definitions": obj{"severity": severity, "rules": rules},
		"properties": obj{
			"rules":     obj{"description": top["rules"], "$ref": "#/definitions/rules"},
			"overrides": obj{"description": top["overrides"], "type": []string{"array", "null"}, "items": override},
			"handoff": mapping(top["handoff"], obj{
				"state-dir": obj{"description": ho["state-dir"], "type": "string", "minLength": 1},
			}),
			"phrases":  mapping(top["phrases"], phraseProps),
			"ignore":   stringList(top["ignore"], true),
			"workflow": mapping(top["workflow"], workflowProps),
		},
		"additionalProperties": false,
	}
	data, err := json.MarshalIndent(schema, "", "  ")
	if err != nil {
		panic(err) // maps of strings: cannot fail
	}
	return append(data, '\n')
}
