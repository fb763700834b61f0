// Package bench generates deterministic corpora and measures baton against
// goldmark's own parse time.
package bench

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/baton-md/baton/analysis"
)

var words = strings.Fields(`the plan retry loop caller header status test suite change review boundary
tasks implement approve option tradeoff cap wait seconds server client config package import module
branch commit decision verdict scope risk default flag behaviour migration schema index cache`)

// Packets returns n stop packets from a fixed seed: material-work and
// boundary packets, some well formed and some not, from about 1 KB to
// about 64 KB, with lists, code, links and multi-byte text. Their sections
// are random prose, far longer than real packets' (which are 1-5 KB).
func Packets(n int, seed uint64) []string { return PacketsSized(n, seed, 10, 16) }

// PacketsSized is Packets with sizes from 2^minLog to 2^maxLog bytes.
func PacketsSized(n int, seed uint64, minLog, maxLog int) []string {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	out := make([]string, n)
	for i := range out {
		out[i] = packet(r, minLog, maxLog)
	}
	return out
}

func packet(r *rand.Rand, minLog, maxLog int) string {
	var b strings.Builder
	boundary := r.IntN(2) == 0
	sections := []int{0, 1, 2, 3, 5}
	if boundary {
		sections = []int{0, 1, 2, 3, 4, 5}
	}
	switch r.IntN(5) { // one in five is malformed in some way
	case 0:
		k := r.IntN(len(sections))
		sections = append(sections[:k], sections[k+1:]...)
	case 1:
		k := r.IntN(len(sections) - 1)
		sections[k], sections[k+1] = sections[k+1], sections[k]
	}
	size := 1 << (minLog + r.IntN(maxLog-minLog+1))
	per := size / len(sections)
	if boundary && r.IntN(3) == 0 {
		b.WriteString("<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->\n")
	}
	for _, s := range sections {
		fmt.Fprintf(&b, "## %s\n\n", analysis.PacketHeadings[s])
		start := b.Len()
		for b.Len()-start < per {
			switch r.IntN(6) {
			case 0:
				fmt.Fprintf(&b, "- %s\n- %s `code/%s.go`\n\n", sentence(r), sentence(r), words[r.IntN(len(words))])
			case 1:
				fmt.Fprintf(&b, "```go\nfunc %s() error { return nil }\n```\n\n", words[r.IntN(len(words))])
			case 2:
				fmt.Fprintf(&b, "See [the %s](file:///ws/specs/%d/plan.md) — résumé 😀.\n\n", words[r.IntN(len(words))], r.IntN(999))
			default:
				fmt.Fprintf(&b, "%s %s\n\n", sentence(r), sentence(r))
			}
		}
	}
	if boundary && r.IntN(2) == 0 {
		b.WriteString("<!-- SPECREW-VERDICT-BOUNDARY: plan -> tasks -->\n")
	}
	return b.String()
}

func sentence(r *rand.Rand) string {
	n := 6 + r.IntN(12)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = words[r.IntN(len(words))]
	}
	ws[0] = strings.ToUpper(ws[0][:1]) + ws[0][1:]
	return strings.Join(ws, " ") + "."
}
