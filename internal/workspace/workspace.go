// Package workspace finds the folder a document's workflow components
// resolve against, and gives the workflow analyzer a read-only view of it
// in which documents open in an editor replace their saved copies.
package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing/fstest"
)

// Root is the folder above a document that components resolve against:
// the nearest folder holding .git or .baton.yaml, else the document's own.
func Root(docPath string) string {
	dir := filepath.Dir(docPath)
	for d := dir; ; {
		for _, marker := range []string{".git", ".baton.yaml"} {
			if _, err := os.Stat(filepath.Join(d, marker)); err == nil {
				return d
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// FS is root on disk, with overlay's texts (by slash path relative to
// root) in place of the files they name.
func FS(root string, overlay map[string]string) fs.FS {
	if len(overlay) == 0 {
		return os.DirFS(root)
	}
	m := fstest.MapFS{}
	for p, text := range overlay {
		m[p] = &fstest.MapFile{Data: []byte(text), Mode: 0o444}
	}
	return overlayFS{m: m, disk: os.DirFS(root)}
}

type overlayFS struct {
	m    fstest.MapFS
	disk fs.FS
}

func (o overlayFS) Open(name string) (fs.File, error) {
	if _, ok := o.m[name]; ok {
		return o.m.Open(name)
	}
	return o.disk.Open(name)
}

// Rel is docPath's slash path inside root.
func Rel(root, docPath string) string {
	rel, err := filepath.Rel(root, docPath)
	if err != nil {
		return filepath.ToSlash(filepath.Base(docPath))
	}
	return filepath.ToSlash(rel)
}
