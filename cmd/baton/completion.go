package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/internal/completion"
	"github.com/baton-md/baton/report"
)

// The shell completions, made from the help table: the commands and
// subcommands, each command's flags (from its FlagSet), the values of the
// flags that take a fixed set, and files where a command takes paths.

// tristate are the values of classify's input flags.
var tristate = []string{"true", "false", "unknown"}

// completionModel is every command with what completes after it.
func completionModel() []completion.Command {
	var out []completion.Command
	for _, c := range commands {
		cc := completion.Command{Name: c.Name, Summary: c.Summary, Files: c.Paths, Words: c.ArgWords,
			WordsOnly: len(c.ArgWords) > 0 || c.Name == "explain" || c.Name == "help"}
		if p := c.parent(); p != nil {
			cc.Parent = p.Name
		}
		for _, s := range c.subcommands() {
			cc.Subs = append(cc.Subs, s.Name)
			cc.Words = append(cc.Words, strings.TrimPrefix(s.Name, c.Name+" "))
		}
		switch c.Name {
		case "explain":
			for _, r := range engine.Registry().Rules() {
				cc.Words = append(cc.Words, r.ID)
			}
		case "help":
			for _, t := range commands {
				if t.parent() == nil {
					cc.Words = append(cc.Words, t.Name)
				}
			}
		}
		for _, f := range c.flags() {
			cf := completion.Flag{Name: f.Name, Usage: f.Usage, Bool: f.isBool(), Values: flagValues(c.Name, f.Name)}
			switch {
			case cf.Values != nil || f.isBool():
			case folderFlags[f.Name]:
				cf.Dirs = true
			case fileFlags[f.Name] || f.Arg == "file":
				cf.Files = true
			}
			cc.Flags = append(cc.Flags, cf)
		}
		cc.Flags = append(cc.Flags, completion.Flag{Name: "help", Usage: "print this command's help", Bool: true})
		out = append(out, cc)
	}
	return out
}

// folderFlags are the flags whose value is a folder; fileFlags those
// whose value is a file. freeFlags take a value of no fixed set, which
// nothing completes (a test holds every flag to one of these or to
// flagValues).
var (
	folderFlags = map[string]bool{"state-dir": true, "dir": true, "workspace": true, "root": true}
	fileFlags   = map[string]bool{"config": true, "cpuprofile": true, "memprofile": true, "trace": true}
	freeFlags   = map[string]bool{"max-blocks": true, "since": true, "session": true, "clientProcessId": true}
)

// flagValues are the values a command's flag takes, when they are a fixed
// set: each taken from where the command checks it.
func flagValues(cmd, flag string) []string {
	switch {
	case flag == "format" && cmd == "audit":
		return auditFormats
	case flag == "format":
		return report.Formats()
	case flag == "color":
		return []string{report.ColorAuto, report.ColorAlways, report.ColorNever}
	case flag == "host" && cmd == "audit":
		return hosts.Transcripts()
	case flag == "host":
		return hosts.SettingsIDs()
	case cmd == "classify" && slices.Contains(classifyInputFlags(), flag):
		return tristate
	}
	return nil
}

// classifyInputFlags are the flags that set classify's inputs.
func classifyInputFlags() []string {
	var names []string
	for _, n := range flagNames {
		names = append(names, n)
	}
	return names
}

func runCompletion(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		usageError(stderr, "completion", "name one shell: bash, zsh or fish")
		return exitUsage
	}
	model := completionModel()
	switch args[0] {
	case "bash":
		completion.Bash(stdout, model)
	case "zsh":
		completion.Zsh(stdout, model)
	case "fish":
		completion.Fish(stdout, model)
	default:
		usageError(stderr, "completion", fmt.Sprintf("unknown shell %q (want bash, zsh or fish)", args[0]))
		return exitUsage
	}
	return exitOK
}
