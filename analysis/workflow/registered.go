package workflow

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
)

// registeredData is the props every component the engine or one of its
// hosts registers declares, from the engine's own registrations, each with
// where it is registered and where its props are declared. A test reads
// the engine's source, when given, and fails where it changed.
//
//go:embed registered.json
var registeredData []byte

// RegisteredComponent is one component the engine or a host registers.
type RegisteredComponent struct {
	Name string `json:"name"`
	// Registered is where the engine registers it, "file, function"; Declared
	// where its props schema is written, "file, constant".
	Registered string `json:"registered"`
	Declared   string `json:"declared"`
	// Host is true for the workflow host's components (xmd workflow start).
	Host bool `json:"host"`
	// Only is the mode the engine registers it in alone: "test" for the
	// test agent's components, which `xmd test` installs and `xmd run`
	// does not (packages/cli/src/cli.ts, installDocumentComponents); ""
	// for every mode.
	Only string `json:"only"`
	// Except are the modes the engine does not register it in: "workflow"
	// for the agent components, which `xmd workflow start` never installs
	// (packages/cli/src/cli.ts: its execution's mode has no agent, and
	// installAgentComponents is called only for an agent or under `xmd
	// test`).
	Except []string `json:"except"`
	// Returns is true when the registration declares `returns`: a value
	// component, invoked with `as`.
	Returns bool `json:"returns"`
	// Captures are props the engine hands over unevaluated: they never meet
	// the props schema (packages/core/src/expand.ts, expandFunctionComponent).
	Captures []string `json:"captures"`
	// Requires are the captures the component itself refuses to run
	// without: "<AssertEquals> requires the \"actual\" prop."
	// (packages/testing/src/assertions.ts, assertionComponent; "<Json>
	// requires a `value` prop", packages/core/src/components/Json.ts). An
	// assertion's expected may be given as its children instead.
	Requires []string `json:"requires"`
	// Assertion is the kind the testing package's assertion table gives an
	// assertion (packages/testing/src/assertions.ts, entry: "binary-eq",
	// "match", …), "" for any other component.
	Assertion string `json:"assertion"`
	// Props is the props schema as the engine registers it.
	Props json.RawMessage `json:"props"`

	// component is Props read as a component file's front matter reads
	// them, so an invocation is checked as one of a component file is:
	// read when first asked (a document invokes a few of them; reading all
	// of them was most of reading the data).
	component func() *Component
}

// RegisteredEngine names the engine version the data was read from.
func RegisteredEngine() string { return registered().engine }

// RegisteredComponents are the components the engine and its hosts
// register, by name. Read when first asked, not at the program's start.
func RegisteredComponents() map[string]*RegisteredComponent { return registered().components }

var registered = sync.OnceValue(func() registeredSet { return readRegistered(registeredData) })

type registeredSet struct {
	engine     string
	components map[string]*RegisteredComponent
}

func readRegistered(data []byte) registeredSet {
	var doc struct {
		Engine     string                 `json:"engine"`
		Components []*RegisteredComponent `json:"components"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		panic(fmt.Sprintf("registered.json: %v", err))
	}
	out := make(map[string]*RegisteredComponent, len(doc.Components))
	for _, rc := range doc.Components {
		if _, dup := out[rc.Name]; dup {
			panic("registered.json: " + rc.Name + " twice")
		}
		// JSON is YAML: the schema is the front matter's props, in flow style.
		rc.component = sync.OnceValue(func() *Component { return Parse("---\nprops: " + string(rc.Props) + "\n---\n") })
		out[rc.Name] = rc
	}
	return registeredSet{engine: doc.Engine, components: out}
}

// captures reports a prop the component captures.
func (rc *RegisteredComponent) captures(name string) bool {
	return rc != nil && slices.Contains(rc.Captures, name)
}

// ExpectedChildren reports an assertion whose children may give its
// expected operand: the kinds binary-eq and string-includes alone
// (packages/testing/src/assertions.ts, entry: allowsExpectedChildren).
func (rc *RegisteredComponent) ExpectedChildren() bool {
	return rc != nil && (rc.Assertion == "binary-eq" || rc.Assertion == "string-includes")
}

// Component is the registered props read as a component file's: Props
// holds the declared props, their schemas and whether more are accepted.
func (rc *RegisteredComponent) Component() *Component { return rc.component() }

// registeredIn reports whether the engine registers name when it runs a
// document in mode (EnvMode, or ModeWorkflow for a document a workflow
// bundle applies to; "" when nothing says, and every registration is
// taken): the workflow host's components only in a workflow run, the test
// agent's only under `xmd test`, the agent components in every run but a
// workflow's.
func registeredIn(name, mode string) bool {
	reg, host := isRegistered(name)
	switch {
	case !reg:
		return false
	case mode == "":
		return true
	case host:
		return mode == ModeWorkflow
	}
	rc := RegisteredComponents()[name]
	switch {
	case rc == nil:
		return true
	case rc.Only != "":
		return rc.Only == mode
	}
	return !slices.Contains(rc.Except, mode)
}

// agentComponent reports a component the engine registers in every run
// but a workflow's.
func agentComponent(name string) bool {
	rc := RegisteredComponents()[name]
	return rc != nil && slices.Contains(rc.Except, ModeWorkflow)
}
