package workflow

import (
	"slices"
	"testing"
)

// TestLiveEnvBranches: a branch sees the bindings made before it, and
// what it binds stays in it; a branch that binds nothing copies nothing.
func TestLiveEnvBranches(t *testing.T) {
	root := &liveEnv{durable: map[string]bool{"props": true}, live: map[string]bool{}, order: new([]string)}
	root.bindLive("svc")
	a, b := root.clone(), root.clone()
	a.bindDurable("x")
	a.bindLive("eph")
	if !a.durable["props"] || !a.live["svc"] || !a.durable["x"] || !a.live["eph"] || !slices.Equal(*a.order, []string{"svc", "eph"}) {
		t.Errorf("the branch: durable %v, live %v, order %v", a.durable, a.live, *a.order)
	}
	for name, e := range map[string]*liveEnv{"the other branch": b, "the environment around": root} {
		if e.durable["x"] || e.live["eph"] || !slices.Equal(*e.order, []string{"svc"}) {
			t.Errorf("%s sees the branch's bindings: durable %v, live %v, order %v", name, e.durable, e.live, *e.order)
		}
	}
	nested := b.clone()
	nested.bindDurable("y")
	if b.durable["y"] || root.durable["y"] {
		t.Error("a nested branch's binding reached the branches around it")
	}
	if allocs := testing.AllocsPerRun(100, func() {
		c := root.clone()
		c.bindDurable("props") // already bound: nothing to copy
		_ = c.live["svc"]
	}); allocs > 1 {
		t.Errorf("a branch that binds nothing took %v allocations, want the clone's one", allocs)
	}
}
