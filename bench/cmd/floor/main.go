// Command floor reads and parses every *.md file below the folders given
// with goldmark alone (its defaults), on as many workers as baton check
// uses: the floor for a goldmark linter, against which the whole
// `baton check` process is measured (docs/performance.md).
//
//	go run ./bench/cmd/floor FOLDER…
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/text"
)

func main() {
	var files []string
	for _, root := range os.Args[1:] {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".md") {
				files = append(files, p)
			}
			return nil
		})
	}
	start := time.Now()
	md := goldmark.New()
	var next, bytes atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(files); i = int(next.Add(1) - 1) {
				src, err := os.ReadFile(files[i])
				if err != nil {
					continue
				}
				bytes.Add(int64(len(src)))
				md.Parser().Parse(text.NewReader(src))
			}
		})
	}
	wg.Wait()
	fmt.Printf("%d files, %d KB, parsed in %.2f s on %d workers\n", len(files), bytes.Load()>>10, time.Since(start).Seconds(), runtime.GOMAXPROCS(0))
}
