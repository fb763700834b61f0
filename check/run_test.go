package check

import (
	"flag"
	"io"
	"strings"

	"github.com/baton-md/baton/engine"
)

// run is `baton check` with args as the command line after "check": the
// flags cmd/baton defines for Run (output, fixes, --state-dir), then paths.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("check", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var o Options
	o.Output.Register(fl)
	o.Fix.Register(fl)
	fl.StringVar(&o.StateDir, "state-dir", "", "")
	if err := fl.Parse(args); err != nil {
		return ExitUsage
	}
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	o.Registry = engine.Registry()
	o.Output.Version = "test"
	return Run(fl.Args(), o, stdin, stdout, stderr)
}
