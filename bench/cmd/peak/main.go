// Command peak measures the peak resident memory of baton on one large
// document of stop packets, in each entry point that takes one — `check`,
// `check --fix`, the Claude Code stop hook and the MCP server's
// check_document — beside goldmark's own parse of the same document
// (bench/cmd/floor), and prints each figure and its ratio to goldmark's.
// The peak is the process's (getrusage's ru_maxrss), so a figure counts
// everything the process holds: the binary's mapped pages, the runtime
// and the collector's headroom, as a user's machine sees them.
//
//	go build -o bin/baton ./cmd/baton && go build -o bin/floor ./bench/cmd/floor
//	go run ./bench/cmd/peak -baton bin/baton -floor bin/floor -size 16000000
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/baton-md/baton/bench"
)

func main() {
	bin := flag.String("baton", "bin/baton", "the baton binary")
	floor := flag.String("floor", "bin/floor", "the goldmark parse floor (go build ./bench/cmd/floor)")
	size := flag.Int("size", 16_000_000, "bytes of stop packets in the document")
	flag.Parse()
	if err := run(*bin, *floor, *size); err != nil {
		fmt.Fprintln(os.Stderr, "peak:", err)
		os.Exit(1)
	}
}

func run(bin, floor string, size int) error {
	dir, err := os.MkdirTemp("", "baton-peak-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var doc strings.Builder
	for seed := uint64(1); doc.Len() < size; seed++ {
		doc.WriteString(bench.PacketText(seed, 8<<10))
		doc.WriteString("\n")
	}
	text := doc.String()[:size]
	path := filepath.Join(dir, "packets.md")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return err
	}
	fixPath := filepath.Join(dir, "fix.md")
	if err := os.WriteFile(fixPath, []byte(text), 0o644); err != nil {
		return err
	}
	hookIn, err := json.Marshal(map[string]any{"session_id": "peak", "cwd": dir, "hook_event_name": "Stop", "last_assistant_message": text})
	if err != nil {
		return err
	}
	mcpIn := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"peak","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"check_document","arguments":{"path":%q}}}`+"\n", path)
	state := filepath.Join(dir, "state")
	cases := []struct {
		name  string
		args  []string
		stdin []byte
		until string // keep standard input open until standard output holds this
	}{
		{"goldmark parse (the floor)", []string{floor, path}, nil, ""},
		{"baton check", []string{bin, "check", path}, nil, ""},
		{"baton check --fix", []string{bin, "check", "--fix", fixPath}, nil, ""},
		{"baton hook claude-stop --lint", []string{bin, "hook", "claude-stop", "--lint", "--state-dir", state}, hookIn, ""},
		{"baton mcp: check_document", []string{bin, "mcp", "--root", dir}, []byte(mcpIn), `"id":1,`},
	}
	fmt.Printf("one document of stop packets, %d bytes\n", size)
	fmt.Printf("%-32s %9s %10s %8s\n", "", "peak MiB", "× floor", "wall s")
	var base float64
	for _, c := range cases {
		rss, wall, err := measure(c.args, c.stdin, c.until, dir)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		mib := float64(rss) / (1 << 20)
		if base == 0 {
			base = mib
		}
		fmt.Printf("%-32s %9.1f %10.2f %8.2f\n", c.name, mib, mib/base, wall.Seconds())
	}
	return nil
}

// measure runs args and returns its peak RSS in bytes and its wall time.
// A nonzero exit is baton reporting findings, not a failure. With until,
// standard input stays open until standard output holds it (a server
// answers, then ends at the end of its input).
func measure(args []string, stdin []byte, until, dir string) (int64, time.Duration, error) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CLIO_CODER_STATE_DIR="+filepath.Join(dir, "clio"), "XDG_STATE_HOME="+filepath.Join(dir, "xdg"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	var in io.WriteCloser
	var out io.Reader
	var err error
	if until != "" {
		if in, err = cmd.StdinPipe(); err != nil {
			return 0, 0, err
		}
		if out, err = cmd.StdoutPipe(); err != nil {
			return 0, 0, err
		}
	} else if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	if until != "" {
		if _, err := in.Write(stdin); err != nil {
			return 0, 0, err
		}
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<30)
		answered := false
		for sc.Scan() {
			if strings.Contains(sc.Text(), until) {
				answered = true
				break
			}
		}
		in.Close()
		_, _ = io.Copy(io.Discard, out)
		if !answered {
			return 0, 0, fmt.Errorf("no answer holding %s (stderr: %.300s)", until, stderr.String())
		}
	}
	err = cmd.Wait()
	wall := time.Since(start)
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		return 0, 0, err
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, 0, fmt.Errorf("no resource usage on this platform")
	}
	return ru.Maxrss << 10, wall, nil // kilobytes on Linux
}
