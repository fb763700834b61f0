package workflow

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestMayDeclareBundle: only a file whose front matter names components
// (or holds an escape that could spell it) is read in full as a possible
// bundle root; a closing line is judged whole, however the file is read.
func TestMayDeclareBundle(t *testing.T) {
	long := strings.Repeat("x: 1\n", 2000) // front matter past the first reads
	fsys := fstest.MapFS{
		"root.md":      {Data: []byte("---\nworkflow:\n  components:\n    A: a.md\n---\nbody\n")},
		"crlf.md":      {Data: []byte("---\r\nworkflow:\r\n  components: {A: a.md}\r\n---\r\n")},
		"long.md":      {Data: []byte("---\n" + long + "workflow: {components: {A: a.md}}\n---\n")},
		"escaped.md":   {Data: []byte("---\nworkflow: {\"c\\u006fmponents\": {A: a.md}}\n---\n")},
		"props.md":     {Data: []byte("---\nprops:\n  x: {type: string}\n---\n<Prompt>components</Prompt>\n")},
		"plain.md":     {Data: []byte("# components\n")},
		"unclosed.md":  {Data: []byte("---\nworkflow: {components: {A: a.md}}\n")},
		"bodyonly.md":  {Data: []byte("---\n---\nworkflow: {components: {A: a.md}}\n")},
		"longplain.md": {Data: []byte("---\n" + long + "---\n")},
	}
	want := map[string]bool{"root.md": true, "crlf.md": true, "long.md": true, "escaped.md": true}
	for name := range fsys {
		if got := mayDeclareBundle(fsys, name); got != want[name] {
			t.Errorf("mayDeclareBundle(%s) = %v, want %v", name, got, want[name])
		}
	}
	if mayDeclareBundle(fsys, "missing.md") {
		t.Error("a missing file may declare a bundle")
	}
	// Every file the pre-check passes over parses without a bundle.
	for name, f := range fsys {
		if !want[name] && len(Parse(string(f.Data)).Bundle) > 0 {
			t.Errorf("%s declares a bundle, but the pre-check skips it", name)
		}
	}
}

// TestDirsRemembers: a Dirs lists a folder once; nil lists it every time.
func TestDirsRemembers(t *testing.T) {
	fsys := fstest.MapFS{
		"w/root.md": {Data: []byte("---\nworkflow:\n  components:\n    A: a.md\n---\n")},
		"w/a.md":    {Data: []byte("---\nprops: {}\n---\n")},
	}
	d := NewDirs()
	if got := d.roots(fsys, "w"); len(got) != 1 || got[0] != "w/root.md" {
		t.Fatalf("roots = %v, want [w/root.md]", got)
	}
	delete(fsys, "w/root.md")
	if got := d.roots(fsys, "w"); len(got) != 1 {
		t.Errorf("a remembered folder was listed again: %v", got)
	}
	var none *Dirs
	if got := none.roots(fsys, "w"); len(got) != 0 {
		t.Errorf("nil Dirs remembered %v", got)
	}
}
