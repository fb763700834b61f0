package stoppolicy

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"
)

// A design workshop in progress makes a material stop an intermediate one:
// the agent is asking the current lens's question, and the packet would
// bury it. specrew decides this from durable state only, never from the
// message: Resolve-SpecrewWorkshopQuestionPause in
// specrew-conformance-provider.ps1 and Get-SpecrewWorkshopLifecycleState in
// scripts/internal/bootstrap/ProjectMetadataAccessor.ps1 (alonf/specrew
// acbb4366). A state that is malformed, ambiguous or complete proves
// nothing, and the ordinary rules apply.

var (
	featureRefPattern = lazyre.New(`^[0-9]{3}-[a-z0-9][a-z0-9-]{0,63}$`)
	iterationPattern  = lazyre.New(`^[0-9]{3,}$`)
	lensPattern       = lazyre.New(`^[a-z][a-z0-9-]{1,63}$`)
	bindingName       = lazyre.New(`^[a-z][a-z0-9.-]{0,63}$`)
	bindingValue      = lazyre.New(`^[a-z0-9][a-z0-9._-]{0,127}$`)
)

// bindingConflict is a load-bearing decision two lenses recorded differently.
type bindingConflict struct {
	binding, priorLens, priorValue, lens, value string
}

// workshopState is what the durable workshop state says about this stop.
type workshopState struct {
	active   bool   // a workshop question is the current, expected pause
	reason   string // specrew's reason
	lens     string // the current lens, when active
	conflict *bindingConflict
}

// workshopPause is Resolve-SpecrewWorkshopQuestionPause: root is the
// specrew workspace, pending whether a verdict is pending (a lifecycle
// boundary always wins).
func workshopPause(root string, pending bool) workshopState {
	if pending {
		return workshopState{reason: "lifecycle-boundary-overrides-workshop"}
	}
	var feature, iteration string
	activeBoundary := false
	ctxState := "absent"
	if data, err := readState(filepath.Join(root, ".specrew", "start-context.json")); err == nil {
		ctxState = "unreadable"
		var top map[string]any
		if json.Unmarshal(trimBOM(data), &top) == nil {
			ctxState = "readable"
			ss, _ := top["session_state"].(map[string]any)
			if ref, _ := ss["feature_ref"].(string); scopedFeature(root, ref) {
				feature = strings.TrimSpace(ref)
			}
			if n, _ := ss["iteration_number"].(string); iterationPattern.MatchString(n) {
				iteration = n
			}
			if bt, _ := ss["boundary_type"].(string); strings.TrimSpace(bt) != "" {
				activeBoundary = true
			}
		}
	}
	if feature == "" {
		// The provider's last fallback: the one feature with a spec.
		if specs, _ := filepath.Glob(filepath.Join(root, "specs", "*", "spec.md")); len(specs) == 1 {
			feature = filepath.Base(filepath.Dir(specs[0]))
		}
	}
	if feature == "" {
		return workshopState{reason: "workshop-state-unproven"}
	}
	if ctxState == "unreadable" {
		return workshopState{reason: "workshop-start-context-unreadable"}
	}
	featureRoot := filepath.Join(root, "specs", feature)
	scopeRoot := featureRoot
	if activeBoundary || iteration != "" {
		if iteration == "" {
			return workshopState{reason: "workshop-active-iteration-missing"}
		}
		scopeRoot = filepath.Join(featureRoot, "iterations", iteration)
	} else if entries, err := os.ReadDir(filepath.Join(featureRoot, "iterations")); err == nil {
		for _, e := range entries {
			if e.IsDir() && iterationPattern.MatchString(e.Name()) {
				return workshopState{reason: "workshop-feature-scope-after-lifecycle-activation"}
			}
		}
	}
	return workshopLifecycle(featureRoot, scopeRoot, iteration == "" && !activeBoundary)
}

func scopedFeature(root, ref string) bool {
	if ref == "" || !featureRefPattern.MatchString(ref) {
		return false
	}
	fi, err := os.Stat(filepath.Join(root, "specs", ref))
	return err == nil && fi.IsDir()
}

func trimBOM(b []byte) []byte { return []byte(strings.TrimPrefix(string(b), "\uFEFF")) }

// workshopLifecycle is Get-SpecrewWorkshopLifecycleState over the scope's
// lens-applicability.json and its workshop/ records.
func workshopLifecycle(featureRoot, scopeRoot string, featureScope bool) workshopState {
	invalid := func(reason string) workshopState { return workshopState{reason: reason} }
	path := filepath.Join(scopeRoot, "lens-applicability.json")
	fi, err := os.Stat(path)
	if err != nil {
		return invalid("workshop-applicability-absent")
	}
	if fi.Size() <= 0 || fi.Size() > 262144 {
		return invalid("workshop-applicability-size-invalid")
	}
	data, err := readState(path)
	if err != nil {
		return invalid("workshop-state-unreadable")
	}
	var app map[string]any
	if json.Unmarshal(trimBOM(data), &app) != nil || app == nil {
		return invalid("workshop-applicability-root-invalid")
	}
	for _, k := range []string{"workshop_intake", "confirmation_required"} {
		if v, ok := app[k].(bool); !ok || !v {
			return invalid("workshop-" + strings.ReplaceAll(k, "_", "-") + "-invalid")
		}
	}
	agenda := "confirmed"
	if v, ok := app["agenda_status"]; ok {
		s, isStr := v.(string)
		if !isStr || (s != "pending-confirmation" && s != "confirmed") {
			return invalid("workshop-agenda-status-invalid")
		}
		agenda = s
	}
	rawSelected, ok := app["selected"].([]any)
	if !ok {
		return invalid("workshop-selected-invalid")
	}
	var selected []string
	for _, v := range rawSelected {
		selected = append(selected, fmt.Sprint(v))
	}
	records, ok := app["workshop"].(map[string]any)
	if !ok {
		return invalid("workshop-record-map-invalid")
	}
	if agenda == "pending-confirmation" {
		switch {
		case !featureScope:
			return invalid("workshop-pre-agenda-iteration-invalid")
		case len(selected) != 0:
			return invalid("workshop-pre-agenda-selected-invalid")
		case len(records) != 0:
			return invalid("workshop-pre-agenda-records-invalid")
		}
		spec, err := os.Stat(filepath.Join(featureRoot, "spec.md"))
		if err != nil || !spec.Mode().IsRegular() {
			return invalid("workshop-pre-agenda-spec-missing")
		}
		if spec.Size() <= 0 || spec.Size() > 1048576 {
			return invalid("workshop-pre-agenda-spec-size-invalid")
		}
		return workshopState{active: true, reason: "workshop-pre-agenda-active", lens: "product-domain"}
	}
	if len(selected) == 0 {
		return invalid("workshop-selected-empty")
	}
	seen := map[string]bool{}
	for _, l := range selected {
		if !lensPattern.MatchString(l) || seen[l] {
			return invalid("workshop-selected-lens-invalid")
		}
		seen[l] = true
	}
	for name := range records {
		if !seen[name] {
			return invalid("workshop-record-not-selected")
		}
	}
	confirmationScopes := map[string]string{"human-confirmed": "lens-question", "human-delegated": "explicit-delegation", "human-skipped": "explicit-skip"}
	var remaining []string
	for _, lens := range selected {
		moved := false
		entry, present := records[lens]
		var rec map[string]any
		if present && entry != nil {
			if rec, ok = entry.(map[string]any); !ok {
				return invalid("workshop-lens-record-invalid")
			}
			if v, has := rec["moved_on"]; has {
				b, isBool := v.(bool)
				if !isBool {
					return invalid("workshop-moved-on-invalid")
				}
				moved = b
			}
		}
		if !moved {
			remaining = append(remaining, lens)
			continue
		}
		if len(remaining) > 0 {
			return invalid("workshop-completion-out-of-order")
		}
		ag, ok := rec["agenda"].([]any)
		if !ok || len(ag) == 0 || slices.ContainsFunc(ag, func(v any) bool { s, ok := v.(string); return !ok || strings.TrimSpace(s) == "" }) {
			return invalid("workshop-completed-agenda-invalid")
		}
		for _, k := range []string{"decision", "depth", "confirmation", "confirmation_scope"} {
			if s, ok := rec[k].(string); !ok || strings.TrimSpace(s) == "" {
				return invalid("workshop-completed-" + strings.ReplaceAll(k, "_", "-") + "-invalid")
			}
		}
		conf := rec["confirmation"].(string)
		if want, ok := confirmationScopes[conf]; !ok || rec["confirmation_scope"].(string) != want {
			return invalid("workshop-completed-confirmation-invalid")
		}
		md := filepath.Join(scopeRoot, "workshop", lens+".md")
		mfi, err := os.Stat(md)
		if err != nil || !mfi.Mode().IsRegular() {
			return invalid("workshop-completed-record-missing")
		}
		if mfi.Size() <= 0 || mfi.Size() > 262144 {
			return invalid("workshop-completed-record-size-invalid")
		}
		if b, err := readState(md); err != nil || strings.TrimSpace(string(b)) == "" {
			return invalid("workshop-completed-record-empty")
		}
	}
	if c, reason := decisionBindings(selected, records); reason != "" {
		return workshopState{reason: reason, conflict: c}
	}
	if len(remaining) == 0 {
		return invalid("workshop-complete")
	}
	return workshopState{active: true, reason: "workshop-active", lens: remaining[0]}
}

// decisionBindings is Test-SpecrewWorkshopDecisionBindings: the bindings
// completed lenses record must agree; reason is "" when they do.
func decisionBindings(selected []string, records map[string]any) (*bindingConflict, string) {
	type prior struct{ lens, value string }
	seen := map[string]prior{}
	for _, lens := range selected {
		rec, _ := records[lens].(map[string]any)
		if moved, _ := rec["moved_on"].(bool); !moved {
			continue
		}
		raw, has := rec["bindings"]
		if !has {
			continue // records from before bindings existed
		}
		bindings, ok := raw.(map[string]any)
		if !ok {
			return &bindingConflict{lens: lens}, "workshop-decision-bindings-invalid"
		}
		names := make([]string, 0, len(bindings))
		for n := range bindings {
			names = append(names, n)
		}
		slices.Sort(names) // PowerShell keeps the file's order; any order finds a conflict
		for _, name := range names {
			value := ""
			if s, ok := bindings[name].(string); ok {
				value = strings.TrimSpace(s)
			}
			if !bindingName.MatchString(name) || !bindingValue.MatchString(value) {
				return &bindingConflict{binding: name, lens: lens, value: value}, "workshop-decision-bindings-invalid"
			}
			if p, ok := seen[name]; ok {
				if p.value != value {
					return &bindingConflict{binding: name, priorLens: p.lens, priorValue: p.value, lens: lens, value: value}, "workshop-decision-binding-conflict"
				}
			} else {
				seen[name] = prior{lens, value}
			}
		}
	}
	return nil, ""
}
