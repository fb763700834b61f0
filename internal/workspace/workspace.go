// Package workspace finds the folder a document's workflow components
// resolve against, and gives the workflow analyzer a read-only view of it
// in which documents open in an editor replace their saved copies.
package workspace

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/baton-md/baton/internal/safefile"
)

// Root is the folder above a document that components resolve against:
// the nearest folder holding .git or .baton.yaml, else the document's own.
func Root(docPath string) string {
	dir := filepath.Dir(docPath)
	for d := dir; ; {
		if Marked(d) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// Marked reports whether dir holds what makes a folder a root (.git or
// .baton.yaml).
func Marked(dir string) bool {
	for _, marker := range []string{".git", ".baton.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
			return true
		}
	}
	return false
}

// RootFor is the root of a document whose configuration file, in folder
// configDir, names component folders: they are relative to that folder,
// which stands for the folder the engine runs in, so it is the root of the
// documents inside it. Otherwise (configDir "", or the document outside
// it) it is Root.
func RootFor(docPath, configDir string) string {
	if configDir != "" {
		if _, ok := Inside(configDir, docPath); ok {
			return configDir
		}
	}
	return Root(docPath)
}

// FS is root on disk, with overlay's texts (by slash path relative to
// root) in place of the files they name. The texts are served as they are,
// not copied: an editor's open documents may be large, and the view is made
// for every analysis. Folders are listed from disk.
func FS(root string, overlay map[string]string) fs.FS {
	if len(overlay) == 0 {
		return safefile.DirFS(root)
	}
	return overlayFS{m: overlay, disk: safefile.DirFS(root)}
}

// LazyFS is FS with the overlay made by overlay() when the view is first
// read, if ever: only a workflow's analysis reads the workspace, and an
// editor holding 1,000 open documents took a fifth of a millisecond to
// list them for every other document's analysis too.
func LazyFS(root string, overlay func() map[string]string) fs.FS {
	return &lazyFS{root: root, make: overlay}
}

type lazyFS struct {
	root string
	make func() map[string]string
	once sync.Once
	fs   overlayFS
}

func (l *lazyFS) view() overlayFS {
	l.once.Do(func() { l.fs = overlayFS{m: l.make(), disk: safefile.DirFS(l.root)} })
	return l.fs
}

func (l *lazyFS) OpensWithoutBlocking() bool                 { return true } // as overlayFS
func (l *lazyFS) InMemory(name string) bool                  { return l.view().InMemory(name) }
func (l *lazyFS) Open(name string) (fs.File, error)          { return l.view().Open(name) }
func (l *lazyFS) Stat(name string) (fs.FileInfo, error)      { return l.view().Stat(name) }
func (l *lazyFS) ReadFile(name string) ([]byte, error)       { return l.view().ReadFile(name) }
func (l *lazyFS) ReadDir(name string) ([]fs.DirEntry, error) { return l.view().ReadDir(name) }

type overlayFS struct {
	m    map[string]string
	disk fs.FS
}

// InMemory reports whether name is served from the overlay.
func (o overlayFS) InMemory(name string) bool {
	_, ok := o.m[name]
	return ok
}

// OpensWithoutBlocking: texts in memory, and the disk's DirFS.
func (o overlayFS) OpensWithoutBlocking() bool {
	nb, ok := o.disk.(safefile.NonBlockingFS)
	return ok && nb.OpensWithoutBlocking()
}

func (o overlayFS) Open(name string) (fs.File, error) {
	if text, ok := o.m[name]; ok {
		return &memFile{Reader: strings.NewReader(text), info: memInfo{name: path.Base(name), size: int64(len(text))}}, nil
	}
	return o.disk.Open(name)
}

func (o overlayFS) Stat(name string) (fs.FileInfo, error) {
	if text, ok := o.m[name]; ok {
		return memInfo{name: path.Base(name), size: int64(len(text))}, nil
	}
	return fs.Stat(o.disk, name)
}

func (o overlayFS) ReadFile(name string) ([]byte, error) {
	if text, ok := o.m[name]; ok {
		return []byte(text), nil
	}
	return fs.ReadFile(o.disk, name)
}

func (o overlayFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(o.disk, name) }

// memFile is an overlay text opened for reading.
type memFile struct {
	*strings.Reader
	info memInfo
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }

// memInfo describes an overlay text: a read-only file of its length, with
// no modification time (it changes with each edit, not with time).
type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }

// Inside is the slash path of p inside root, and whether p is inside it
// (root itself is not). It is Rel without its cost for the paths that are not.
func Inside(root, p string) (string, bool) {
	if len(p) <= len(root) || p[:len(root)] != root {
		return "", false
	}
	rest := p[len(root):]
	if !os.IsPathSeparator(rest[0]) {
		if !os.IsPathSeparator(root[len(root)-1]) { // root "/" or "C:\\"
			return "", false
		}
	} else {
		rest = rest[1:]
	}
	rel := filepath.ToSlash(filepath.Clean(rest))
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return rel, true
}

// Rel is docPath's slash path inside root.
func Rel(root, docPath string) string {
	rel, err := filepath.Rel(root, docPath)
	if err != nil {
		return filepath.ToSlash(filepath.Base(docPath))
	}
	return filepath.ToSlash(rel)
}
