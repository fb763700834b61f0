package workflow_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/baton-md/baton/analysis/workflow"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The registered components' data is whole and well formed: every name
// the engine or a host registers has its props, each schema compiles as
// the engine compiles it (an object schema, closed, without the reserved
// as and slot), a capture is no schema property, each says where it comes
// from, and the value components are those declaring returns.
func TestRegisteredData(t *testing.T) {
	if !strings.Contains(workflow.RegisteredEngine(), "executable.md @ ") {
		t.Errorf("engine version %q", workflow.RegisteredEngine())
	}
	for name := range workflow.Registered {
		if workflow.RegisteredComponents()[name] == nil {
			t.Errorf("%s is registered but has no props in registered.json", name)
		}
	}
	for name := range workflow.HostRegistered {
		if rc := workflow.RegisteredComponents()[name]; rc == nil || !rc.Host {
			t.Errorf("%s is registered by the workflow host but registered.json does not say so", name)
		}
	}
	origin := regexp.MustCompile(`^packages/[a-z-]+/src/[A-Za-z/.-]+\.ts, [A-Za-z_]+$`)
	for name, rc := range workflow.RegisteredComponents() {
		if !workflow.Registered[name] && !workflow.HostRegistered[name] {
			t.Errorf("%s has props in registered.json but is not a registered name", name)
		}
		if rc.Host != workflow.HostRegistered[name] {
			t.Errorf("%s: host %v", name, rc.Host)
		}
		if !origin.MatchString(rc.Registered) || !origin.MatchString(rc.Declared) {
			t.Errorf("%s: origins %q, %q are not \"file, name\"", name, rc.Registered, rc.Declared)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(rc.Props))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft7)
		if err := c.AddResource("file:///props.json", doc); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if _, err := c.Compile("file:///props.json"); err != nil {
			t.Errorf("%s: the props schema does not compile: %v", name, err)
		}
		var m struct {
			Type       string         `json:"type"`
			Properties map[string]any `json:"properties"`
			Additional *bool          `json:"additionalProperties"`
		}
		if err := json.Unmarshal(rc.Props, &m); err != nil || m.Type != "object" || m.Properties == nil || m.Additional == nil || *m.Additional {
			t.Errorf("%s: not a closed object schema with properties", name)
		}
		for _, reserved := range []string{"as", "slot"} {
			if _, ok := m.Properties[reserved]; ok || slices.Contains(rc.Captures, reserved) {
				t.Errorf("%s declares the reserved %s", name, reserved)
			}
		}
		for _, r := range rc.Requires {
			if !slices.Contains(rc.Captures, r) {
				t.Errorf("%s requires %s, which it does not capture", name, r)
			}
		}
		for _, c := range rc.Captures {
			if _, ok := m.Properties[c]; ok {
				t.Errorf("%s: %s is both a property and a capture", name, c)
			}
		}
		comp := rc.Component()
		if rc.Component() != comp {
			t.Errorf("%s: its props are read again when asked again (the completions tell a registered component by its *Component)", name)
		}
		if comp.Props.Form != workflow.PropsSchema || comp.Props.Open || len(comp.Errors) > 0 {
			t.Errorf("%s: read as form %v, open %v, errors %v", name, comp.Props.Form, comp.Props.Open, comp.Errors)
		}
		if len(comp.Props.List) != len(m.Properties) {
			t.Errorf("%s: %d props read, %d declared", name, len(comp.Props.List), len(m.Properties))
		}
		if rc.Only != "" && rc.Only != workflow.ModeTest {
			t.Errorf("%s: only %q", name, rc.Only)
		}
		_, value := workflow.RegisteredValues()[name]
		if value != rc.Returns {
			t.Errorf("%s: a value component %v, returns %v", name, value, rc.Returns)
		}
	}
	// What the engine's registrations say of a few, read by hand.
	file := workflow.RegisteredComponents()["File"].Component()
	if p := file.Props.Prop("path"); p == nil || !p.Required || p.Type != "string" {
		t.Errorf("File's path: %+v", p)
	}
	if p := workflow.RegisteredComponents()["PullRequest"].Component().Props.Prop("number"); p == nil || p.Type != "integer" {
		t.Errorf("PullRequest's number: %+v", p)
	}
	if got := workflow.RegisteredComponents()["AssertEquals"].Captures; !slices.Equal(got, []string{"actual", "expected"}) {
		t.Errorf("AssertEquals captures %v", got)
	}
}

// TestRegisteredAgainstEngine reads the engine's source (a checkout of
// taras/executable.md named by BATON_XMD_ENGINE) and fails where
// registered.json no longer says what it registers: a registration of a
// name the data lacks, one the engine dropped, a props schema, returns or
// captures that changed, or a file that registers components the data
// does not know of.
func TestRegisteredAgainstEngine(t *testing.T) {
	root := os.Getenv("BATON_XMD_ENGINE")
	if root == "" {
		t.Skip("BATON_XMD_ENGINE names no checkout of the engine")
	}
	read := func(rel string) string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatalf("the engine's %s: %v", rel, err)
		}
		return string(data)
	}
	split := func(origin string) (string, string) {
		file, ident, _ := strings.Cut(origin, ", ")
		return file, ident
	}
	// Every registration in the files the data names.
	engine := map[string]engineRegistration{}
	files := map[string]bool{}
	for _, rc := range workflow.RegisteredComponents() {
		file, _ := split(rc.Registered)
		files[file] = true
	}
	for file := range files {
		for name, reg := range registrationsIn(t, file, read(file), read) {
			engine[name] = reg
		}
	}
	for name, rc := range workflow.RegisteredComponents() {
		reg, ok := engine[name]
		if !ok {
			t.Errorf("%s: the engine no longer registers it in %s", name, rc.Registered)
			continue
		}
		file, _ := split(rc.Registered)
		if reg.file != file {
			t.Errorf("%s: registered in %s, not %s", name, reg.file, file)
		}
		if reg.returns != rc.Returns {
			t.Errorf("%s: the engine's registration declares returns: %v", name, reg.returns)
		}
		if reg.kind != rc.Assertion {
			t.Errorf("%s: the engine's assertion kind is %q, the data's %q", name, reg.kind, rc.Assertion)
		}
		if !slices.Equal(reg.captures, rc.Captures) {
			t.Errorf("%s: the engine's captures are %v, the data's %v", name, reg.captures, rc.Captures)
		}
		declFile, ident := split(rc.Declared)
		if reg.requires != nil {
			if !slices.Equal(reg.requires, rc.Requires) {
				t.Errorf("%s: the engine requires %v, the data %v", name, reg.requires, rc.Requires)
			}
		} else {
			// A component that refuses to run without a capture asks for it
			// by name (Json.ts: hasCapture("value")).
			src := read(declFile)
			for _, c := range rc.Captures {
				if strings.Contains(src, `hasCapture("`+c+`")`) != slices.Contains(rc.Requires, c) {
					t.Errorf("%s: whether it requires %s is no longer what %s says", name, c, declFile)
				}
			}
		}
		got, err := jsConst(read(declFile), ident)
		if err != nil {
			t.Errorf("%s: %s: %v", name, rc.Declared, err)
			continue
		}
		var want any
		if err := json.Unmarshal(rc.Props, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			gj, _ := json.Marshal(got)
			t.Errorf("%s: the engine's props (%s) are now\n%s\nnot\n%s", name, rc.Declared, gj, rc.Props)
		}
	}
	// What only `xmd test` installs is installed in the testing branch of
	// installDocumentComponents, and the rest is not.
	cli := read("packages/cli/src/cli.ts")
	start := strings.Index(cli, "function* installDocumentComponents(")
	branch := ""
	if start >= 0 {
		rest := cli[start:]
		if a := strings.Index(rest, "if (mode.testing) {"); a >= 0 {
			if b := strings.Index(rest[a:], "} else {"); b >= 0 {
				branch = rest[a : a+b]
			}
		}
	}
	if branch == "" {
		t.Errorf("packages/cli/src/cli.ts: no testing branch in installDocumentComponents")
	}
	for name, rc := range workflow.RegisteredComponents() {
		_, fn := split(rc.Registered)
		if rc.Only == workflow.ModeTest && !strings.Contains(branch, fn+"(") {
			t.Errorf("%s: %s is no longer installed for xmd test alone", name, fn)
		}
		if rc.Only == "" && fn == "installTestAgentComponents" {
			t.Errorf("%s is installed by %s, for xmd test alone", name, fn)
		}
	}
	// What a workflow run does not install: installDocumentComponents calls
	// installAgentComponents only under mode.testing or, through
	// installAgentStack, mode.agent, and the workflow command's mode has
	// no agent.
	if w := strings.Index(cli, `case "workflow": {`); w < 0 {
		t.Errorf("packages/cli/src/cli.ts: no workflow command")
	} else if m := regexp.MustCompile(`\{ testing: false, props: execution\.props[^}]*\}`).FindString(cli[w:]); m == "" || strings.Contains(m, "agent") {
		t.Errorf("packages/cli/src/cli.ts: the workflow command's mode is no longer { testing: false, … } without an agent: %q", m)
	}
	if strings.Count(cli, "installAgentComponents(") != 2 { // installAgentStack's and the testing branch's
		t.Errorf("packages/cli/src/cli.ts: installAgentComponents is called elsewhere now")
	}
	for name, rc := range workflow.RegisteredComponents() {
		_, fn := split(rc.Registered)
		if (fn == "installAgentComponents") != slices.Contains(rc.Except, workflow.ModeWorkflow) {
			t.Errorf("%s: installed by %s, and the data's except is %v", name, fn, rc.Except)
		}
	}
	for name, reg := range engine {
		if workflow.RegisteredComponents()[name] == nil {
			t.Errorf("%s: registered in %s, but registered.json does not have it", name, reg.file)
		}
	}
	// No other source file registers components.
	pkgs, _ := filepath.Glob(filepath.Join(root, "packages", "*", "src"))
	for _, dir := range pkgs {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".test.ts") {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if rel == "packages/core/src/components/registration.ts" || files[rel] {
				return nil
			}
			data, err := os.ReadFile(p)
			if err == nil && regexp.MustCompile(`registerComponents\(\s*\[`).Match(data) {
				t.Errorf("%s registers components registered.json does not know of", rel)
			}
			return nil
		})
	}
}

type engineRegistration struct {
	file     string
	returns  bool
	captures []string
	requires []string // the assertion table's required operands; nil elsewhere
	kind     string   // the assertion table's kind; "" elsewhere
}

var (
	namedReg  = regexp.MustCompile(`(?:^|[{,\s])name:\s*"([A-Za-z][A-Za-z0-9.]*)"`)
	coreReg   = regexp.MustCompile(`\bcore\(\s*"([A-Za-z][A-Za-z0-9.]*)"`)
	entryReg  = regexp.MustCompile(`\bentry\(\s*"([A-Za-z][A-Za-z0-9.]*)",\s*"([a-z-]+)"`)
	capturesL = regexp.MustCompile(`captures:\s*\[([^\]]*)\]`)
)

// registrationsIn reads the registrations of one file: the entries of its
// registerComponents([…]) calls and of HARNESS_REGISTRATIONS, core's
// core("Name", …) and the assertion table's entry("Name", "kind", …).
func registrationsIn(t *testing.T, file, src string, read func(string) string) map[string]engineRegistration {
	out := map[string]engineRegistration{}
	segments := func(re *regexp.Regexp, in string) {
		locs := re.FindAllStringSubmatchIndex(in, -1)
		for i, loc := range locs {
			end := len(in)
			if i+1 < len(locs) {
				end = locs[i+1][0]
			}
			seg := in[loc[0]:end]
			if j := strings.Index(seg, "]);"); j >= 0 {
				seg = seg[:j]
			}
			reg := engineRegistration{file: file, returns: regexp.MustCompile(`\breturns\b`).MatchString(seg)}
			if m := capturesL.FindStringSubmatch(seg); m != nil {
				reg.captures = quoted(m[1])
			}
			out[in[loc[2]:loc[3]]] = reg
		}
	}
	for _, start := range regexp.MustCompile(`registerComponents\(\s*\[|HARNESS_REGISTRATIONS = \[|ComponentRegistration\[\] = \[`).FindAllStringIndex(src, -1) {
		body := src[start[1]:]
		if j := strings.Index(body, "\n]"); j >= 0 {
			body = body[:j]
		}
		if j := strings.Index(body, "\n  ]"); j >= 0 {
			body = body[:j]
		}
		segments(namedReg, body)
	}
	if strings.Contains(src, "CORE_REGISTRY") {
		segments(coreReg, src)
	}
	if strings.Contains(src, "export const ASSERTIONS") {
		kinds, required := map[string][]string{}, map[string][]string{}
		for _, m := range regexp.MustCompile(`"?([a-z-]+)"?:\s*\{\s*allowed:\s*\[([^\]]*)\],\s*required:\s*\[([^\]]*)\]`).FindAllStringSubmatch(src, -1) {
			kinds[m[1]] = slices.DeleteFunc(quoted(m[2]), func(s string) bool { return s == "msg" })
			required[m[1]] = quoted(m[3])
		}
		for _, m := range entryReg.FindAllStringSubmatch(src, -1) {
			caps, ok := kinds[m[2]]
			if !ok {
				t.Errorf("%s: the assertion kind %s has no allowed props", file, m[2])
			}
			out[m[1]] = engineRegistration{file: file, captures: caps, requires: required[m[2]], kind: m[2]}
		}
		// The kinds whose children may give the expected operand, which
		// RegisteredComponent.ExpectedChildren names.
		m := regexp.MustCompile(`const allowsExpectedChildren = ([^;]*);`).FindStringSubmatch(src)
		if m == nil || !slices.Equal(quoted(m[1]), []string{"binary-eq", "string-includes"}) {
			t.Errorf("%s: the kinds that take expected children are no longer binary-eq and string-includes", file)
		}
	}
	return out
}

func quoted(list string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`"([^"]*)"`).FindAllStringSubmatch(list, -1) {
		out = append(out, m[1])
	}
	return out
}

// jsConst is the value of `const ident … = {…};` in TypeScript source, an
// object literal of JSON values (keys bare or quoted, comments and trailing
// commas allowed), or the constant it is set to.
func jsConst(src, ident string) (any, error) {
	re := regexp.MustCompile(`(?m)^(?:export )?const ` + regexp.QuoteMeta(ident) + `(?::\s*[A-Za-z]+)?\s*=\s*`)
	loc := re.FindStringIndex(src)
	if loc == nil {
		return nil, errNotFound(ident)
	}
	rest := src[loc[1]:]
	if m := regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*);`).FindStringSubmatch(rest); m != nil {
		return jsConst(src, m[1])
	}
	text, err := jsToJSON(rest)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return nil, err
	}
	return v, nil
}

type errNotFound string

func (e errNotFound) Error() string { return "no constant " + string(e) }

// jsToJSON turns the object literal src starts with into JSON text.
func jsToJSON(src string) (string, error) {
	var b strings.Builder
	depth := 0
	last := func() byte {
		s := strings.TrimRight(b.String(), " \t\r\n")
		if s == "" {
			return 0
		}
		return s[len(s)-1]
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return "", errNotFound("end of a comment")
			}
			i += j + 4
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			s := src[i+1 : min(j, len(src))]
			q, _ := json.Marshal(s)
			b.Write(q)
			i = j + 1
		case c == '{' || c == '[':
			depth++
			b.WriteByte(c)
			i++
		case c == '}' || c == ']':
			if last() == ',' { // a trailing comma
				s := strings.TrimRight(b.String(), " \t\r\n")
				b.Reset()
				b.WriteString(s[:len(s)-1])
			}
			b.WriteByte(c)
			i++
			depth--
			if depth == 0 {
				return b.String(), nil
			}
		case c == '_' || c == '$' || (c|0x20 >= 'a' && c|0x20 <= 'z'):
			j := i
			for j < len(src) && (src[j] == '_' || src[j] == '$' || (src[j]|0x20 >= 'a' && src[j]|0x20 <= 'z') || (src[j] >= '0' && src[j] <= '9')) {
				j++
			}
			word := src[i:j]
			k := j
			for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
				k++
			}
			switch {
			case k < len(src) && src[k] == ':':
				q, _ := json.Marshal(word)
				b.Write(q)
			case word == "true" || word == "false" || word == "null":
				b.WriteString(word)
			default:
				return "", errNotFound("a literal value, not " + word)
			}
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return "", errNotFound("the end of the literal")
}
