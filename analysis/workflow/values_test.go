package workflow_test

import (
	"testing"

	"github.com/baton-md/baton/analysis/workflow"
)

// Every registered value component is a name the engine or a host
// registers, and says where.
func TestRegisteredValues(t *testing.T) {
	if len(workflow.RegisteredValues()) == 0 {
		t.Fatal("no registered value components")
	}
	for name, origin := range workflow.RegisteredValues() {
		if !workflow.Registered[name] && !workflow.HostRegistered[name] {
			t.Errorf("%s declares returns but is not registered", name)
		}
		if origin == "" {
			t.Errorf("%s: no origin", name)
		}
	}
}
