package bench

import (
	"testing"
	"time"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/engine"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/text"
)

var corpus = Packets(200, 1)

func corpusBytes() int64 {
	var n int64
	for _, p := range corpus {
		n += int64(len(p))
	}
	return n
}

// BenchmarkGoldmarkParse is the baseline: goldmark parsing each packet.
func BenchmarkGoldmarkParse(b *testing.B) {
	md := goldmark.New()
	b.SetBytes(corpusBytes())
	for b.Loop() {
		for _, p := range corpus {
			md.Parser().Parse(text.NewReader([]byte(p)))
		}
	}
}

// BenchmarkLint is everything `baton check` does per document: parse, detect
// the kind, run every rule.
func BenchmarkLint(b *testing.B) {
	reg := engine.Registry()
	b.SetBytes(corpusBytes())
	for b.Loop() {
		for _, p := range corpus {
			reg.Analyze(markdown.Parse("p.md", p), nil)
		}
	}
}

// BenchmarkLintToParseRatio runs both in one process, alternating, and
// reports lint time over parse time (the goal is at most 1.5), on the
// 1-64 KB corpus and on packets of a realistic 1-4 KB.
func BenchmarkLintToParseRatio(b *testing.B) {
	for _, c := range []struct {
		name   string
		corpus []string
	}{{"1-64KB", corpus}, {"1-4KB", PacketsSized(1000, 2, 10, 12)}} {
		b.Run(c.name, func(b *testing.B) {
			md := goldmark.New()
			reg := engine.Registry()
			var parse, lint time.Duration
			for b.Loop() {
				t0 := time.Now()
				for _, p := range c.corpus {
					md.Parser().Parse(text.NewReader([]byte(p)))
				}
				t1 := time.Now()
				for _, p := range c.corpus {
					reg.Analyze(markdown.Parse("p.md", p), nil)
				}
				parse += t1.Sub(t0)
				lint += time.Since(t1)
			}
			b.ReportMetric(float64(lint)/float64(parse), "lint/parse")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// TestCorpusIsDeterministic keeps the benchmark comparable across runs.
func TestCorpusIsDeterministic(t *testing.T) {
	a, b := Packets(20, 7), Packets(20, 7)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("packet %d differs between two generations with the same seed", i)
		}
	}
	kinds := map[markdown.Kind]int{}
	for _, p := range a {
		kinds[markdown.Parse("p.md", p).Kind]++
	}
	if kinds[markdown.KindPacket] != len(a) {
		t.Errorf("kinds = %v, want every generated document to be a stop packet", kinds)
	}
}
