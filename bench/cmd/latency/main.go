// Command latency measures how long `baton serve` takes from an edit to
// the diagnostics of that edit: it runs the real binary over stdio with
// debounce 0, opens a stop packet of about 5 KB and one of about 1 MB, and
// makes -edits incremental edits to each, one at a time. Each edit's
// latency is from just before the client writes its didChange to the moment
// it has read the publishDiagnostics carrying that version; nothing is
// subtracted, so it includes the pipe and JSON-RPC both ways, applying the
// edit, parsing, every rule, and encoding the diagnostics. It also reads the
// server's own time for each edit, from receiving the change to sending its
// diagnostics, from the $/logTrace the server sends with trace "messages".
// It prints p50, p99 and max of both, and their ratio to the document's
// goldmark parse time (the median of 200 in-process parses of the same
// text, after the edits, on the quiet machine); the goal is p99 <= 2 x
// parse + 1 ms. The p99 of those parses is printed too: the floor's own
// tail, which on a shared virtual machine can itself reach the goal.
//
//	go build -o bin/baton ./cmd/baton && go run ./bench/cmd/latency -baton bin/baton
//
// With -cpuprofile FILE it runs the server in-process instead (server.Run
// over pipes: the same code without the process boundary) and writes a CPU
// profile of the edits to the largest document.
//
// With -open N it first opens N other documents of -open-size bytes, so the
// edits are timed beside the memory an editor holds (and the server's RSS
// is reported after them). With -load it also makes its own background load
// while it measures: one of those other documents is edited every
// -load-every (the server analyses it beside the measured one, allocates,
// and collects), and (unless -load-cpu=false) another process (this
// program, started again) keeps one CPU busy half the time (5 ms on, 5 ms
// off).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/bench"
	"github.com/baton-md/baton/bench/internal/lspclient"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/server"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/text"
)

func main() {
	if os.Getenv(hogEnv) != "" {
		hogCPU()
	}
	bin := flag.String("baton", "bin/baton", "the baton binary")
	edits := flag.Int("edits", 1000, "edits per document")
	cpu := flag.String("cpuprofile", "", "run the server in-process and write a CPU profile of the 1 MB edits here")
	flag.IntVar(&bg.open, "open", 0, "other documents to open first")
	flag.IntVar(&bg.size, "open-size", 16<<10, "bytes per other document")
	flag.BoolVar(&bg.load, "load", false, "make a background load while measuring (needs -open)")
	flag.DurationVar(&bg.every, "load-every", 20*time.Millisecond, "with -load, how often an other document is edited")
	flag.BoolVar(&bg.cpu, "load-cpu", true, "with -load, also keep one CPU busy half the time (5 ms on, 5 ms off)")
	flag.Parse()
	if bg.load && bg.open == 0 {
		bg.open = 1000
	}
	for _, size := range []int{5 << 10, 1 << 20} {
		start := func() (*lspclient.Client, error) { return lspclient.Start(*bin, "serve") }
		profile := ""
		if *cpu != "" {
			start = startInProcess
			if size == 1<<20 {
				profile = *cpu
			}
		}
		if err := run(start, profile, size, *edits); err != nil {
			fmt.Fprintln(os.Stderr, "latency:", err)
			os.Exit(1)
		}
	}
}

// bg is the background: other open documents, and the load made while
// measuring.
var bg struct {
	open, size int
	load, cpu  bool
	every      time.Duration
}

// background opens the other documents and, with -load, starts the load;
// stop ends it and returns how many background edits were made.
func background(c *lspclient.Client) (stop func() int, err error) {
	uris := make([]string, bg.open)
	for i := range uris {
		uris[i] = fmt.Sprintf("file:///bench/latency/other%04d.md", i)
		doc := bench.PacketText(uint64(1000+i), bg.size)
		if err := c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uris[i], "languageId": "markdown", "version": 1, "text": doc}}); err != nil {
			return nil, err
		}
	}
	// Every one's first diagnostics, in whatever order they come.
	seen := map[string]bool{}
	deadline := time.After(5 * time.Minute)
	for len(seen) < len(uris) {
		select {
		case p := <-c.Publishes:
			if p.Version == 1 && strings.HasPrefix(p.URI, "file:///bench/latency/other") {
				seen[p.URI] = true
			}
		case <-deadline:
			return nil, fmt.Errorf("diagnostics for %d of %d other documents after 5 minutes", len(seen), len(uris))
		}
	}
	if !bg.load || len(uris) == 0 {
		return func() int { return 0 }, nil
	}
	quit := make(chan struct{})
	done := make(chan int)
	go func() { // edits: insert "x" at the start of a document, then delete it
		versions := make([]int, len(uris))
		n := 0
		t := time.NewTicker(bg.every)
		defer t.Stop()
		for {
			select {
			case <-quit:
				done <- n
				return
			case <-t.C:
			}
			k := n / 2 % len(uris)
			versions[k]++
			change := map[string]any{"range": rng(0, 0, 0, 0), "text": "x"}
			if n%2 == 1 {
				change = map[string]any{"range": rng(0, 0, 0, 1), "text": ""}
			}
			_ = c.Notify("textDocument/didChange", map[string]any{
				"textDocument": map[string]any{"uri": uris[k], "version": versions[k] + 1}, "contentChanges": []any{change}})
			n++
		}
	}()
	var hog *exec.Cmd
	if bg.cpu {
		// Another process, as the name says: a goroutine of this one
		// would also compete with this client's own reading.
		self, err := os.Executable()
		if err != nil {
			return nil, err
		}
		hog = exec.Command(self)
		hog.Env = append(os.Environ(), hogEnv+"=1")
		if err := hog.Start(); err != nil {
			return nil, err
		}
	}
	return func() int {
		if hog != nil {
			hog.Process.Kill()
			hog.Wait()
		}
		close(quit)
		return <-done
	}, nil
}

// hogEnv makes this program the CPU load: one CPU busy half the time, 5 ms
// on and 5 ms off, until it is killed.
const hogEnv = "BATON_LATENCY_HOG"

func hogCPU() {
	for {
		for t0 := time.Now(); time.Since(t0) < 5*time.Millisecond; {
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// startInProcess runs the server in this process, over pipes.
func startInProcess() (*lspclient.Client, error) {
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	go server.Run(context.Background(), sr, sw, server.Options{Registry: engine.Registry(), Version: "bench"})
	return lspclient.New(cr, cw), nil
}

func run(start func() (*lspclient.Client, error), profile string, size, edits int) error {
	doc := bench.PacketText(7, size)
	c, err := start()
	if err != nil {
		return err
	}
	defer c.Close()
	dir, _ := os.Getwd()
	c.Trace = "verbose" // the server says where each edit's time went
	if err := c.Initialize("file://"+dir, map[string]any{"debounce": 0, "diagnostics": "push"}); err != nil {
		return err
	}
	uri := fmt.Sprintf("file:///bench/latency-%d.md", size)
	if err := c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": doc}}); err != nil {
		return err
	}
	if _, err := c.WaitPublish(uri, 1, time.Minute); err != nil {
		return err
	}
	stopLoad, err := background(c)
	if err != nil {
		return err
	}
	// Prose lines (starting with a letter) to edit: insert "x" at the start
	// of one, then delete it, so the text keeps its size and shape.
	var lines []int
	for i, l := range strings.Split(doc, "\n") {
		if l != "" && (l[0] >= 'A' && l[0] <= 'Z' || l[0] >= 'a' && l[0] <= 'z') {
			lines = append(lines, i)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	lat := make([]time.Duration, 0, edits)
	srv := make([]time.Duration, 0, edits) // as the server traces them
	var parts []phases                     // where each edit's server time went
	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	line := 0
	for v := 2; v < edits+2; v++ {
		var change map[string]any
		if v%2 == 0 {
			line = lines[r.IntN(len(lines))]
			change = map[string]any{"range": rng(line, 0, line, 0), "text": "x"}
		} else {
			change = map[string]any{"range": rng(line, 0, line, 1), "text": ""}
		}
		t0 := time.Now()
		if err := c.Notify("textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": uri, "version": v}, "contentChanges": []any{change}}); err != nil {
			return err
		}
		p, err := c.WaitPublish(uri, v, time.Minute)
		if err != nil {
			return err
		}
		lat = append(lat, p.Received.Sub(t0))
		st, verbose, err := c.ServerTrace(uri, v, time.Minute)
		if err != nil {
			return err
		}
		srv = append(srv, st)
		parts = append(parts, readPhases(st, verbose))
	}
	loadEdits := stopLoad()
	if profile != "" {
		pprof.StopCPUProfile()
		fmt.Printf("CPU profile of the %s edits (in-process server) in %s\n", human(size), profile)
	}
	slices.Sort(lat)
	tail := tailPhases(parts)
	slices.Sort(srv)
	parse, parseP99, lint := inProcess(doc)
	goal := 2*parse + time.Millisecond
	fmt.Printf("%7s document (%d bytes), %d edits; goldmark parse %v (p99 of its own %v, %.2f x the goal), in-process lint %v; goal p99 <= 2 x parse + 1 ms = %v\n",
		human(size), len(doc), len(lat), rnd(parse), rnd(parseP99), float64(parseP99)/float64(goal), rnd(lint), rnd(goal))
	if bg.open > 0 {
		fmt.Printf("          beside %d other open documents of %s", bg.open, human(bg.size))
		if bg.load {
			fmt.Printf("; background load: %d edits to them (one every %v)", loadEdits, bg.every)
			if bg.cpu {
				fmt.Printf(" and one CPU busy half the time")
			}
		}
		if c.Cmd != nil {
			if rss, hwm, err := lspclient.VmRSS(c.Cmd.Process.Pid); err == nil {
				fmt.Printf("; server VmRSS %.1f MB, VmHWM %.1f MB", float64(rss)/(1<<20), float64(hwm)/(1<<20))
			}
		}
		fmt.Println()
	}
	for _, m := range []struct {
		name string
		lat  []time.Duration
	}{{"server, change received -> diagnostics sent", srv}, {"client, change written -> diagnostics read", lat}} {
		p50, p99 := m.lat[len(m.lat)/2], m.lat[len(m.lat)*99/100]
		fmt.Printf("          %-44s p50 %v  p99 %v  max %v; p50 = %.2f x parse, p99 = %.2f x parse: %s\n", m.name+":",
			rnd(p50), rnd(p99), rnd(m.lat[len(m.lat)-1]), float64(p50)/float64(parse), float64(p99)/float64(parse), verdict(p99 <= goal))
	}
	fmt.Printf("          where the server's time went (mean ms: applying the change, waiting for the analysis to begin, the analysis, converting and sending): %s\n", tail)
	return nil
}

// phases is where one edit's server time went, from the verbose trace.
type phases struct {
	total, applied, waited, analysis, sending time.Duration
}

var durationRE = regexp.MustCompile(`[0-9.]+(?:ns|µs|us|ms|s)\b`)

// readPhases reads "applied in A; waited W more …; analysis (parse and
// rules) Z; converting and sending S".
func readPhases(total time.Duration, verbose string) phases {
	p := phases{total: total}
	var ds []time.Duration
	for _, m := range durationRE.FindAllString(verbose, -1) {
		if d, err := time.ParseDuration(m); err == nil {
			ds = append(ds, d)
		}
	}
	if len(ds) == 4 {
		p.applied, p.waited, p.analysis, p.sending = ds[0], ds[1], ds[2], ds[3]
	}
	return p
}

// tailPhases compares the slowest 1% of the edits with the middle tenth:
// the mean of each phase in each.
func tailPhases(ps []phases) string {
	s := slices.Clone(ps)
	slices.SortFunc(s, func(a, b phases) int { return int(a.total - b.total) })
	mean := func(xs []phases) string {
		var t phases
		for _, x := range xs {
			t.total += x.total
			t.applied += x.applied
			t.waited += x.waited
			t.analysis += x.analysis
			t.sending += x.sending
		}
		n := time.Duration(max(len(xs), 1))
		ms := func(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d/n)/1e6) }
		return fmt.Sprintf("total %s = %s + %s + %s + %s", ms(t.total), ms(t.applied), ms(t.waited), ms(t.analysis), ms(t.sending))
	}
	n := len(s)
	return fmt.Sprintf("middle tenth %s; slowest 1%% %s", mean(s[n*45/100:n*55/100]), mean(s[n*99/100:]))
}

func rng(l0, c0, l1, c1 int) map[string]any {
	return map[string]any{"start": map[string]any{"line": l0, "character": c0}, "end": map[string]any{"line": l1, "character": c1}}
}

// inProcess returns the median goldmark parse time of doc, the 99th
// percentile of those parses (the floor's own tail on this machine), and
// the median time of baton's whole analysis of it.
func inProcess(doc string) (parse, parseP99, lint time.Duration) {
	md := goldmark.New()
	reg := engine.Registry()
	const n = 200
	ps, ls := make([]time.Duration, n), make([]time.Duration, n)
	for i := range n {
		t0 := time.Now()
		md.Parser().Parse(text.NewReader([]byte(doc)))
		t1 := time.Now()
		reg.Analyze(markdown.Parse("d.md", doc), nil)
		ps[i], ls[i] = t1.Sub(t0), time.Since(t1)
	}
	slices.Sort(ps)
	slices.Sort(ls)
	return ps[n/2], ps[n*99/100], ls[n/2]
}

func human(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d KB", n>>10)
}

func rnd(d time.Duration) time.Duration { return d.Round(time.Microsecond) }

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "missed"
}
