// Command memory measures the resident memory of `baton serve` holding
// -n open documents of about 5 KB: it runs the real binary over stdio with
// debounce 0, opens the documents (stop packets, each different), waits
// for every one's diagnostics, waits -settle for the runtime to return
// freed memory, and reads the server's VmRSS and VmHWM (peak) from
// /proc/PID/status. The goal is VmRSS <= 1.5 x the open text + 15 MB.
//
//	go build -o bin/baton ./cmd/baton && go run ./bench/cmd/memory -baton bin/baton
//
// With -heapprofile FILE it runs the server in-process instead (server.Run
// over pipes, the registry the binary uses), and writes a heap profile
// after a GC, to see what the server holds per document.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/baton-md/baton/bench"
	"github.com/baton-md/baton/bench/internal/lspclient"
	"github.com/baton-md/baton/engine"
	"github.com/baton-md/baton/server"
)

func main() {
	bin := flag.String("baton", "bin/baton", "the baton binary")
	n := flag.Int("n", 1000, "documents to open")
	size := flag.Int("size", 5<<10, "bytes per document")
	settle := flag.Duration("settle", 2*time.Second, "how long to wait after the last diagnostics before reading VmRSS")
	heap := flag.String("heapprofile", "", "run the server in-process and write a heap profile here")
	flag.Parse()
	if *heap != "" {
		if err := inProcess(*heap, *n, *size); err != nil {
			fmt.Fprintln(os.Stderr, "memory:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*bin, *n, *size, *settle); err != nil {
		fmt.Fprintln(os.Stderr, "memory:", err)
		os.Exit(1)
	}
}

func run(bin string, n, size int, settle time.Duration) error {
	c, err := lspclient.Start(bin, "serve")
	if err != nil {
		return err
	}
	defer c.Close()
	dir, _ := os.Getwd()
	if err := c.Initialize("file://"+dir, map[string]any{"debounce": 0, "diagnostics": "push"}); err != nil {
		return err
	}
	pid := c.Cmd.Process.Pid
	rss0, _, err := lspclient.VmRSS(pid)
	if err != nil {
		return err
	}
	total, err := openAll(c, n, size)
	if err != nil {
		return err
	}
	time.Sleep(settle)
	rss, hwm, err := lspclient.VmRSS(pid)
	if err != nil {
		return err
	}
	// The goal: at most 1.5 times the open text, plus 15 MB.
	goal := int64(total)*3/2 + 15<<20
	verdict := "met"
	if rss > goal {
		verdict = "missed"
	}
	fmt.Printf("baton serve, idle after initialize: VmRSS %.1f MB\n", mb(rss0))
	fmt.Printf("%d open documents (%.1f MB of text, %d bytes each on average), every one analysed: VmRSS %.1f MB, VmHWM (peak) %.1f MB; goal VmRSS <= 1.5 x text + 15 MB = %.1f MB: %s\n",
		n, mb(int64(total)), total/n, mb(rss), mb(hwm), mb(goal), verdict)
	return nil
}

func inProcess(profile string, n, size int) error {
	runtime.MemProfileRate = 4096 // a fine profile: what each document holds is a few KB
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	go server.Run(context.Background(), sr, sw, server.Options{Registry: engine.Registry(), Version: "bench"})
	c := lspclient.New(cr, cw)
	dir, _ := os.Getwd()
	if err := c.Initialize("file://"+dir, map[string]any{"debounce": 0, "diagnostics": "push"}); err != nil {
		return err
	}
	if _, err := openAll(c, n, size); err != nil {
		return err
	}
	time.Sleep(time.Second)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	f, err := os.Create(profile)
	if err != nil {
		return err
	}
	defer f.Close()
	fmt.Printf("in-process server, %d open documents: live heap %.1f MB after GC; heap profile in %s\n", n, mb(int64(ms.HeapAlloc)), profile)
	return pprof.Lookup("heap").WriteTo(f, 0)
}

// openAll opens n documents of about size bytes and waits for every one's
// diagnostics; it returns the bytes of text opened.
func openAll(c *lspclient.Client, n, size int) (int, error) {
	var total int
	for i := range n {
		doc := bench.PacketText(uint64(i+1), size)
		total += len(doc)
		uri := fmt.Sprintf("file:///bench/memory/doc%04d.md", i)
		if err := c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": doc}}); err != nil {
			return 0, err
		}
	}
	seen := map[string]bool{}
	deadline := time.After(5 * time.Minute)
	for len(seen) < n {
		select {
		case p := <-c.Publishes:
			if p.Version == 1 {
				seen[p.URI] = true
			}
		case <-deadline:
			return 0, fmt.Errorf("diagnostics for %d of %d documents after 5 minutes", len(seen), n)
		}
	}
	return total, nil
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }
