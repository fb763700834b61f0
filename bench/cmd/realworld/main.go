// Command realworld runs baton over real repositories given by path and
// prints, for each, how many files it read as each kind and how many
// findings each rule made at each severity: the figures docs/precision.md
// reads. The trees are not part of the project, so this stays out of
// `make test` (`make realworld TREES="…"`).
//
//	go run ./bench/cmd/realworld -baton bin/baton [-list] [-hidden] TREE…
//
// -list prints every error and warning (path:line:column: severity rule:
// message) under its tree, for reading one by one: the loud findings. -hidden
// also checks the hidden folders at the top of each tree (.specrew, an agent
// host's, .github …), which a folder walk skips. -table ends with one Markdown
// table of every tree (files, kinds, findings by severity), as
// docs/precision.md shows it. A file of trees, one path a line (# starts a
// comment), is given with -trees.
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
	table := flag.Bool("table", false, "end with a Markdown table of every tree")
	treesFile := flag.String("trees", "", "a file listing the trees, one path a line")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: realworld [-baton BIN] [-list] [-hidden] [-table] [-trees FILE] TREE…")
		flag.PrintDefaults()
	}
	flag.Parse()
	trees := flag.Args()
	if *treesFile != "" {
		data, err := os.ReadFile(*treesFile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "realworld: %v\n", err)
			os.Exit(2)
		}
		for _, l := range strings.Split(string(data), "\n") {
			if l, _, _ = strings.Cut(l, "#"); strings.TrimSpace(l) != "" {
				trees = append(trees, strings.TrimSpace(l))
			}
		}
	}
	if len(trees) == 0 {
		flag.Usage()
		os.Exit(2)
	}
	failed := false
	var rows []row
	for _, tree := range trees {
		r, err := run(os.Stdout, *baton, tree, *list, *hidden)
		if err != nil {
			fmt.Fprintf(os.Stderr, "realworld: %s: %v\n", tree, err)
			failed = true
			continue
		}
		rows = append(rows, r)
	}
	if *table {
		fmt.Println()
		fmt.Println("| tree | files | kinds | errors | warnings | infos | hints |")
		fmt.Println("|---|---:|---|---:|---:|---:|---:|")
		for _, r := range rows {
			fmt.Printf("| %s | %d | %s | %d | %d | %d | %d |\n", filepath.Base(r.tree), r.files, r.kinds, r.total["error"], r.total["warning"], r.total["info"], r.total["hint"])
		}
	}
	if failed {
		os.Exit(1)
	}
}

// row is one tree's figures, for -table.
type row struct {
	tree, kinds string
	files       int
	total       map[string]int
}

func run(w io.Writer, baton, tree string, list, hidden bool) (row, error) {
	args := []string{"check", "--format", "json", "."}
	if hidden {
		entries, err := os.ReadDir(tree)
		if err != nil {
			return row{}, err
		}
		for _, e := range entries {
			if e.IsDir() && strings.HasPrefix(e.Name(), ".") && e.Name() != ".git" {
				args = append(args, e.Name())
			}
		}
	}
	bin, err := filepath.Abs(baton)
	if err != nil {
		return row{}, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = tree // the paths printed are relative to the tree
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() > 1) {
		return row{}, fmt.Errorf("baton check: %v\n%s", err, stderr.Bytes())
	}
	var r report
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return row{}, fmt.Errorf("read baton's JSON: %v", err)
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
	var kindList []string
	for _, k := range slices.Sorted(mapsKeys(kinds)) {
		kindList = append(kindList, fmt.Sprintf("%s %d", k, kinds[k]))
	}
	fmt.Fprintf(w, "== %s: %d files (%s", tree, len(r.Files), strings.Join(kindList, ", "))
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
	return row{tree: tree, kinds: strings.Join(kindList, ", "), files: len(r.Files), total: total}, nil
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
