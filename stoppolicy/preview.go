package stoppolicy

import "github.com/baton-md/baton/analysis/stopintent"

// CarriesVerdict reports whether msg alone asks for the verdict of
// crossing c as specrew's provider reads it (crossingRendered, without a
// transcript): the exact marker for this crossing, in a message of some
// substance. An agent checking its stop before it stops has no transcript
// to lean on: the stop it is about to make must carry it.
func CarriesVerdict(msg string, c *stopintent.Crossing) bool {
	return c != nil && crossingRendered(msg, nil, c)
}

// PacketPresent reports whether msg renders the packet as specrew's
// provider counts it: four of the six section headings, anywhere.
func PacketPresent(msg string) bool { return packetPresent(msg) }

// Sections are the packet's headings the policy asks for: the six of a
// boundary stop, the five of any other.
const (
	BoundarySections = sixSections
	PacketSections   = fiveSections
)
