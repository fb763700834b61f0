// Command compare times linters on the same files, paired and alternating:
// each round runs every tool once, in an order that rotates from round to
// round, and each tool's wall time and peak RSS are divided by baton's in
// the same round. It prints, per tool, the median of its times and RSS and
// the medians of the per-round ratios: the load of a shared machine moves
// a whole round, not one tool's best run.
//
//	go run ./bench/cmd/compare -runs 5 -dir DIR \
//	    -tool 'baton=bin/baton check DIR' -tool 'floor=/tmp/floor DIR' ...
//
// Every -tool is NAME=COMMAND (split on spaces; "{}" or DIR stands for
// -dir, and FILES for every path listed in -files, one argument each: the
// same files for every tool, where their walks of DIR would differ). The first tool is the one the ratios are taken against. Each tool
// runs once, untimed, before the rounds: the file system cache is warm for
// all, and a tool with a result cache (a NAME ending in "*", marked so in
// the report) is timed with it warm. Exit statuses are ignored: every
// linter exits non-zero on the bad files.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

type tool struct {
	name string
	argv []string
	warm bool // keeps a result cache, warm from the untimed first run

	wall []float64 // seconds, one a round
	rss  []float64 // MiB, one a round
}

type tools []*tool

func (t *tools) String() string { return "" }
func (t *tools) Set(v string) error {
	name, cmd, ok := strings.Cut(v, "=")
	if !ok || name == "" || strings.TrimSpace(cmd) == "" {
		return fmt.Errorf("want NAME=COMMAND, got %q", v)
	}
	tl := &tool{name: name, argv: strings.Fields(cmd)}
	if strings.HasSuffix(name, "*") {
		tl.name, tl.warm = strings.TrimSuffix(name, "*"), true
	}
	*t = append(*t, tl)
	return nil
}

func main() {
	var ts tools
	flag.Var(&ts, "tool", "NAME=COMMAND; repeat; the first is the reference")
	dir := flag.String("dir", "", "the folder the tools run on (DIR and {} in a command)")
	runs := flag.Int("runs", 5, "rounds")
	label := flag.String("label", "", "what the files are, for the report")
	list := flag.String("files", "", "a file of paths, one a line: FILES in a command")
	flag.Parse()
	var files []string
	if *list != "" {
		data, err := os.ReadFile(*list)
		if err != nil {
			fmt.Fprintln(os.Stderr, "compare:", err)
			os.Exit(2)
		}
		files = strings.Fields(string(data))
	}
	if len(ts) < 2 || *dir == "" || *runs < 1 {
		fmt.Fprintln(os.Stderr, "usage: compare -dir DIR -runs N -tool NAME=COMMAND -tool NAME=COMMAND…")
		os.Exit(2)
	}
	for _, t := range ts {
		var argv []string
		for _, a := range t.argv {
			if a == "FILES" {
				argv = append(argv, files...)
				continue
			}
			argv = append(argv, strings.ReplaceAll(strings.ReplaceAll(a, "{}", *dir), "DIR", *dir))
		}
		t.argv = argv
		// Warm-up: the file system cache, and a caching tool's cache.
		if _, _, err := runOnce(t.argv); err != nil {
			fmt.Fprintf(os.Stderr, "compare: %s: %v\n", t.name, err)
			os.Exit(1)
		}
	}
	for r := range *runs {
		for k := range ts {
			t := ts[(r+k)%len(ts)]
			wall, rss, _ := runOnce(t.argv)
			t.wall, t.rss = append(t.wall, wall), append(t.rss, rss)
		}
	}
	ref := ts[0]
	if *label != "" {
		fmt.Printf("%s; ", *label)
	}
	fmt.Printf("%d rounds, paired and alternating; medians\n", *runs)
	fmt.Printf("%-30s %8s %9s  %-20s %-20s %s\n", "tool", "wall s", "peak MiB", "wall: tool/"+ref.name, "wall: "+ref.name+"/tool", "RSS: tool/"+ref.name)
	for _, t := range ts {
		name := t.name
		if t.warm {
			name += " (warm cache)"
		}
		wr, inv, rr := make([]float64, *runs), make([]float64, *runs), make([]float64, *runs)
		for i := range *runs {
			wr[i], inv[i], rr[i] = t.wall[i]/ref.wall[i], ref.wall[i]/t.wall[i], t.rss[i]/ref.rss[i]
		}
		span := func(xs []float64) string {
			return fmt.Sprintf("%.2f (%.2f-%.2f)", median(xs), slices.Min(xs), slices.Max(xs))
		}
		fmt.Printf("%-30s %8.3f %9.1f  %-20s %-20s %.2f\n", name, median(t.wall), median(t.rss), span(wr), span(inv), median(rr))
	}
}

// runOnce runs argv with its output discarded and returns its wall time in
// seconds and its peak resident set (the child's, from wait4) in MiB.
func runOnce(argv []string) (wall, rss float64, err error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	start := time.Now()
	err = cmd.Start()
	if err != nil {
		return 0, 0, err
	}
	err = cmd.Wait()
	wall = time.Since(start).Seconds()
	if _, ok := err.(*exec.ExitError); ok {
		err = nil // linters exit non-zero on findings
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	return wall, rss, err
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}
