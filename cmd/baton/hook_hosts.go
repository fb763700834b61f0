package main

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/baton-md/baton/agenthost"
	"github.com/baton-md/baton/agenthost/claude"
	"github.com/baton-md/baton/agenthost/hosts"
	"github.com/baton-md/baton/stoppolicy"
)

// The stop hooks run each host's adapter, which is the host's own
// (agenthost/<host>, listed in agenthost/hosts). This file only wires
// those values to the hook's runner (hook.go): the subcommands, and the
// view of a host the runner reads.

// stopAdapter is a host's stop hook, as the runner reads it.
type stopAdapter struct {
	*agenthost.Host
	host                          string
	messageField, transcriptField string
	pass, promptPass              any
}

// hostStop is what an adapter read of its host's input (agenthost.Stop).
type hostStop struct {
	stop       stoppolicy.Stop
	transcript string
	skip       string
	cumulative bool
	stamp      json.RawMessage
}

func (a stopAdapter) parse(raw []byte) (hostStop, error) {
	s, err := a.Stop.Parse(raw)
	return hostStop{stop: s.Stop, transcript: s.Transcript, skip: s.Skip, cumulative: s.Cumulative, stamp: s.Stamp}, err
}

func (a stopAdapter) block(reason string) any { return a.Stop.Block(reason) }

// stopAdapters are the hosts' adapters by host ID.
var stopAdapters = func() map[string]stopAdapter {
	m := map[string]stopAdapter{}
	for _, h := range hosts.All {
		m[h.ID] = stopAdapter{Host: h, host: h.ID, messageField: h.Stop.MessageField, transcriptField: h.Stop.TranscriptField, pass: h.Stop.Pass, promptPass: h.Stop.PromptPass}
	}
	return m
}()

// hostHook is the adapter of a host's hook sub ("codex-stop" with suffix
// "-stop"), and whether sub is one.
func hostHook(sub, suffix string) (stopAdapter, bool) {
	id, ok := strings.CutSuffix(sub, suffix)
	a, known := stopAdapters[id]
	return a, ok && known
}

// The hook's input and reply types that the runner and the tests share
// with Claude Code's adapter.
type (
	hookInput    = claude.Input
	hookDecision = claude.Decision
)

// awaitLimit bounds how long a hook waits for its host to write the
// stop's records (agenthost.Host.Await): Copilot CLI 1.0.102 wrote its
// hook.start record 0.09 to 0.15 s after the hook started.
var awaitLimit = 2 * time.Second
