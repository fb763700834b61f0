// Command gencorpus writes bench's deterministic corpus to a folder: stop
// packets, handoff documents (with the clio-coder session store they name,
// under DIR/clio-state) and XMD workflows, from 1 KB to 1 MB, good and bad.
//
//	go run ./bench/cmd/gencorpus -out DIR -n 10000 -seed 1
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/bench"
)

func main() {
	out := flag.String("out", "", "the folder to write (created when missing)")
	n := flag.Int("n", 10000, "how many documents")
	seed := flag.Uint64("seed", 1, "the generator's seed: the same seed writes the same bytes")
	flag.Parse()
	if *out == "" || *n <= 0 {
		fmt.Fprintln(os.Stderr, "usage: gencorpus -out DIR [-n 10000] [-seed 1]")
		os.Exit(2)
	}
	c := bench.Generate(*n, *seed)
	if err := c.Write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(1)
	}
	var bytes int64
	count := map[markdown.Kind][2]int{}
	for _, f := range c.Files {
		bytes += int64(len(f.Text))
		k := count[f.Kind]
		if f.Good {
			k[0]++
		} else {
			k[1]++
		}
		count[f.Kind] = k
	}
	fmt.Printf("wrote %d documents (%.1f MB) and %d session files to %s\n", len(c.Files), float64(bytes)/(1<<20), len(c.State), *out)
	for _, k := range []markdown.Kind{markdown.KindPacket, markdown.KindHandoff, markdown.KindWorkflow} {
		fmt.Printf("  %-12s %5d good %5d bad\n", k, count[k][0], count[k][1])
	}
}
