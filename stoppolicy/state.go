package stoppolicy

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/baton-md/baton/analysis/stopintent"
	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/engine"
)

// State is everything a stop is decided on besides the stop itself: the
// configuration and specrew workspace the message is read in, specrew's
// own files, the hook's records of the session (its block count, the last
// stop it answered) and the work of the turn (the baseline and the Git
// state now). It is read before the decision, in one place (ReadState,
// ReadWorkspace), and written after it, in one place (Apply): Decide reads
// nothing else.
type State struct {
	Options Options
	// Env is the environment the message is read in; nil when it could
	// not be built (EnvErr says why).
	Env    *Env
	EnvErr error
	Now    time.Time // when the state was read: the duplicate window's clock

	counter Counter       // the session's records, in Options.StateDir
	specrew *specrewFiles // nil outside a specrew project: no specrew lanes
	hook    *hookRecords  // nil for a caller that is no hook: no loop bound, no duplicate check, nothing counted
	work    *workState    // nil: no material-work check
	session string        // the session the hook's messages name
	extra   []string      // the files a stop's identity includes (.baton.yaml, specrew's start context)
}

// specrewFiles is what the policy reads of a specrew project besides its
// lifecycle state (Env.State).
type specrewFiles struct {
	root string
	// blocks is how many times in a row specrew's own provider blocked for
	// the pending crossing.
	blocks     int
	workshop   workshopState
	activeSpec string // a feature's spec.md, "" for none
}

// hookRecords are the hook's own records of the session.
type hookRecords struct {
	blocks    int   // blocks in a row
	blocksErr error // the count cannot be read
	turnMark  string
	lastFire  fireRecord
}

// fireRecord is the last stop the hook answered in the session.
type fireRecord struct {
	ID    string `json:"identity"`
	Epoch int64  `json:"epoch"`
}

// workState is the turn's work as the material-work lanes read it.
type workState struct {
	root    string // the project whose Git state is read; "" when declared
	snap    *turnSnapshot
	snapErr error
	record  turnState // the hook's turn record: baseline, discharged surface, continue guard
	delta   turnDelta // snap against the baseline (or HEAD and a clean tree)
	foreign bool      // another session claimed delta's surface lately
	// declared is the caller's word for the Git state (check_stop's
	// changed_files): changed says whether the turn changed files or made
	// commits.
	declared, changed bool
}

// ReadState reads what the stop hook decides a stop on: the workspace
// (ReadWorkspace), the hook's records of the session, and, where material
// work is checked (a specrew project, or any Git project with
// RequirePacket), the turn's baseline and the Git state now.
func ReadState(in Stop, o Options) State {
	if o.MaxBlocks <= 0 {
		o.MaxBlocks = DefaultMaxBlocks
	}
	st := ReadWorkspace(in, o)
	h := &hookRecords{}
	h.blocks, h.blocksErr = st.counter.count()
	h.turnMark = st.counter.turnMark()
	if p := st.counter.Path(); p != "" {
		if b, err := readState(p + ".fire"); err == nil && json.Unmarshal(b, &h.lastFire) != nil {
			h.lastFire = fireRecord{}
		}
	}
	st.hook = h
	if path, err := config.Discover(in.Cwd); err == nil && path != "" {
		b, _ := readState(path)
		st.extra = append(st.extra, string(b))
	}
	if st.specrew != nil {
		ctx, _ := readState(filepath.Join(st.specrew.root, ".specrew", "start-context.json"))
		st.extra = append(st.extra, string(ctx))
	}
	// The work tree's state is read once for the stop: the duplicate check
	// and the material-work lanes both use it (four git commands and a
	// hash of every changed file).
	if root := materialRoot(in.Cwd, o.RequirePacket); root != "" {
		st.work = readWork(st.counter, root)
	}
	return st
}

// ReadWorkspace reads what any caller decides a stop on: the environment
// the message is read in (the nearest .baton.yaml, the specrew project
// above in.Cwd and the state of in's conformance session) and specrew's
// files. It reads none of the hook's records and no Git state, and writes
// nothing: a caller that checks a stop before it is made (check_stop) says
// what the turn did with DeclareWork.
func ReadWorkspace(in Stop, o Options) State {
	st := State{Options: o, Now: time.Now(), counter: Counter{Dir: o.StateDir, Session: in.SessionID}, session: in.SessionID}
	specrewRoot := engine.SpecrewRoot(in.Cwd)
	env, err := NewEnv(filepath.Join(in.Cwd, "last-message.md"), specrewRoot, in.sessionDir())
	if err != nil {
		st.EnvErr = fmt.Errorf("read .baton.yaml: %w", err)
		return st
	}
	st.Env = env
	if specrewRoot != "" {
		st.specrew = readSpecrew(specrewRoot, env)
	}
	return st
}

// MessageOnly is the state of a caller that judges stop messages on
// baton's rules alone, in env (baton audit, baton classify): no specrew
// lanes, no material work, no records of a session. With lint a message
// that breaks the rules is blocked, as the hook's --lint blocks it.
func MessageOnly(env *Env, lint bool) State {
	return State{Options: Options{Lint: lint}, Env: env, Now: time.Now()}
}

// DeclareWork stands the caller's word for the Git state: changed says
// the turn changed files or made commits, as the hook measures it from the
// baseline its prompt hook took.
func (st *State) DeclareWork(changed bool) {
	st.work = &workState{declared: true, changed: changed}
}

func readSpecrew(root string, env *Env) *specrewFiles {
	sp := &specrewFiles{root: root, activeSpec: activeSpec(root)}
	s := env.State
	pending := s.BoundaryPending.Value == stopintent.True
	if pending && s.Crossing != nil {
		sp.blocks = specrewBlockCount(root, env.Session, s.Crossing)
	}
	sp.workshop = workshopPause(root, pending)
	return sp
}

// readWork reads the turn's work at root: the hook's turn record, the Git
// state now, and what changed since the baseline.
func readWork(counter Counter, root string) *workState {
	w := &workState{root: root, record: counter.loadTurn(root)}
	w.snap, w.snapErr = takeSnapshot(root)
	if w.snap == nil {
		return w
	}
	base := w.record.Baseline
	if base == nil {
		base = degradedBaseline(w.snap)
	}
	w.delta = compareSnapshots(root, base, w.snap)
	if w.delta.Material && w.delta.Key != w.record.Satisfied {
		w.foreign = counter.foreign(root, w.delta.Key)
	}
	return w
}

// material is the provider's material and long-turn lanes: the surface
// the stop owes the packet for ("" for none) and what made it material.
func (w *workState) material(h History) (key, what string, err error) {
	if w.declared {
		if w.changed {
			return "material|declared", "material work (files changed or commits made this turn)", nil
		}
		return "", "", nil
	}
	if w.snap == nil {
		return "", "", w.snapErr
	}
	if d := w.delta; d.Material && d.Key != w.record.Satisfied && !w.foreign {
		return d.Key, fmt.Sprintf("material work (%d changed file(s), %d new commit(s))", len(d.Paths), d.Commits), nil
	}
	if h == nil {
		return "", "", nil
	}
	if steps, anchor := h.StepsSincePerson(); steps >= longTurnEntries && "material|longturn|"+hashText(anchor) != w.record.Satisfied {
		return "material|longturn|" + hashText(anchor), fmt.Sprintf("a long investigation (%d or more assistant steps since your last message)", longTurnEntries), nil
	}
	return "", "", nil
}

// fireIdentity names one observable stop: the hook's arguments, the
// message, the session's block count and whether this hook caused the stop,
// the turn (the host's name for it, the prompt hook's mark, the
// transcript's last person message), the configuration, the lifecycle
// state and the work tree (snap). A forced re-render after a block differs
// in its count, and the same message in the next turn in its turn, so only
// a true duplicate delivery matches.
func fireIdentity(in Stop, count int, turnMark string, extra []string, snap *turnSnapshot) string {
	anchor := ""
	if in.History != nil {
		_, anchor = in.History.StepsSincePerson()
	}
	parts := append([]string{in.Cwd, in.SessionID, in.Message, strconv.FormatBool(in.Active), strconv.Itoa(count), in.Turn, turnMark, anchor}, in.Args...)
	parts = append(parts, extra...)
	if snap != nil {
		parts = append(parts, snap.Key)
	}
	return hashText(strings.Join(parts, "\x00"))
}
