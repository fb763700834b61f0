package reliability

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// directReads are the places outside internal/safefile that open or read a
// file's contents themselves, by file and function, and why each may.
// Anything else that does fails TestEveryReadGoesThroughSafefile: a read
// that is not of a regular file, or not bounded, hangs on a named pipe
// and never ends on /dev/zero.
var directReads = map[string]string{
	"internal/workspace/workspace.go lazyFS.Open":        "the workspace's fs.FS itself; its files are read through safefile.OpenFS",
	"internal/workspace/workspace.go lazyFS.ReadFile":    "the workspace's fs.FS itself; its files are read through safefile.ReadFileFS",
	"internal/workspace/workspace.go overlayFS.Open":     "the workspace's fs.FS itself",
	"internal/workspace/workspace.go overlayFS.ReadFile": "the workspace's fs.FS itself",
	"check/globargs.go glob":                             "lists the folders of a pattern the user typed on the command line (os.DirFS), as the shell would; reads no file's contents",
	"check/fix.go syncDir":                               "opens the folder of the file --fix just wrote, to flush the rename; reads nothing",
	"internal/hostsettings/record.go writeChecked":       "opens the folder of the settings file (or install record) it just wrote, to flush the rename; reads nothing",
}

// TestEveryReadGoesThroughSafefile walks the module's code (not its tests,
// benchmarks or scripts, which read their own inputs) for calls that open
// or read a file: os.Open, os.ReadFile, os.OpenFile for reading without
// safefile.NonBlock, fs.ReadFile, and the Open, OpenFile and ReadFile
// methods of a file system (an fs.FS, an os.Root).
func TestEveryReadGoesThroughSafefile(t *testing.T) {
	root := ".."
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		rel := filepath.ToSlash(p[len(root)+1:])
		if d.IsDir() {
			switch rel {
			case "bench", "scripts", "internal/safefile", "editors", "e2e", "reliability":
				return filepath.SkipDir
			}
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		for _, where := range directReadsIn(t, p, rel) {
			seen[where] = true
			if _, ok := directReads[where]; !ok {
				t.Errorf("%s opens or reads a file itself: read it through internal/safefile (Open, ReadFile, OpenFS, ReadFileFS), or list it in directReads with why it may", where)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for where := range directReads {
		if !seen[where] {
			t.Errorf("directReads lists %s, which reads no file itself any more: take it out", where)
		}
	}
}

// directReadsIn lists, as "FILE FUNCTION", the functions of one file that
// open or read a file themselves.
func directReadsIn(t *testing.T, path, rel string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string]string{} // local name → import path
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = p
	}
	var out []string
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		name := fn.Name.Name
		if fn.Recv != nil && len(fn.Recv.List) == 1 {
			typ := fn.Recv.List[0].Type
			if s, ok := typ.(*ast.StarExpr); ok {
				typ = s.X
			}
			if id, ok := typ.(*ast.Ident); ok {
				name = id.Name + "." + name
			}
		}
		found := false
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && readsAFile(call, imports) {
				found = true
			}
			return !found
		})
		if found {
			out = append(out, rel+" "+name)
		}
	}
	return out
}

func readsAFile(call *ast.CallExpr, imports map[string]string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	method := sel.Sel.Name
	if x, ok := sel.X.(*ast.Ident); ok {
		switch imports[x.Name] {
		case "os":
			switch method {
			case "Open", "ReadFile", "DirFS": // os.DirFS follows links out of its folder: safefile.DirFS
				return true
			case "OpenFile":
				return len(call.Args) == 3 && readOnly(call.Args[1], imports)
			}
			return false
		case "io/fs", "io/ioutil":
			return method == "ReadFile"
		case "":
		default:
			return false // another package's function
		}
	}
	// A method: a file system's Open(name), ReadFile(name), OpenFile.
	switch method {
	case "Open", "ReadFile":
		return len(call.Args) == 1
	case "OpenFile":
		return len(call.Args) == 3 && readOnly(call.Args[1], imports)
	}
	return false
}

// readOnly reports whether open flags read without safefile.NonBlock:
// a file opened to write is baton's own; one opened non-blocking is
// checked for its kind by the caller, as safefile does.
func readOnly(flags ast.Expr, imports map[string]string) bool {
	var names []string
	ast.Inspect(flags, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok {
				names = append(names, imports[x.Name]+"."+sel.Sel.Name)
			}
		}
		return true
	})
	for _, w := range []string{"os.O_WRONLY", "os.O_RDWR", "os.O_CREATE", "os.O_APPEND", "github.com/baton-md/baton/internal/safefile.NonBlock"} {
		if slices.Contains(names, w) {
			return false
		}
	}
	return true
}
