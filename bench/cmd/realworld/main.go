// Command realworld runs baton over real repositories given by path and
// prints, for each, how many files it read as each kind and how many
// findings each rule made at each severity: the figures docs/precision.md
// reads. The trees are not part of the project, so this stays out of
// `make test` (`make realworld TREES="…"`).
//
//	go run ./bench/cmd/realworld -baton bin/baton [-list] [-hidden] TREE…
//
// -list prints every error and warning (path:line:column: severity rule:
// message) under its tree, for reading one by one. -hidden also checks the
// hidden folders at the top of each tree (.specrew, .claude, .github …),
// which a folder walk skips.
package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

type report struct {
	Files []struct {
		Path     string `json:"path"`
		Kind     string `json:"kind"`
		Findings []struct {
			Rule     string `json:"rule"`
			Severity string `json:"severity"`
			Message  string `json:"message"`
			Start    struct {
				Line   int `json:"line"`
				Column int `json:"column"`
			} `json:"start"`
		} `json:"findings"`
	} `json:"files"`
}

var severities = []string{"error", "warning", "info", "hint"}

func main() {
	baton := flag.String("baton", "bin/baton", "the baton binary")
	list := flag.Bool("list", false, "print every error and warning finding")
	hidden := flag.Bool("hidden", false, "also check the hidden folders at the top of each tree")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: realworld [-baton BIN] [-list] [-hidden] TREE…")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	failed := false
	for _, tree := range flag.Args() {
		if err := run(os.Stdout, *baton, tree, *list, *hidden); err != nil {
			fmt.Fprintf(os.Stderr, "realworld: %s: %v\n", tree, err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

func run(w io.Writer, baton, tree string, list, hidden bool) error {
	args := []string{"check", "--format", "json", "."}
	if hidden {
		entries, err := os.ReadDir(tree)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.IsDir() && strings.HasPrefix(e.Name(), ".") && e.Name() != ".git" {
				args = append(args, e.Name())
			}
		}
	}
	bin, err := filepath.Abs(baton)
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = tree // the paths printed are relative to the tree
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() > 1) {
		return fmt.Errorf("baton check: %v\n%s", err, stderr.Bytes())
	}
	var r report
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return fmt.Errorf("read baton's JSON: %v", err)
	}
	kinds := map[string]int{}
	counts := map[string]map[string]int{}
	total := map[string]int{}
	var lines []string
	for _, f := range r.Files {
		kinds[f.Kind]++
		for _, x := range f.Findings {
			if counts[x.Rule] == nil {
				counts[x.Rule] = map[string]int{}
			}
			counts[x.Rule][x.Severity]++
			total[x.Severity]++
			if list && (x.Severity == "error" || x.Severity == "warning") {
				lines = append(lines, fmt.Sprintf("  %s:%d:%d: %s %s: %s", f.Path, x.Start.Line, x.Start.Column, x.Severity, x.Rule, x.Message))
			}
		}
	}
	fmt.Fprintf(w, "== %s: %d files (", tree, len(r.Files))
	for i, k := range slices.Sorted(mapsKeys(kinds)) {
		if i > 0 {
			fmt.Fprint(w, ", ")
		}
		fmt.Fprintf(w, "%s %d", k, kinds[k])
	}
	fmt.Fprintf(w, "); %d errors, %d warnings, %d infos, %d hints\n", total["error"], total["warning"], total["info"], total["hint"])
	rules := slices.SortedFunc(mapsKeys(counts), func(a, b string) int {
		return cmp.Or(counts[b]["error"]-counts[a]["error"], counts[b]["warning"]-counts[a]["warning"], strings.Compare(a, b))
	})
	if len(rules) > 0 {
		fmt.Fprintf(w, "  %-40s %7s %7s %7s %7s\n", "rule", "error", "warning", "info", "hint")
	}
	for _, id := range rules {
		fmt.Fprintf(w, "  %-40s", id)
		for _, s := range severities {
			fmt.Fprintf(w, " %7d", counts[id][s])
		}
		fmt.Fprintln(w)
	}
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	if s := strings.TrimSpace(stderr.String()); s != "" {
		fmt.Fprintf(w, "  baton's standard error:\n    %s\n", strings.ReplaceAll(s, "\n", "\n    "))
	}
	return nil
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
