package hostsettings

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/baton-md/baton/internal/safefile"
	"github.com/rogpeppe/go-internal/diff"
)

// maxSettings bounds the settings file baton reads.
const maxSettings = 8 << 20

// Change is what an install or uninstall does to one settings file.
type Change struct {
	Host    *Host
	Path    string
	Existed bool        // the file was there
	Mode    fs.FileMode // its permission bits (new files get 0644)
	Old     []byte      // its content (nil when it was not there)
	New     []byte      // the content to write
	Delete  bool        // remove the file: install made it, and what is left is what it made it from
	Added   []Hook      // hooks the install adds
	Already []Hook      // hooks the install finds there already, as it would write them
	// Updated are hooks of baton's the install finds with other flags:
	// their command line is replaced, every other byte of the entry kept.
	Updated []Update
	Options Options  // the flags the install writes
	Removed []string // command lines the uninstall takes out, "Event: command"
	// RemovedDirs are the folders Apply removed with the file: folders
	// install made, left empty.
	RemovedDirs []string

	env    Env
	record *fileRecord             // the file's record once the change is made (nil: none)
	replan func() (*Change, error) // the same plan, made again on the file as it is now
}

// Update is one of baton's hooks whose command line an install changes.
type Update struct {
	Hook
	Old, New string // the command line it had, and has
}

// Changed says whether the file changes: a file that was not there is
// made when there is something to write.
func (c *Change) Changed() bool {
	return c.Delete || (!c.Existed && c.New != nil) || (c.Existed && !bytes.Equal(c.Old, c.New))
}

// Diff is the change as a unified diff, names as given (a new file comes
// from /dev/null, a removed one goes to it), or nil when nothing changes.
func (c *Change) Diff(name string) []byte {
	if !c.Changed() {
		return nil
	}
	oldName, newName := "a/"+name, "b/"+name
	if !c.Existed {
		oldName = "/dev/null"
	}
	newText := c.New
	if c.Delete {
		newName, newText = "/dev/null", nil
	}
	d := diff.Diff(oldName, c.Old, newName, newText)
	if i := bytes.IndexByte(d, '\n'); i >= 0 && bytes.HasPrefix(d, []byte("diff ")) {
		d = d[i+1:]
	}
	return d
}

// NotEditable is a settings file baton refuses to edit: a link, not a
// regular file, not JSON, or not in the shape the host documents. The
// file is left as it is.
type NotEditable struct {
	Path   string
	Reason string
}

func (e *NotEditable) Error() string {
	return fmt.Sprintf("%s: %s; baton leaves it as it is", e.Path, e.Reason)
}

// read reads a settings file, refusing what baton must not replace.
func read(path string) (data []byte, existed bool, mode fs.FileMode, err error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, 0o644, nil
	}
	if err != nil {
		return nil, false, 0, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, _ := os.Readlink(path)
		return nil, true, 0, &NotEditable{Path: path, Reason: fmt.Sprintf("it is a symbolic link (to %s), and baton writes no file through a link: edit the file it points to, or run baton where that file is the settings file", target)}
	}
	if !fi.Mode().IsRegular() {
		return nil, true, 0, &NotEditable{Path: path, Reason: "it is " + safefile.What(fi.Mode()) + ", not a regular file"}
	}
	data, err = safefile.ReadFile(path, maxSettings)
	if err != nil {
		return nil, true, 0, err
	}
	return data, true, fi.Mode().Perm(), nil
}

// Writable refuses a settings file no one may write: the rename would
// replace it anyway, but a read-only file says its owner wants it kept.
func (c *Change) Writable() error {
	if c.Existed && c.Mode&0o222 == 0 {
		return &NotEditable{Path: c.Path, Reason: fmt.Sprintf("it is read-only (mode %04o)", c.Mode)}
	}
	return nil
}

// skeleton is the text a new settings file starts from.
func (h *Host) skeleton() []byte {
	if h.Version {
		return []byte("{\n  \"version\": 1\n}\n")
	}
	return []byte("{}\n")
}

// parseSettings parses a settings file and checks the shape baton edits:
// an object, whose "hooks" (if there) is an object of event lists.
func (h *Host) parseSettings(path string, text []byte) (root, hooks *node, err error) {
	root, err = parseJSON(text)
	if err != nil {
		return nil, nil, &NotEditable{Path: path, Reason: "it is not valid JSON (" + err.Error() + ")"}
	}
	if root.kind != '{' {
		return nil, nil, &NotEditable{Path: path, Reason: "it is not a JSON object"}
	}
	hooks = root.get("hooks")
	if hooks != nil && hooks.kind != '{' {
		return nil, nil, &NotEditable{Path: path, Reason: `its "hooks" is not an object of events`}
	}
	return root, hooks, nil
}

// PlanInstall is the change that adds the host's hooks to its settings
// file at path, their command lines carrying o's flags: each hook goes at
// the end of its event's list (the event and "hooks" are added when
// missing). A hook of baton's already there for that adapter is kept; if
// its command line has other flags, only that line is replaced. What the
// install adds, and the empty lists and objects it puts something in, go
// into the change's record (record.go) for uninstall. The file is read,
// not written; e says where baton's record is.
func (h *Host) PlanInstall(e Env, path string, o Options) (*Change, error) {
	old, existed, mode, err := read(path)
	if err != nil {
		return nil, err
	}
	c := &Change{Host: h, Path: path, Existed: existed, Mode: mode, Old: old, Options: o, env: e}
	c.replan = func() (*Change, error) { return h.PlanInstall(e, path, o) }
	text := old
	if !existed {
		text = h.skeleton()
	}
	st := detectStyle(text)
	made := []container{}
	for _, hk := range h.Hooks {
		line := hk.Line(o)
		root, hooks, err := h.parseSettings(path, text)
		if err != nil {
			return nil, err
		}
		if hooks == nil {
			if f, ok := filled(text, root); ok {
				made = append(made, f)
			}
			made = append(made, added("hooks"), added("hooks", hk.Event))
			text = appendItem(text, root, item{key: "hooks", value: obj{{hk.Event, []any{hk.Entry(line)}}}}, st)
			c.Added = append(c.Added, hk)
			continue
		}
		ev := hooks.get(hk.Event)
		if ev == nil {
			if f, ok := filled(text, hooks, "hooks"); ok {
				made = append(made, f)
			}
			made = append(made, added("hooks", hk.Event))
			text = appendItem(text, hooks, item{key: hk.Event, value: []any{hk.Entry(line)}}, st)
			c.Added = append(c.Added, hk)
			continue
		}
		if ev.kind != '[' {
			return nil, &NotEditable{Path: path, Reason: fmt.Sprintf("its hooks.%s is not a list", hk.Event)}
		}
		cmd := h.batonCommand(text, ev, hk.Sub)
		if cmd == nil {
			if f, ok := filled(text, ev, "hooks", hk.Event); ok {
				made = append(made, f)
			}
			text = appendItem(text, ev, item{value: hk.Entry(line)}, st)
			c.Added = append(c.Added, hk)
			continue
		}
		if was := h.cmdLine(text, cmd); ParseArgs(was) != ParseArgs(line) {
			now := relined(was, hk, o)
			text = h.setLine(text, cmd, hk, o)
			c.Updated = append(c.Updated, Update{Hook: hk, Old: was, New: now})
			continue
		}
		c.Already = append(c.Already, hk)
	}
	c.New = text
	if _, _, err := h.parseSettings(path, text); err != nil {
		return nil, fmt.Errorf("internal error: the edited %s does not parse: %w", path, err)
	}
	if c.Changed() {
		rec, err := recordOf(e, path)
		if err != nil {
			return nil, err
		}
		c.record = installed(rec, existed, h.skeleton(), "hooks", len(c.Already)+len(c.Updated) == 0, made)
	}
	return c, nil
}

// batonCommand is the first command entry of an event's list that runs
// baton's adapter sub, or nil.
func (h *Host) batonCommand(text []byte, ev *node, sub string) *node {
	for _, cmd := range h.commands(ev) {
		if s, ok := h.cmdSub(text, cmd); ok && s == sub {
			return cmd
		}
	}
	return nil
}

// setLine gives o's flags to the command line in every key of cmd that
// holds one of baton's (CmdKeys: a host may keep one line per shell), each line keeping
// its own other bytes; from the last to the first, so that the earlier
// offsets stay good.
func (h *Host) setLine(text []byte, cmd *node, hk Hook, o Options) []byte {
	type edit struct {
		start, end int
		line       string
	}
	var edits []edit
	for _, k := range h.CmdKeys {
		if v := cmd.get(k); v != nil {
			if was := v.str(text); h.isBatons(was) {
				edits = append(edits, edit{v.start, v.end, relined(was, hk, o)})
			}
		}
	}
	slices.SortFunc(edits, func(a, b edit) int { return b.start - a.start })
	for _, e := range edits {
		text = splice(text, e.start, e.end, quote(e.line))
	}
	return text
}

// isBatons says whether a command line is one of the host's hooks of
// baton's, exactly.
func (h *Host) isBatons(line string) bool {
	sub, ok := BatonSub(line)
	return ok && h.hasSub(sub)
}

// cmdSub is the adapter of the host's a command entry runs, when the
// entry is baton's: every command line it holds (each of CmdKeys) is exactly baton's hook (BatonSub), for one adapter. An
// entry with a line of the person's own is theirs.
func (h *Host) cmdSub(text []byte, cmd *node) (string, bool) {
	sub := ""
	for _, k := range h.CmdKeys {
		v := cmd.get(k)
		if v == nil {
			continue
		}
		s, ok := BatonSub(v.str(text))
		if !ok || !h.hasSub(s) || (sub != "" && s != sub) {
			return "", false
		}
		sub = s
	}
	return sub, sub != ""
}

// hasSub says whether sub is one of the adapters install writes for the
// host.
func (h *Host) hasSub(sub string) bool {
	return slices.ContainsFunc(h.Hooks, func(hk Hook) bool { return hk.Sub == sub })
}

// commands are the command entries of an event's list.
func (h *Host) commands(ev *node) []*node {
	if !h.Grouped {
		return ev.elems
	}
	var cmds []*node
	for _, g := range ev.elems {
		if inner := g.get("hooks"); inner != nil && inner.kind == '[' {
			cmds = append(cmds, inner.elems...)
		}
	}
	return cmds
}

// PlanUninstall is the change that takes out of the settings file at path
// every hook entry whose command is baton's (exactly: BatonSub), and
// nothing else: a group holding only baton's command goes whole, a group
// shared with other commands loses only baton's. Then what install
// recorded (record.go) is put back where it is left empty: an event list
// or "hooks" it added goes, an empty one that was there gets its white
// space back, and a file it made is removed when what is left is the
// text it made it from. Taken out from the last to the first, the entries
// of an install come out exactly as they went in, so install then
// uninstall gives the file back byte for byte. Without a record, lists
// and objects left empty stay.
func (h *Host) PlanUninstall(e Env, path string) (*Change, error) {
	old, existed, mode, err := read(path)
	if err != nil {
		return nil, err
	}
	c := &Change{Host: h, Path: path, Existed: existed, Mode: mode, Old: old, New: old, env: e}
	c.replan = func() (*Change, error) { return h.PlanUninstall(e, path) }
	if !existed {
		return c, nil
	}
	text := old
	st := detectStyle(text)
	for {
		_, hooks, err := h.parseSettings(path, text)
		if err != nil {
			return nil, err
		}
		if hooks == nil {
			break
		}
		next, removed := h.removeLast(text, hooks, st)
		if removed == "" {
			break
		}
		c.Removed = append(c.Removed, removed)
		text = next
	}
	if len(c.Removed) == 0 {
		return c, nil
	}
	slices.Reverse(c.Removed)
	rec, err := recordOf(e, path)
	if err != nil {
		return nil, err
	}
	var kept []container
	if rec != nil {
		text, kept = restore(text, rec.Containers, st)
	}
	if _, _, err := h.parseSettings(path, text); err != nil {
		return nil, fmt.Errorf("internal error: the edited %s does not parse: %w", path, err)
	}
	c.New = text
	c.Delete = rec != nil && rec.Made && string(text) == rec.Start
	c.record = uninstalled(rec, "hooks", c.Delete, kept)
	return c, nil
}

// removeLast takes out the last baton entry of the file; removed is ""
// when there is none.
func (h *Host) removeLast(text []byte, hooks *node, st style) (_ []byte, removed string) {
	for mi := len(hooks.members) - 1; mi >= 0; mi-- {
		m := hooks.members[mi]
		ev := m.val
		if ev.kind != '[' {
			continue
		}
		for ei := len(ev.elems) - 1; ei >= 0; ei-- {
			el := ev.elems[ei]
			var out []byte
			switch {
			case !h.Grouped:
				if _, ok := h.cmdSub(text, el); !ok {
					continue
				}
				removed = m.key + ": " + h.cmdLine(text, el)
				out = removeItem(text, ev, ei, st)
			default:
				inner := el.get("hooks")
				if inner == nil || inner.kind != '[' {
					continue
				}
				batons := 0
				last := -1
				for ii, cmd := range inner.elems {
					if _, ok := h.cmdSub(text, cmd); ok {
						batons++
						last = ii
					}
				}
				if last < 0 {
					continue
				}
				removed = m.key + ": " + h.cmdLine(text, inner.elems[last])
				if batons == len(inner.elems) && batons == 1 {
					out = removeItem(text, ev, ei, st)
				} else {
					out = removeItem(text, inner, last, st)
				}
			}
			return out, removed
		}
	}
	return text, ""
}

func (h *Host) cmdLine(text []byte, cmd *node) string {
	for _, k := range h.CmdKeys {
		if s := cmd.get(k).str(text); s != "" {
			return s
		}
	}
	return ""
}

// Apply makes the change: under the lock of the settings file
// (lockSettings), it plans the change again on the file as it is now, so
// that what another baton wrote meanwhile is kept and built on, then
// writes the file atomically (a temporary file in the same folder, given
// the file's permission bits, synced, renamed over it), so that a host
// reading the settings sees the old file or the new, never a mix; then
// records what it made (record.go). The folders a new file needs are made
// first, and recorded; an uninstall that removes the file removes them
// too when they are left empty (RemovedDirs). A file something other
// than baton changes while it is written is read and planned again, twice
// at most. The change then says what was done.
func (c *Change) Apply() error {
	if !c.Changed() {
		return nil
	}
	if c.replan == nil {
		return errors.New("internal error: a change made without a plan")
	}
	if err := c.Writable(); err != nil {
		return err
	}
	replan := c.replan
	for attempt := 1; ; attempt++ {
		err := c.apply()
		if !errors.Is(err, errAgain) {
			return err
		}
		if attempt == 3 {
			return &NotEditable{Path: c.Path, Reason: "it kept changing while baton wrote it (run baton again)"}
		}
		// Plan again on what is there now: an uninstall that removed the
		// folder meanwhile took the file with it.
		now, err := replan()
		if err != nil {
			return err
		}
		*c = *now
		c.replan = replan
		if !c.Changed() {
			return nil
		}
	}
}

// errAgain: the file, or its folder, changed under the edit; plan again.
var errAgain = errors.New("the settings file changed")

func (c *Change) apply() error {
	var made []string
	if !c.Delete {
		var err error
		if made, err = makeDirs(c.env, filepath.Dir(c.Path)); err != nil {
			return err
		}
	}
	undo := func() {
		if len(made) > 0 {
			removeDirs(c.env, c.Path) //nolint:errcheck // what cannot be undone stays recorded
		}
	}
	release, err := lockSettings(c.Path)
	if errors.Is(err, fs.ErrNotExist) {
		undo()
		return errAgain // its folder went meanwhile
	}
	if err != nil {
		undo()
		return err
	}
	err = c.applyLocked()
	release()
	if err != nil {
		undo()
		return err
	}
	if _, err := os.Lstat(c.Path); errors.Is(err, fs.ErrNotExist) {
		// The file is gone (this uninstall removed it, or one before it
		// did while this one waited for the lock, which kept the folder
		// from being empty then): the folders install made for it go
		// when empty.
		c.RemovedDirs, err = removeDirs(c.env, c.Path)
		return err
	}
	return nil
}

// applyLocked plans the change again and makes it, under the lock.
func (c *Change) applyLocked() error {
	replan := c.replan
	now, err := replan()
	if err != nil {
		return err
	}
	*c = *now
	c.replan = replan
	if !c.Changed() {
		return nil
	}
	if err := c.Writable(); err != nil {
		return err
	}
	unchanged := func() error {
		now, existed, _, err := read(c.Path)
		if err != nil {
			return err
		}
		if existed != c.Existed || !bytes.Equal(now, c.Old) {
			return errAgain
		}
		return nil
	}
	if c.Delete {
		if err := unchanged(); err != nil {
			return err
		}
		if err := os.Remove(c.Path); err != nil {
			return err
		}
	} else if err := writeChecked(c.Path, c.New, c.Mode, unchanged); err != nil {
		return err
	}
	if err := setRecord(c.env, c.Path, c.record); err != nil {
		return fmt.Errorf("%s is written, but %w: uninstall will leave the lists, objects, file and folders baton's entries are in", c.Path, err)
	}
	return nil
}

// HookState is whether one of baton's hooks is in a host's settings.
type HookState struct {
	Event     string `json:"event"`
	Command   string `json:"command"`
	Installed bool   `json:"installed"`
}

// Report is the state of one host in one scope.
type Report struct {
	Host  string   `json:"host"`
	Title string   `json:"title"`
	Scope Scope    `json:"scope"`
	Dir   string   `json:"dir"`
	Files []string `json:"files"`
	// Installed: "installed" (every hook), "partly", "installed as" the
	// plugin or extension (Packaged), or "not installed".
	Installed string      `json:"installed"`
	Hooks     []HookState `json:"hooks"`
	// Posture is the enforcement now: the host's, when every hook is in;
	// cooperative only when none is (or the settings cannot be read).
	Posture Posture `json:"posture"`
	// Capable is the enforcement with baton's hooks in, and Why says why.
	Capable Posture `json:"capable"`
	Why     string  `json:"why"`
	// Packaged names baton's plugin or extension when the host has it
	// installed: it carries the same hooks as the settings would.
	Packaged string `json:"packaged,omitempty"`
	// Off says which setting turns the host's hooks off, if one does:
	// then the posture is cooperative only, whatever is installed.
	Off string `json:"off,omitempty"`
	// Enforcement is what the installed stop hook blocks (nil when it is
	// not installed). A hook that blocks nothing here makes the posture
	// cooperative only.
	Enforcement *Enforcement `json:"enforcement,omitempty"`
	// Trust says whether the host will run baton's hooks, as its own
	// trust records say (nil for a host that asks for no trust). A host
	// that will not run them makes the posture cooperative only.
	Trust *Trust `json:"trust,omitempty"`
	Error string `json:"error,omitempty"`
}

// Status reports the host in scope, and whether it is there at all (its
// folder or a settings file exists).
func (h *Host) Status(e Env, s Scope) (Report, bool) {
	r := Report{Host: h.Name, Title: h.Title, Scope: s, Dir: h.Dir(e, s), Files: append([]string{}, h.Files(e, s)...), Capable: h.Posture, Why: h.Why}
	_, dirErr := os.Stat(r.Dir)
	if dirErr != nil && len(r.Files) == 0 {
		return r, false
	}
	subs := map[string]map[string]string{} // event -> adapter -> its command line
	for _, f := range r.Files {
		text, existed, _, err := read(f)
		if err == nil && existed {
			var root, hooks *node
			if root, hooks, err = h.parseSettings(f, text); err == nil && h.Off != nil && r.Off == "" {
				if why := h.Off(text, root); why != "" {
					r.Off = why + " in " + f
				}
			}
			if err == nil && h.Packaged != nil && r.Packaged == "" {
				r.Packaged = h.Packaged(e, s, text, root)
			}
			if err == nil {
				h.collect(text, hooks, subs)
			}
		}
		if err != nil {
			r.Error = strings.Join(append(nonEmpty(r.Error), err.Error()), "; ")
		}
	}
	if r.Packaged == "" && h.Packaged != nil && len(r.Files) == 0 {
		r.Packaged = h.Packaged(e, s, nil, nil)
	}
	in := 0
	stopLine := ""
	for _, hk := range h.Hooks {
		line, ok := subs[hk.Event][hk.Sub]
		if ok {
			in++
		} else {
			line = hk.Command()
		}
		if ok && hk.Stop() {
			stopLine = line
		}
		r.Hooks = append(r.Hooks, HookState{Event: hk.Event, Command: line, Installed: ok})
	}
	switch {
	case in == len(h.Hooks):
		r.Installed, r.Posture = "installed", h.Posture
	case in > 0:
		r.Installed, r.Posture = "partly", h.partial(subs)
	case r.Packaged != "":
		r.Installed, r.Posture = "installed as "+r.Packaged, h.Posture
	default:
		r.Installed, r.Posture = "not installed", Cooperative
	}
	if r.Packaged != "" && stopLine == "" && in == 0 {
		// The plugin or the extension runs the stop command its own hooks
		// file holds, flags and all, read as the settings are; without
		// that file, the command without flags.
		stopLine = h.packagedStop(e, s)
	}
	if stopLine != "" {
		r.Enforcement = Enforces(stopLine, e, s)
		if r.Enforcement.Nothing() {
			r.Posture = Cooperative
		}
	}
	if r.Installed != "not installed" && h.TrustReader != nil {
		r.Trust = h.TrustReader(h, e, s)
		if r.Trust != nil && !r.Trust.Runs {
			r.Posture = Cooperative
		}
	}
	if r.Off != "" {
		r.Posture = Cooperative
	}
	return r, true
}

// collect adds to subs (event -> adapter -> its command line) the
// commands of baton's adapters in a settings text's "hooks", the first
// command line of each.
func (h *Host) collect(text []byte, hooks *node, subs map[string]map[string]string) {
	if hooks == nil {
		return
	}
	for _, m := range hooks.members {
		if m.val.kind != '[' {
			continue
		}
		for _, cmd := range h.commands(m.val) {
			sub, ok := h.cmdSub(text, cmd)
			if !ok {
				continue
			}
			if subs[m.key] == nil {
				subs[m.key] = map[string]string{}
			}
			if _, seen := subs[m.key][sub]; !seen {
				subs[m.key][sub] = h.cmdLine(text, cmd)
			}
		}
	}
}

// packagedStop is the stop command line of the host's plugin or
// extension in scope, from its hooks file (PackagedHooks), or the command
// without flags when that file cannot be found or read, or has no stop
// hook of baton's.
func (h *Host) packagedStop(e Env, s Scope) string {
	stop := h.Hooks[len(h.Hooks)-1]
	if h.PackagedHooks == nil {
		return stop.Command()
	}
	path := h.PackagedHooks(e, s)
	if path == "" {
		return stop.Command()
	}
	text, existed, _, err := read(path)
	if err != nil || !existed {
		return stop.Command()
	}
	_, hooks, err := h.parseSettings(path, text)
	if err != nil {
		return stop.Command()
	}
	subs := map[string]map[string]string{}
	h.collect(text, hooks, subs)
	if line, ok := subs[stop.Event][stop.Sub]; ok {
		return line
	}
	return stop.Command()
}

// partial is the posture with some of the hooks in: the stop hook is what
// enforces; the others (prompt and tool hooks) only say what
// the turn changed.
func (h *Host) partial(subs map[string]map[string]string) Posture {
	stop := h.Hooks[len(h.Hooks)-1]
	if _, ok := subs[stop.Event][stop.Sub]; ok {
		return h.Posture
	}
	return Cooperative
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}
