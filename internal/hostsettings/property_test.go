package hostsettings_test

import (
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	. "github.com/baton-md/baton/internal/hostsettings"
)

// TestInstallThenUninstallIsNothing: for each host, settings as a person
// may have them before (no file and no folder, an empty folder, a folder
// holding a file of theirs, "{}", an empty "hooks" or event list, their
// own hooks, their commands that start with baton's, odd white space
// inside quoted arguments and between every token, CRLF, a file on one
// line; for Codex's config.toml tables, comments, no last line end, an
// empty file), hook install (sometimes twice, with other flags) and mcp
// install in a random order, then both uninstalls in a random order,
// leave the project's every file and folder as they were, byte for byte,
// and nothing else in it. The seeds are fixed: a failure names its seed
// and what the files held.
func TestInstallThenUninstallIsNothing(t *testing.T) {
	runs := 40
	if testing.Short() {
		runs = 10
	}
	for _, h := range Hosts {
		t.Run(h.Name, func(t *testing.T) {
			for seed := range uint64(runs) {
				g := &gen{r: rand.New(rand.NewPCG(seed, uint64(len(h.Name))))}
				env := tenv(t)
				env.Project = t.TempDir()
				var mcp *MCPHost
				for _, m := range MCPHosts {
					if m.Name == h.Name {
						mcp = m
					}
				}
				g.arrange(t, env, h, mcp)
				before := snapshot(t, env.Project)
				log := g.play(t, env, h, mcp)
				if after := snapshot(t, env.Project); !maps.Equal(before, after) {
					t.Fatalf("seed %d: %s\n%s", seed, strings.Join(log, ", "), diffSnapshots(before, after))
				}
			}
		})
	}
}

// gen makes what a person's settings may hold.
type gen struct{ r *rand.Rand }

func (g *gen) pick(options ...string) string { return options[g.r.IntN(len(options))] }
func (g *gen) chance(p float64) bool         { return g.r.Float64() < p }

// arrange lays out the project's folders and files before the installs.
func (g *gen) arrange(t *testing.T, env Env, h *Host, mcp *MCPHost) {
	t.Helper()
	files := []string{h.File(env, Project)}
	if mcp != nil && !slices.Contains(files, mcp.File(env, Project)) {
		files = append(files, mcp.File(env, Project))
	}
	there := map[string]bool{env.Project: true}
	for _, f := range files {
		var chain []string
		for d := filepath.Dir(f); d != env.Project; d = filepath.Dir(d) {
			chain = append(chain, d)
		}
		for _, d := range slices.Backward(chain) {
			if _, seen := there[d]; seen {
				continue
			}
			there[d] = there[filepath.Dir(d)] && g.chance(0.6)
			if !there[d] {
				continue
			}
			if err := os.Mkdir(d, 0o755); err != nil {
				t.Fatal(err)
			}
			if g.chance(0.3) {
				writeFile(t, filepath.Join(d, "notes.md"), "mine\n", 0o644)
			}
		}
		if !there[filepath.Dir(f)] || g.chance(0.3) {
			continue
		}
		text := ""
		switch {
		case strings.HasSuffix(f, ".toml"):
			text = g.toml()
		case f == h.File(env, Project):
			text = g.settings(h, mcp != nil && mcp.File(env, Project) == f)
		default:
			text = g.settings(nil, true)
		}
		writeFile(t, f, text, 0o644)
	}
	if h.FolderOfFiles && there[filepath.Dir(files[0])] && g.chance(0.4) {
		writeFile(t, filepath.Join(filepath.Dir(files[0]), "mine.json"), g.settings(h, false), 0o644)
	}
}

// play installs, then uninstalls, in random orders, and says what it did.
func (g *gen) play(t *testing.T, env Env, h *Host, mcp *MCPHost) []string {
	t.Helper()
	var log []string
	must := func(what string, c *Change, err error) {
		t.Helper()
		log = append(log, what)
		if err == nil {
			err = c.Apply()
		}
		if err != nil {
			t.Fatalf("%s: %v", strings.Join(log, ", "), err)
		}
	}
	options := func() Options {
		return Options{Lint: g.chance(0.5), RequirePacket: g.chance(0.3), MaxBlocks: g.r.IntN(3)}
	}
	installs := []func(){func() {
		o := options()
		c, err := h.PlanInstall(env, h.File(env, Project), o)
		must(fmt.Sprintf("hook install %+v", o), c, err)
		if g.chance(0.3) {
			o = options()
			c, err := h.PlanInstall(env, h.File(env, Project), o)
			must(fmt.Sprintf("hook install again %+v", o), c, err)
		}
	}}
	uninstalls := []func(){func() {
		for _, f := range h.Files(env, Project) {
			c, err := h.PlanUninstall(env, f)
			must("hook uninstall "+filepath.Base(f), c, err)
		}
	}}
	if mcp != nil {
		installs = append(installs, func() {
			c, err := mcp.PlanInstall(env, mcp.File(env, Project))
			if err == nil && c.Was == Foreign {
				log = append(log, "(a server of the person's is named baton)")
			}
			must("mcp install", c.Change, err)
		})
		uninstalls = append(uninstalls, func() {
			c, err := mcp.PlanUninstall(env, mcp.File(env, Project))
			must("mcp uninstall", c.Change, err)
		})
	}
	for _, list := range [][]func(){installs, uninstalls} {
		g.r.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
		for _, f := range list {
			f()
		}
	}
	return log
}

// layout is how one file is written: what goes between its tokens.
type layout struct {
	g       *gen
	nl      string // the line end
	unit    string // one level of indentation; "" on one line
	chaotic bool   // every gap white space of its own
}

func (g *gen) layout() layout {
	l := layout{g: g, nl: g.pick("\n", "\n", "\r\n"), unit: g.pick("  ", "  ", "    ", "\t", "")}
	l.chaotic = g.chance(0.25)
	return l
}

// gap is the white space at a place where a line may break, at depth.
func (l layout) gap(depth int) string {
	if l.chaotic {
		return l.g.pick("", " ", "  ", "\t", l.nl, l.nl+"  ", l.nl+l.nl+"\t", " "+l.nl+"    ")
	}
	if l.unit == "" {
		return ""
	}
	return l.nl + strings.Repeat(l.unit, depth)
}

// inline is the white space where a line does not break (after a colon).
func (l layout) inline() string {
	if l.chaotic {
		return l.g.pick("", " ", "\t ", "  ")
	}
	if l.unit == "" {
		return ""
	}
	return " "
}

// value is a JSON value: an object (kvs) or an array ([]any) of values,
// or a literal already written.
type kvs []kvPair
type kvPair struct {
	k string
	v any
}
type literal string

func (l layout) write(b *strings.Builder, v any, depth int) {
	switch v := v.(type) {
	case kvs:
		l.seq(b, "{", "}", len(v), depth, func(i int) {
			b.WriteString(Quote(v[i].k) + l.inline() + ":" + l.inline())
			l.write(b, v[i].v, depth+1)
		})
	case []any:
		l.seq(b, "[", "]", len(v), depth, func(i int) { l.write(b, v[i], depth+1) })
	case literal:
		b.WriteString(string(v))
	case string:
		b.WriteString(Quote(v))
	default:
		panic(fmt.Sprintf("%T", v))
	}
}

func (l layout) seq(b *strings.Builder, open, close string, n, depth int, item func(int)) {
	b.WriteString(open)
	if n == 0 {
		// An empty object or list, with any white space inside.
		b.WriteString(l.g.pick("", "", " ", l.nl, l.nl+strings.Repeat(l.unit, depth), "\t", l.nl+l.nl))
		b.WriteString(close)
		return
	}
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(l.gap(depth + 1))
		item(i)
	}
	b.WriteString(l.gap(depth) + close)
}

// settings is a settings file for h's hooks (nil: an MCP settings file),
// holding MCP servers too when servers is set.
func (g *gen) settings(h *Host, servers bool) string {
	var root kvs
	if h != nil && h.Version && g.chance(0.8) {
		root = append(root, kvPair{"version", literal("1")})
	}
	if g.chance(0.4) {
		root = append(root, kvPair{"model", g.pick("opus", "a  b", "")})
	}
	if g.chance(0.2) {
		root = append(root, kvPair{"permissions", kvs{{"allow", []any{"Bash(go test:*)", "Read(~/.zshrc)"}}}})
	}
	if h != nil && g.chance(0.8) {
		var hooks kvs
		events := []string{"PreToolUse", "SessionStart"}
		for _, hk := range h.Hooks {
			events = append(events, hk.Event)
		}
		for _, ev := range events {
			if !g.chance(0.4) {
				continue
			}
			var list []any
			for range g.r.IntN(3) {
				list = append(list, g.entry(h))
			}
			hooks = append(hooks, kvPair{ev, list})
		}
		g.r.Shuffle(len(hooks), func(i, j int) { hooks[i], hooks[j] = hooks[j], hooks[i] })
		root = append(root, kvPair{"hooks", hooks})
	}
	if servers && g.chance(0.7) {
		var list kvs
		if g.chance(0.5) {
			list = append(list, kvPair{"docs", kvs{{"command", "npx"}, {"args", []any{"docs-mcp", "--dir", "my  docs"}}}})
		}
		if g.chance(0.15) {
			list = append(list, kvPair{"baton", kvs{{"command", "node"}, {"args", []any{"baton-server.js"}}}})
		}
		root = append(root, kvPair{"mcpServers", list})
	}
	if g.chance(0.3) {
		root = append(root, kvPair{"theme", "dark"})
	}
	l := g.layout()
	var b strings.Builder
	if g.chance(0.05) {
		b.WriteString("\uFEFF")
	}
	b.WriteString(g.pick("", "", "", " ", l.nl))
	l.write(&b, root, 0)
	b.WriteString(g.pick(l.nl, l.nl, "", " "+l.nl, l.nl+l.nl))
	return b.String()
}

// entry is a hook of the person's in h's shape: a command of theirs,
// one that starts with baton's, one that mentions it.
func (g *gen) entry(h *Host) any {
	sub := h.Hooks[g.r.IntN(len(h.Hooks))].Sub
	cmd := g.pick(
		"notify-send 'Claude stopped'",
		"./check.sh --name \"a    b\"  --x",
		"baton hook "+sub+" && notify-send \"done   now\"",
		"baton hook "+sub+" || true",
		"baton hook "+sub+" --lint | tee -a hook.log",
		"/opt/baton/baton hook "+sub+"; echo  done",
		"echo baton hook "+sub,
		"FOO=1 baton hook "+sub,
	)
	if !h.Grouped {
		if slices.Contains(h.CmdKeys, "bash") {
			return kvs{{"type", "command"}, {"bash", cmd}, {"powershell", g.pick(cmd, "Write-Host hi")}, {"timeoutSec", literal("10")}}
		}
		return kvs{{"command", cmd}}
	}
	inner := kvs{{"type", "command"}, {"command", cmd}}
	if g.chance(0.3) {
		inner = append(inner, kvPair{"timeout", literal("5")})
	}
	group := kvs{{"hooks", []any{inner}}}
	if g.chance(0.3) {
		group = append(kvs{{"matcher", "Bash"}}, group...)
	}
	return group
}

// toml is a Codex config.toml as a person may have it.
func (g *gen) toml() string {
	nl := g.pick("\n", "\r\n")
	// Keys first, then tables, each once.
	keys := []string{`model = "o3"`, "# my config", `model_reasoning_effort = "high" # more`, ""}
	tables := []string{
		"[projects.\"/w\"]" + nl + `trust_level = "trusted"`,
		"[mcp_servers.docs]" + nl + `command = "npx"` + nl + `args = ["docs-mcp", "my  docs"]`,
		"[mcp_servers.baton]" + nl + `command = "python"`,
		"# a table next" + nl,
	}
	var parts []string
	for _, list := range [][]string{keys, tables} {
		for _, p := range list {
			if g.chance(0.4) {
				parts = append(parts, p)
			}
		}
	}
	text := strings.Join(parts, nl)
	return text + g.pick(nl, nl, "", nl+nl, "  ")
}

// snapshot is every folder and file below dir, by its path, with its
// bytes ("/" for a folder).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			out[rel] = "/"
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diffSnapshots(before, after map[string]string) string {
	var out []string
	for k, v := range before {
		if w, ok := after[k]; !ok {
			out = append(out, fmt.Sprintf("gone: %s (held %q)", k, v))
		} else if w != v {
			out = append(out, fmt.Sprintf("changed: %s\n  before %q\n  after  %q", k, v, w))
		}
	}
	for k, w := range after {
		if _, ok := before[k]; !ok {
			out = append(out, fmt.Sprintf("left behind: %s (holds %q)", k, w))
		}
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}
