package hostsettings

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Options are the stop policy's flags that install writes into the hooks'
// command lines. They go in at install time because a host that trusts a
// hook by its hash stops running a hook whose command was edited
// by hand afterwards.
type Options struct {
	// Lint: the stop hook also blocks a message that breaks baton's rules
	// (--lint). A message that is not a packet is read as a packet of no
	// sections and breaks none of them, so conversation is never blocked.
	Lint bool
	// RequirePacket: demand the packet after material work in any Git
	// project (--require-packet); the prompt and tool hooks take it too,
	// or they would keep no baseline outside a specrew project.
	RequirePacket bool
	// MaxBlocks is --max-blocks; 0 leaves the hook's default.
	MaxBlocks int
	// Program is the baton the hooks run: "" for "baton" from the PATH the
	// host runs them with, or an absolute path to a baton when there is
	// none on PATH. It holds no space (a command line is split at spaces).
	Program string
}

// Args are the flags of a hook's command line: the stop hook takes them
// all, the other hooks only what decides the turn's baseline.
func (o Options) Args(stop bool) []string {
	var a []string
	if o.Lint && stop {
		a = append(a, "--lint")
	}
	if o.RequirePacket {
		a = append(a, "--require-packet")
	}
	if o.MaxBlocks > 0 && stop {
		a = append(a, "--max-blocks", strconv.Itoa(o.MaxBlocks))
	}
	return a
}

// ParseArgs reads the stop policy's flags back from an installed command
// line ("baton hook ID-stop --lint"), as the hook's flag parser takes
// them (-flag, --flag, --flag=value). Flags it does not know are left out.
func ParseArgs(cmdline string) Options {
	var o Options
	var f []string
	if words, ok := shellWords(cmdline); ok {
		for _, w := range words {
			f = append(f, w.val)
		}
	} else {
		f = strings.Fields(cmdline)
	}
	if len(f) > 3 {
		f = f[3:]
	} else {
		f = nil
	}
	for i := 0; i < len(f); i++ {
		name, val, hasVal := strings.Cut(strings.TrimLeft(f[i], "-"), "=")
		flagBool := func() bool {
			if !hasVal {
				return true
			}
			b, err := strconv.ParseBool(val)
			return err == nil && b
		}
		switch name {
		case "lint":
			o.Lint = flagBool()
		case "require-packet":
			o.RequirePacket = flagBool()
		case "max-blocks", "state-dir":
			if !hasVal && i+1 < len(f) {
				val = f[i+1]
				i++
			}
			if name == "max-blocks" {
				o.MaxBlocks, _ = strconv.Atoi(val)
			}
		}
	}
	return o
}

// Enforcement is what an installed stop hook blocks, read from its
// command line and the project: what `hook status` and `hook install`
// say, so that neither claims more than the hook does.
type Enforcement struct {
	Command       string `json:"command"` // the stop hook's command line, as installed
	Lint          bool   `json:"lint"`
	RequirePacket bool   `json:"require_packet"`
	// Specrew: the project is a specrew workspace (project scope only).
	Specrew bool `json:"specrew"`
	// Blocks says what the hook blocks; empty when it blocks nothing.
	Blocks []string `json:"blocks"`
	// Passes says what it lets through that a packet contract could
	// demand, and the flag that would block it.
	Passes []string `json:"passes,omitempty"`
}

// Enforces is the enforcement of a stop hook run as cmdline, in scope
// (in the project when scope is Project).
func Enforces(cmdline string, e Env, s Scope) *Enforcement {
	o := ParseArgs(cmdline)
	en := &Enforcement{Command: cmdline, Lint: o.Lint, RequirePacket: o.RequirePacket, Blocks: []string{}}
	if s == Project {
		if fi, err := os.Stat(filepath.Join(e.Project, ".specrew")); err == nil && fi.IsDir() {
			en.Specrew = true
		}
	}
	if o.Lint {
		en.Blocks = append(en.Blocks, "a packet that breaks baton's rules (--lint; a message that is not a packet is never blocked)")
	} else {
		en.Passes = append(en.Passes, "a packet that breaks baton's rules, e.g. a review request that also proceeds (reported on standard error only; --lint blocks it)")
	}
	switch {
	case en.Specrew:
		en.Blocks = append(en.Blocks, "specrew's stop contract: a pending boundary without its verdict marker, material work without the packet")
	case s == User:
		en.Blocks = append(en.Blocks, "specrew's stop contract, in specrew projects")
	}
	switch {
	case o.RequirePacket && !en.Specrew:
		en.Blocks = append(en.Blocks, "material work without the packet (--require-packet)")
	case !o.RequirePacket && !en.Specrew:
		en.Passes = append(en.Passes, "material work without the packet outside a specrew project (--require-packet demands it)")
	}
	return en
}

// Nothing says whether the hook blocks nothing where it is.
func (en *Enforcement) Nothing() bool { return len(en.Blocks) == 0 }
