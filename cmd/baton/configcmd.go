package main

import (
	"fmt"
	"io"

	"github.com/baton-md/baton/config"
	"github.com/baton-md/baton/engine"
)

// runConfig is `baton config SUBCOMMAND`.
func runConfig(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || args[0] != "schema" {
		fmt.Fprintln(stderr, "usage: baton config schema")
		return exitUsage
	}
	if _, err := stdout.Write(config.Schema(engine.Registry())); err != nil {
		printErr(stderr, err)
		return exitUsage
	}
	return exitOK
}
