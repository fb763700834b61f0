package main

import (
	"fmt"
	"io"

	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/engine"
)

// runConfig is `baton config SUBCOMMAND`.
func runConfig(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		usageError(stderr, "config schema", "name a subcommand: schema")
		return exitUsage
	case args[0] != "schema":
		usageError(stderr, "config schema", fmt.Sprintf("unknown subcommand %q (want schema)", args[0]))
		return exitUsage
	case len(args) > 1:
		usageError(stderr, "config schema", fmt.Sprintf("unexpected argument %q", args[1]))
		return exitUsage
	}
	if _, err := stdout.Write(config.Schema(engine.Registry())); err != nil {
		printErr(stderr, err)
		return exitUsage
	}
	return exitOK
}
