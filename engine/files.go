package engine

import (
	"cmp"
	"os"
	"runtime"

	"github.com/baton-md/baton/analysis"
	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/handoff"
	"github.com/baton-md/baton/handoff/session"
	"github.com/baton-md/baton/internal/memo"
)

// FilesOptions are what an entry point that reads the files as they are
// on disk says of its run.
type FilesOptions struct {
	Registry *analysis.Registry
	// Store holds the sessions read; shared by the engines of a process.
	Store *session.Store
	// StateDir is a --state-dir: where clio-coder's sessions are looked
	// for first ("": the configuration's state-dir, then the platform's
	// folders).
	StateDir string
	// Config is a --config file, nil for the .baton.yaml found above each
	// document.
	Config *config.File
	// Static says the files do not change while the engine is used (one
	// run of baton check); see Sources.Static.
	Static bool
}

// ForFiles is the engine of an entry point that reads the files as they
// are on disk: baton check, the stop hooks and classify (stoppolicy),
// and each call of baton mcp. The editor server, which reads open
// documents and watches its files, builds its own Sources.
func ForFiles(o FilesOptions) *Engine {
	var finds memo.Map[string, handoff.Lookup] // Static: each session's Lookup, by state folder and id
	src := Sources{
		Registry: o.Registry,
		Static:   o.Static,
		Ledger: func(fromConfig string) handoff.Resolver {
			r := Sessions(o.Store, func() []string { return StateDirs(cmp.Or(o.StateDir, fromConfig)) }, nil)
			if o.Static {
				// The handoff documents of a run name a few sessions many
				// times, and finding one lists every state folder's
				// sessions; the Store beneath keeps each ledger.
				r = once(&finds, cmp.Or(o.StateDir, fromConfig), r)
			}
			return r
		},
	}
	if o.Config != nil {
		src.Config = Explicit(o.Config)
	}
	return New(src)
}

// StateDirs are the folders clio-coder's sessions are looked for in: first
// (a flag's, or the configuration's state-dir) when given, then the
// platform's defaults.
func StateDirs(first string) []string {
	home, _ := os.UserHomeDir()
	dirs := session.DefaultStateDirs(os.Getenv, runtime.GOOS, home)
	if first != "" {
		dirs = append([]string{first}, dirs...)
	}
	return dirs
}

// once is r, asked once per session id and state folder.
func once(finds *memo.Map[string, handoff.Lookup], stateDir string, r handoff.Resolver) handoff.Resolver {
	return func(id string) handoff.Lookup {
		return finds.Get(stateDir+"\x00"+id, func() handoff.Lookup { return r(id) })
	}
}
