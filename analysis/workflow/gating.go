package workflow

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// checkCheckpoints reports checkpoints that return no decision or bind
// none, then the transitions that escape them.
func (k *checker) checkCheckpoints() {
	if len(k.m.Checkpoints) == 0 {
		// Nothing to gate on: only the document's own name can matter.
		k.checkSelfCheckpoint()
		return
	}
	transitions := k.transitions()
	for _, cp := range k.m.Checkpoints {
		t := cp.Tag
		if cp.Known && !cp.Decision && namedCheckpoint(t.Name) {
			res := k.resOf(t)
			what := "a text component (no returns)"
			if res.Component.Returns != nil {
				what = "a value component whose returns has no boolean proceed"
			}
			on := "its proceed"
			if cp.Name != "" {
				on = cp.Name + ".proceed"
			}
			k.report(RuleCheckpointNoDecision, t.NameSpan, fmt.Sprintf("<%s> resolves to %s, %s: it returns rendered prose, not a decision, so nothing can branch on %s",
				t.Name, res.Path, what, on))
		}
		if cp.Name != "" {
			continue
		}
		var after []*Tag
		for _, tr := range transitions {
			if tr.Span.Start >= t.Span.End && !k.exclusive(t, tr) && enclosingTest(tr) == enclosingTest(t) {
				after = append(after, tr)
			}
		}
		msg := fmt.Sprintf("<%s> has no as=\"…\": its decision is discarded, so nothing after it can be gated on proceed", t.Name)
		switch n := len(after); {
		case n == 1:
			msg += " (1 transition follows)"
		case n > 1:
			msg += fmt.Sprintf(" (%d transitions follow)", n)
		}
		var opts []func(*analysis.Finding)
		for _, tr := range after[:min(len(after), 5)] {
			opts = append(opts, analysis.WithRelated(tr.NameSpan, "<"+tr.Name+"> follows ungated"))
		}
		opts = append(opts, analysis.WithFix(k.addAsFix(t)))
		k.report(RuleUnboundCheckpoint, t.NameSpan, msg, opts...)
	}
	k.checkGating(transitions)
	k.checkSelfCheckpoint()
}

// transitions are the tags that advance the workflow.
func (k *checker) transitions() []*Tag {
	var out []*Tag
	for _, t := range k.c.Tags {
		if k.isTransition(t) {
			out = append(out, t)
		}
	}
	return out
}

func (k *checker) isTransition(t *Tag) bool {
	switch {
	case t.Name == "Prompt" || t.Name == "Session.Launch" || t.Name == "PullRequest" || t.Name == "Issue" || strings.HasPrefix(t.Name, "Git."):
		return true
	case k.tags[t.Index].cp != nil || t.Name == "Capture":
		return false
	}
	switch k.resOf(t).Kind {
	case ResolveFile, ResolveBundle, ResolveUnresolved, ResolveUnknown:
		return true
	}
	return false
}

// contains reports whether tag a encloses b (or is b).
func contains(a, b *Tag) bool {
	for x := b; x != nil; x = x.Parent {
		if x == a {
			return true
		}
	}
	return false
}

// branchOf reports whether x sits in the <Else> of the <If> ifTag (which
// encloses it).
func branchOf(x, ifTag *Tag) (inElse bool) {
	for ; x != nil && x.Parent != ifTag; x = x.Parent {
	}
	return x != nil && x.Name == "Else"
}

// exclusive reports whether a and b sit in different branches of one
// <If>, so at most one of them runs.
func (k *checker) exclusive(a, b *Tag) bool {
	for p := a.Parent; p != nil; p = p.Parent {
		if p.Name == "If" && contains(p, b) && !contains(a, b) && !contains(b, a) {
			if branchOf(a, p) != branchOf(b, p) {
				return true
			}
		}
	}
	return false
}

// gated reports whether t runs only when cp proceeded: inside the
// then-branch of an <If> requiring cp.proceed, or the <Else> of one
// requiring !cp.proceed, that does not itself enclose the checkpoint. inElse
// reports a transition in the <Else> of such a gate.
func (k *checker) gated(t *Tag, cp *Checkpoint) (ok, inElse bool) {
	for p := t.Parent; p != nil; p = p.Parent {
		if p.Name != "If" || contains(p, cp.Tag) {
			continue
		}
		cond := condOf(p)
		if cond == "" {
			continue
		}
		e := branchOf(t, p)
		switch {
		case !e && k.cd.requires(cond, cp.Name), e && k.cd.requiresNot(cond, cp.Name):
			return true, false
		case e && k.cd.requires(cond, cp.Name), !e && k.cd.requiresNot(cond, cp.Name):
			inElse = true
		}
	}
	return false, inElse
}

// declinedBreaks reports whether, after cp in its loop's body, every path
// taken when the user declined leaves the loop: a <Break> follows it, or
// the gate's <Else> (the then-branch of !cp.proceed) breaks.
func (k *checker) declinedBreaks(cp *Checkpoint, loop *Tag) bool {
	for n := cp.Tag; n != nil && n != loop; n = n.Parent {
		var sibs []Node
		if n.Parent == nil {
			sibs = k.c.Body
		} else {
			sibs = n.Parent.Children
		}
		i := slices.IndexFunc(sibs, func(x Node) bool { return x == Node(n) })
		for _, s := range sibs[i+1:] {
			st, ok := s.(*Tag)
			if !ok {
				continue
			}
			if st.Name == "Break" {
				return true
			}
			if st.Name != "If" {
				continue
			}
			cond := condOf(st)
			for _, ch := range st.Children {
				c, ok := ch.(*Tag)
				if !ok {
					continue
				}
				if k.cd.requires(cond, cp.Name) && c.Name == "Else" && hasDirectBreak(c) {
					return true
				}
				if k.cd.requiresNot(cond, cp.Name) && c.Name == "Break" {
					return true
				}
			}
		}
	}
	return false
}

func hasDirectBreak(t *Tag) bool {
	for _, ch := range t.Children {
		if c, ok := ch.(*Tag); ok && c.Name == "Break" {
			return true
		}
	}
	return false
}

// superseded reports a later checkpoint bound to the same name between
// cp and t: cp.proceed then reads that one's decision.
func (k *checker) superseded(cp *Checkpoint, t *Tag) bool {
	n := k.nextSame(cp)
	return n != nil && n.Tag.Span.End <= t.Span.Start
}

// nextSame is the next checkpoint bound to the same name as cp after it,
// or nil. All are worked out on the first call, into tagInfo.next (a
// checkpoint is its tag's).
func (k *checker) nextSame(cp *Checkpoint) *Checkpoint {
	if !k.nextBuilt {
		k.nextBuilt = true
		cps := k.m.Checkpoints
		// The walk appends a checkpoint after the ones inside its tag, so
		// Checkpoints is not always in document order.
		if !slices.IsSortedFunc(cps, func(a, b *Checkpoint) int { return a.Tag.Span.Start - b.Tag.Span.Start }) {
			cps = slices.Clone(cps)
			slices.SortFunc(cps, func(a, b *Checkpoint) int { return a.Tag.Span.Start - b.Tag.Span.Start })
		}
		// last holds the latest checkpoint seen of each name but prev's:
		// a workflow binds every checkpoint to one name, or runs of them,
		// and the one before needs no lookup.
		var last map[string]*Checkpoint
		var prev *Checkpoint
		for i := len(cps) - 1; i >= 0; i-- {
			c := cps[i]
			n := prev
			if prev == nil || prev.Name != c.Name {
				if prev != nil {
					if last == nil {
						last = map[string]*Checkpoint{}
					}
					last[prev.Name] = prev
				}
				n = last[c.Name]
			}
			if n != nil && n.Tag.Span.Start >= c.Tag.Span.End {
				k.tags[c.Tag.Index].next = n
			}
			prev = c
		}
	}
	return k.tags[cp.Tag.Index].next
}

func enclosingTest(t *Tag) *Tag {
	for p := t.Parent; p != nil; p = p.Parent {
		if p.Name == "Test" {
			return p
		}
	}
	return nil
}

func nearestLoop(t *Tag) *Tag {
	for p := t.Parent; p != nil; p = p.Parent {
		if p.Name == "Loop" {
			return p
		}
	}
	return nil
}

// escape is a transition's escape from one checkpoint: after it, on the
// loop's next iteration (loopBack), or in the <Else> of its gate.
type escape struct {
	cp       *Checkpoint
	loopBack bool
	inElse   bool
}

// maxEscapesReported is how many escaped checkpoints a transition is
// reported for, one finding each; the last says how many more it escapes.
// A stage escaping dozens of checkpoints needs restructuring, not dozens of
// findings on one tag (an unnested workflow of n stages would otherwise give
// n²/2 of them).
const maxEscapesReported = 3

// maxWrapConjuncts is the most checkpoints the wrap fix gates a transition
// on in one condition; beyond it no fix is offered.
const maxWrapConjuncts = 4

// escapes are what one transition escapes: the first few, whether there
// are more, and the checkpoint names a wrapper would gate it on.
type escapes struct {
	first []escape // at most maxEscapesReported
	more  bool
	names []string // distinct, at most maxWrapConjuncts+1
}

// saturated reports that nothing more needs to be known of t's escapes:
// more than are reported, and too many names for a wrap fix.
func (es *escapes) saturated() bool {
	return es != nil && es.more && len(es.names) > maxWrapConjuncts
}

// checkGating reports every transition that runs after a bound checkpoint
// without being gated on its proceed; a transition inside one already
// reported for the same checkpoint is covered by it.
func (k *checker) checkGating(transitions []*Tag) {
	if !slices.ContainsFunc(k.m.Checkpoints, func(cp *Checkpoint) bool { return cp.Name != "" }) {
		return // only bound checkpoints gate
	}
	var order []*Tag
	// Tags come in document order, so transitions usually are already.
	if !slices.IsSortedFunc(transitions, func(a, b *Tag) int { return a.Span.Start - b.Span.Start }) {
		transitions = slices.Clone(transitions)
		slices.SortStableFunc(transitions, func(a, b *Tag) int { return a.Span.Start - b.Span.Start })
	}
	// By Tag.Index: whether the tag is a transition, whether it holds
	// others (their escapes cover the inner ones, so they are always
	// worked out in full), and the last checkpoint (its position in
	// Checkpoints, plus one) it was flagged for.
	type trInfo struct {
		isTr, outer bool
		flagged     int
		es          *escapes // what it escapes, once it escapes one
	}
	info := make([]trInfo, len(k.c.Tags))
	for _, t := range transitions {
		info[t.Index].isTr = true
	}
	for _, t := range transitions {
		for p := t.Parent; p != nil; p = p.Parent {
			if info[p.Index].isTr {
				info[p.Index].outer = true
			}
		}
	}
	for cpi, cp := range k.m.Checkpoints {
		if cp.Name == "" {
			continue
		}
		c := cp.Tag
		loop := nearestLoop(c)
		loopBack := loop != nil && !k.declinedBreaks(cp, loop)
		stamp := cpi + 1
		test := enclosingTest(c)
		// Only transitions after the checkpoint (or, when a declined answer
		// loops back, after its loop's start) can escape it, and none after
		// a later checkpoint of the same name, which supersedes it.
		from := c.Span.End
		if loopBack {
			from = loop.Span.Start
		}
		first, _ := slices.BinarySearchFunc(transitions, from, func(t *Tag, off int) int { return t.Span.Start - off })
		end := -1
		if n := k.nextSame(cp); n != nil {
			end = n.Tag.Span.End
		}
		for _, t := range transitions[first:] {
			if end >= 0 && t.Span.Start >= end && !(loopBack && contains(loop, t)) {
				break
			}
			if t == c || contains(t, c) || contains(c, t) {
				continue
			}
			if info[t.Index].es.saturated() && !info[t.Index].outer {
				continue // an unnested workflow's every stage escapes every earlier checkpoint: quadratic work for nothing new
			}
			if enclosingTest(t) != test {
				continue // each <Test> is a body of its own
			}
			after := t.Span.Start >= c.Span.End
			back := !after && loopBack && contains(loop, t)
			if (!after && !back) || k.exclusive(c, t) {
				continue
			}
			if after && k.superseded(cp, t) {
				continue
			}
			ok, inElse := k.gated(t, cp)
			if ok {
				continue
			}
			covered := false
			for p := t.Parent; p != nil; p = p.Parent {
				if info[p.Index].flagged == stamp {
					covered = true
				}
			}
			info[t.Index].flagged = stamp
			if covered {
				continue
			}
			es := info[t.Index].es
			if es == nil {
				es = &escapes{}
				info[t.Index].es = es
				order = append(order, t)
			}
			if len(es.first) < maxEscapesReported {
				es.first = append(es.first, escape{cp: cp, loopBack: back, inElse: inElse})
			} else {
				es.more = true
			}
			if !inElse && !back && len(es.names) <= maxWrapConjuncts && !slices.Contains(es.names, cp.Name) {
				es.names = append(es.names, cp.Name)
			}
		}
	}
	for _, t := range order {
		es := info[t.Index].es
		// The wrapper names the checkpoints t runs after. Not for the
		// next iteration of a loop (before the checkpoint, cp is unbound on
		// the first one) nor for an <Else> of the gate (wrapping it there
		// leaves a branch that never runs).
		var fix *analysis.Fix
		if len(es.names) > 0 && len(es.names) <= maxWrapConjuncts {
			f := k.wrapFix(t, es.names)
			fix = &f
		}
		for i, e := range es.first {
			cp := e.cp
			var msg string
			switch {
			case e.inElse:
				msg = fmt.Sprintf("<%s> is in the <Else> of the gate on %s.proceed: it runs exactly when the user declined at checkpoint %s (line %d)",
					t.Name, cp.Name, cp.Name, k.line(cp.Tag.Span.Start))
			case e.loopBack:
				msg = fmt.Sprintf("<%s> runs again on the loop's next iteration after checkpoint %s (line %d), which a declined answer does not leave: gate it on %s.proceed, or <Break> when the user declines",
					t.Name, cp.Name, k.line(cp.Tag.Span.Start), cp.Name)
			default:
				msg = fmt.Sprintf("<%s> runs after checkpoint %s (line %d) without being gated on %s.proceed: it runs even when the user declined",
					t.Name, cp.Name, k.line(cp.Tag.Span.Start), cp.Name)
			}
			if es.more && i == len(es.first)-1 {
				msg += "; it escapes more checkpoints too (nest each stage inside the previous stage's gate, or bind every checkpoint to one name so that the latest decision gates)"
			}
			opts := []func(*analysis.Finding){analysis.WithRelated(cp.Tag.NameSpan, "checkpoint "+cp.Name)}
			if fix != nil && !e.inElse && !e.loopBack {
				opts = append(opts, analysis.WithFix(*fix))
			}
			k.report(RuleUngatedTransition, t.NameSpan, msg, opts...)
		}
	}
}

// checkSelfCheckpoint flags a checkpoint component file that returns no
// decision: a file whose name ends in "Checkpoint".
func (k *checker) checkSelfCheckpoint() {
	name := k.c.Path
	if name == "" {
		name = k.doc.URI
	}
	name = strings.ReplaceAll(name, "\\", "/")
	base := path.Base(name)
	if base == "index.md" {
		base = path.Base(path.Dir(name))
	}
	base = strings.TrimSuffix(base, ".md")
	if !namedCheckpoint(base) {
		return
	}
	r := k.c.Returns
	if r != nil && r.Proceed {
		return
	}
	span := markdown.Span{Start: 0, End: k.doc.Lines.LineEnd(0)}
	msg := fmt.Sprintf("%s is a checkpoint component, but a text component (no returns): it returns rendered prose, so a caller has nothing to branch on; declare returns with a boolean proceed and <Return> the decision", base)
	if r != nil {
		span = r.Key
		msg = fmt.Sprintf("%s is a checkpoint component, but its returns has no boolean proceed, so a caller has nothing to branch on", base)
	}
	k.report(RuleCheckpointNoDecision, span, msg)
}
