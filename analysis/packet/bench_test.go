package packet_test

import (
	"testing"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis/packet"
	"github.com/baton-md/baton/bench"
)

// BenchmarkBuild reads the stop packets of the generated corpus the kind
// benchmark lints (bench's BenchmarkKindRatio), parsed once: the packet
// model alone, for profiling it without the parser.
func BenchmarkBuild(b *testing.B) {
	var docs []*markdown.Document
	var size int64
	for _, t := range bench.Generate(1000, 1).OfKind(markdown.KindPacket) {
		docs = append(docs, markdown.Parse("file:///p.md", t))
		size += int64(len(t))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			packet.BuildWith(d, nil)
		}
	}
}

// BenchmarkBuild1MB reads the 1 MB document of the editor latency benchmark
// (bench/cmd/latency): several packets of 64 KB, read in parallel runs.
func BenchmarkBuild1MB(b *testing.B) {
	text := bench.PacketText(7, 1<<20)
	d := markdown.Parse("file:///p.md", text)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		packet.BuildWith(d, nil)
	}
}
