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
	Delete  bool        // remove the file: what is left is only the skeleton baton started it from
	Added   []Hook      // hooks the install adds
	Already []Hook      // hooks the install finds there already, as it would write them
	// Updated are hooks of baton's the install finds with other flags:
	// their command line is replaced, every other byte of the entry kept.
	Updated []Update
	Options Options  // the flags the install writes
	Removed []string // command lines the uninstall takes out, "Event: command"
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
// its command line has other flags, only that line is replaced. The file
// is read, not written.
func (h *Host) PlanInstall(path string, o Options) (*Change, error) {
	old, existed, mode, err := read(path)
	if err != nil {
		return nil, err
	}
	c := &Change{Host: h, Path: path, Existed: existed, Mode: mode, Old: old, Options: o}
	text := old
	if !existed {
		text = h.skeleton()
	}
	st := detectStyle(text)
	for _, hk := range h.Hooks {
		line := hk.Line(o)
		root, hooks, err := h.parseSettings(path, text)
		if err != nil {
			return nil, err
		}
		if hooks == nil {
			text = appendItem(text, root, item{key: "hooks", value: obj{{hk.Event, []any{hk.Entry(line)}}}}, st)
			c.Added = append(c.Added, hk)
			continue
		}
		ev := hooks.get(hk.Event)
		if ev == nil {
			text = appendItem(text, hooks, item{key: hk.Event, value: []any{hk.Entry(line)}}, st)
			c.Added = append(c.Added, hk)
			continue
		}
		if ev.kind != '[' {
			return nil, &NotEditable{Path: path, Reason: fmt.Sprintf("its hooks.%s is not a list", hk.Event)}
		}
		cmd := h.batonCommand(text, ev, hk.Sub)
		if cmd == nil {
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
// holds one of baton's (Copilot's bash and powershell), each line keeping
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
// entry is baton's: every command line it holds (Copilot's bash and
// powershell) is exactly baton's hook (BatonSub), for one adapter. An
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
// every hook entry whose command is baton's ("baton hook …"), and nothing
// else: a group holding only baton's commands goes whole, a group shared
// with other commands loses only baton's. An event list, and then
// "hooks", left empty by that go too, and a file left as the skeleton a
// new file starts from is removed. Taken out from the last to the first,
// the entries of an install come out exactly as they went in.
func (h *Host) PlanUninstall(path string) (*Change, error) {
	old, existed, mode, err := read(path)
	if err != nil {
		return nil, err
	}
	c := &Change{Host: h, Path: path, Existed: existed, Mode: mode, Old: old, New: old}
	if !existed {
		return c, nil
	}
	text := old
	st := detectStyle(text)
	for {
		root, hooks, err := h.parseSettings(path, text)
		if err != nil {
			return nil, err
		}
		if hooks == nil {
			break
		}
		next, removed := h.removeLast(text, root, hooks, st)
		if removed == "" {
			break
		}
		c.Removed = append(c.Removed, removed)
		text = next
	}
	slices.Reverse(c.Removed)
	c.New = text
	c.Delete = len(c.Removed) > 0 && bytes.Equal(text, h.skeleton())
	return c, nil
}

// removeLast takes out the last baton entry of the file, and the list and
// "hooks" it leaves empty; removed is "" when there is none.
func (h *Host) removeLast(text []byte, root, hooks *node, st style) (_ []byte, removed string) {
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
			return h.dropEmpty(out, m.key, st), removed
		}
	}
	return text, ""
}

// dropEmpty removes the event list key, if empty, then "hooks", if empty.
func (h *Host) dropEmpty(text []byte, event string, st style) []byte {
	root, err := parseJSON(text)
	if err != nil {
		return text
	}
	hooks := root.get("hooks")
	if ev := hooks.get(event); ev != nil && ev.kind == '[' && len(ev.elems) == 0 {
		if i := slices.IndexFunc(hooks.members, func(m member) bool { return m.key == event }); i >= 0 {
			text = removeItem(text, hooks, i, st)
			if root, err = parseJSON(text); err != nil {
				return text
			}
			hooks = root.get("hooks")
		}
	}
	if hooks != nil && hooks.kind == '{' && len(hooks.members) == 0 {
		if i := slices.IndexFunc(root.members, func(m member) bool { return m.key == "hooks" }); i >= 0 {
			text = removeItem(text, root, i, st)
		}
	}
	return text
}

func (h *Host) cmdLine(text []byte, cmd *node) string {
	for _, k := range h.CmdKeys {
		if s := cmd.get(k).str(text); s != "" {
			return s
		}
	}
	return ""
}

// Apply writes the change: atomically (a temporary file in the same
// folder, given the file's permission bits, synced, renamed over it), so
// a host reading the settings sees the old file or the new, never a mix.
// It refuses to write when the file changed since it was planned.
func (c *Change) Apply() error {
	if !c.Changed() {
		return nil
	}
	unchanged := func() error {
		now, existed, _, err := read(c.Path)
		if err != nil {
			return err
		}
		if existed != c.Existed || !bytes.Equal(now, c.Old) {
			return &NotEditable{Path: c.Path, Reason: "it changed since baton read it (run baton again)"}
		}
		return nil
	}
	if err := c.Writable(); err != nil {
		return err
	}
	if err := unchanged(); err != nil {
		return err
	}
	if c.Delete {
		return os.Remove(c.Path)
	}
	dir := filepath.Dir(c.Path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(c.Path)+".baton-*")
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(c.New); err != nil {
		return err
	}
	if err := tmp.Chmod(c.Mode); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := unchanged(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), c.Path); err != nil {
		return err
	}
	ok = true
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
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
			if err == nil && hooks != nil {
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
		// The plugin and the extension run the command without flags.
		stopLine = h.Hooks[len(h.Hooks)-1].Command()
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

// partial is the posture with some of the hooks in: the stop hook is what
// enforces; the others (Claude Code's prompt and tool hooks) only say what
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
