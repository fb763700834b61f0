package session

// pathResult is the active path over a slice of entries.
type pathResult struct {
	all    bool  // every entry is on the path
	keep   []int // otherwise, the indices of the entries on it, in file order
	leaf   int   // index of the leaf message; -1 when there is no message
	pinned bool  // the leaf came from the pinned id
}

// activePath is clio's filterEntriesToActivePath (spec §4). Only messages
// form the tree. The leaf is the pinned id resolved to a message (an id
// that is not a message resolves through its anchor: a label's
// targetTurnId, a sessionInfo's targetTurnId else parentTurnId, a
// compactionSummary's firstKeptTurnId when set, else parentTurnId), else
// the last message in file order; a pinned id that resolves to no message
// counts as unset. When no message has two or more message children and the
// leaf is unset or is the last message (compared by turnId), every entry is
// on the path. Otherwise the walk goes up parentTurnId from the leaf (a
// missing parent, or a cycle, ends it) and keeps: messages whose turnId is
// on it; labels whose targetTurnId is on it; sessionInfo with no
// targetTurnId member or one on it; compactionSummary whose firstKeptTurnId
// is on it; any other entry (compaction summaries included) whose
// parentTurnId is on it, or whose parentTurnId is null and whose line is at
// or before the leaf's (the first message carrying the leaf's turnId).
//
// Where the file breaks the schema: a parentTurnId that is not a string
// counts as null; a turnId that is not a string counts as ""; when several
// messages share a turnId the last one is the one a parentTurnId points to.
func activePath(es []entry, pinnedID string) pathResult {
	byID := make(map[string]int)
	children := make(map[string]struct{})
	branched := false
	latest := -1
	for i := range es {
		e := &es[i]
		if e.kind != kindMessage {
			continue
		}
		byID[e.turnID] = i
		latest = i
		if e.hasParent && !branched {
			if _, dup := children[e.parent]; dup {
				branched = true
			} else {
				children[e.parent] = struct{}{}
			}
		}
	}
	pin := resolveLeaf(es, byID, pinnedID)
	if latest < 0 {
		return pathResult{all: true, leaf: -1}
	}
	if !branched && (pin < 0 || es[pin].turnID == es[latest].turnID) {
		if pin < 0 {
			return pathResult{all: true, leaf: latest}
		}
		return pathResult{all: true, leaf: pin, pinned: true}
	}
	res := pathResult{leaf: latest}
	if pin >= 0 {
		res.leaf, res.pinned = pin, true
	}

	onPath := make(map[string]struct{})
	for cur := res.leaf; ; {
		id := es[cur].turnID
		if _, seen := onPath[id]; seen {
			break
		}
		onPath[id] = struct{}{}
		if !es[cur].hasParent {
			break
		}
		next, ok := byID[es[cur].parent]
		if !ok {
			break
		}
		cur = next
	}
	leafLine := res.leaf
	for i := range es {
		if es[i].kind == kindMessage && es[i].turnID == es[res.leaf].turnID {
			leafLine = i
			break
		}
	}
	has := func(id string) bool { _, ok := onPath[id]; return ok }
	for i := range es {
		if onActivePath(&es[i], has, i <= leafLine) {
			res.keep = append(res.keep, i)
		}
	}
	return res
}

// onActivePath is clio's entryBelongsToPath.
func onActivePath(e *entry, has func(string) bool, atOrBeforeLeaf bool) bool {
	switch e.kind {
	case kindMessage:
		return has(e.turnID)
	case kindLabel:
		return e.target == isString && has(e.ext().targetID)
	case kindSessionInfo:
		return e.target == absent || e.target == isString && has(e.ext().targetID)
	case kindCompaction:
		if fk := e.ext().firstKept; fk != "" && has(fk) {
			return true
		}
	}
	if !e.hasParent {
		return atOrBeforeLeaf
	}
	return has(e.parent)
}

// resolveLeaf resolves a pinned leaf id to the index of a message, or -1.
func resolveLeaf(es []entry, byID map[string]int, id string) int {
	if id == "" {
		return -1
	}
	if i, ok := byID[id]; ok {
		return i
	}
	for i := range es {
		if es[i].turnID != id {
			continue
		}
		anchor, ok := sidecarAnchor(&es[i])
		if !ok {
			return -1
		}
		if j, ok := byID[anchor]; ok {
			return j
		}
		return -1
	}
	return -1
}

// sidecarAnchor is the turn a non-message entry hangs from.
func sidecarAnchor(e *entry) (string, bool) {
	switch e.kind {
	case kindLabel:
		return e.ext().targetID, e.target == isString
	case kindSessionInfo:
		switch e.target { // clio: targetTurnId ?? parentTurnId
		case isString:
			return e.ext().targetID, true
		case isOther:
			return "", false
		}
	case kindCompaction:
		if fk := e.ext().firstKept; fk != "" {
			return fk, true
		}
	}
	return e.parent, e.hasParent
}
