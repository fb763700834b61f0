package workflow

import "sync"

// RegisteredValues are the components the engine or one of its hosts
// registers with `returns` declared (RegisteredComponents), each with where
// it is registered: they render nothing and must be invoked with `as`
// (packages/core/src/expand.ts: "declares `returns`, so it renders nothing
// and must be invoked with `as`").
var RegisteredValues = sync.OnceValue(registeredValues)

func registeredValues() map[string]string {
	out := map[string]string{}
	for name, rc := range RegisteredComponents() {
		if rc.Returns {
			out[name] = rc.Registered
		}
	}
	return out
}

// isRegisteredValue reports the registered components that declare
// `returns` (RegisteredValues).
func isRegisteredValue(name string) bool {
	_, ok := RegisteredValues()[name]
	return ok
}
