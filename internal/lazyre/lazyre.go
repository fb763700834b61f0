// Package lazyre is a regular expression compiled when it is first used,
// not when the program starts: baton's rules hold some 250 patterns, and
// compiling them all before the first file is read was a third of the
// start of every run (most runs use few of them: a tree of documentation
// pages uses none of the packet rules' patterns).
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regexp.Regexp compiled on first use. Its methods are those of
// regexp.Regexp that baton calls. Safe for concurrent use.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

var all struct {
	sync.Mutex
	list []*Regexp
}

// New returns the pattern expr, compiled when first used; an invalid
// pattern panics then, as regexp.MustCompile would (CompileAll finds one
// in a test).
func New(expr string) *Regexp {
	r := &Regexp{expr: expr}
	all.Lock()
	all.list = append(all.list, r)
	all.Unlock()
	return r
}

// CompileAll compiles every pattern made so far, and returns the first
// error of an invalid one (for a test: each is otherwise compiled when a
// rule first uses it).
func CompileAll() error {
	all.Lock()
	list := append([]*Regexp(nil), all.list...)
	all.Unlock()
	for _, r := range list {
		if _, err := regexp.Compile(r.expr); err != nil {
			return err
		}
	}
	return nil
}

// Count is how many patterns were made (for a test).
func Count() int {
	all.Lock()
	defer all.Unlock()
	return len(all.list)
}

// Re is the compiled pattern.
func (r *Regexp) Re() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

func (r *Regexp) String() string { return r.expr }

func (r *Regexp) MatchString(s string) bool { return r.Re().MatchString(s) }
func (r *Regexp) Match(b []byte) bool       { return r.Re().Match(b) }
func (r *Regexp) FindString(s string) string {
	return r.Re().FindString(s)
}
func (r *Regexp) FindStringIndex(s string) []int { return r.Re().FindStringIndex(s) }
func (r *Regexp) FindStringSubmatch(s string) []string {
	return r.Re().FindStringSubmatch(s)
}
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Re().FindStringSubmatchIndex(s)
}
func (r *Regexp) FindAllString(s string, n int) []string { return r.Re().FindAllString(s, n) }
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Re().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Re().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Re().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) FindIndex(b []byte) []int             { return r.Re().FindIndex(b) }
func (r *Regexp) FindAllIndex(b []byte, n int) [][]int { return r.Re().FindAllIndex(b, n) }
func (r *Regexp) FindSubmatchIndex(b []byte) []int     { return r.Re().FindSubmatchIndex(b) }
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Re().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllLiteralString(src, repl string) string {
	return r.Re().ReplaceAllLiteralString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Re().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) Split(s string, n int) []string             { return r.Re().Split(s, n) }
func (r *Regexp) SubexpIndex(name string) int                { return r.Re().SubexpIndex(name) }
func (r *Regexp) SubexpNames() []string                      { return r.Re().SubexpNames() }
func (r *Regexp) NumSubexp() int                             { return r.Re().NumSubexp() }
func (r *Regexp) FindSubmatch(b []byte) [][]byte             { return r.Re().FindSubmatch(b) }
func (r *Regexp) FindAllSubmatch(b []byte, n int) [][][]byte { return r.Re().FindAllSubmatch(b, n) }
func (r *Regexp) FindAllSubmatchIndex(b []byte, n int) [][]int {
	return r.Re().FindAllSubmatchIndex(b, n)
}

// Of is re, compiled already (a pattern a configuration gives), where a
// Regexp is asked for. It is not one CompileAll counts.
func Of(re *regexp.Regexp) *Regexp {
	r := &Regexp{expr: re.String(), re: re}
	r.once.Do(func() {})
	return r
}
