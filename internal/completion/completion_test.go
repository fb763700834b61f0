package completion

import (
	"strings"
	"testing"
)

// A small model: each script offers the commands, a group's
// subcommands, a flag's fixed values, folders for a folder flag, and files
// where arguments are files.
func TestScripts(t *testing.T) {
	model := []Command{
		{Name: "check", Summary: "lint files", Files: true, Flags: []Flag{
			{Name: "format", Usage: "output format", Values: []string{"text", "json"}},
			{Name: "dir", Usage: "a folder", Dirs: true},
			{Name: "quiet", Usage: "no summary", Bool: true},
		}},
		{Name: "hook", Summary: "hooks", Subs: []string{"hook install"}, Words: []string{"install"}},
		{Name: "hook install", Summary: "add the hooks", Parent: "hook"},
	}
	for _, tt := range []struct {
		name  string
		write func(*strings.Builder)
		want  []string
	}{
		{"bash", func(b *strings.Builder) { Bash(b, model) }, []string{
			`compgen -W 'check hook --help --version'`, `'check':--format|'check':-format) COMPREPLY=($(compgen -W 'text json'`,
			`'check':--dir|'check':-dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d`, `'hook') cmd="$cmd $w" ;;`,
			`'check') compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f`}},
		{"zsh", func(b *strings.Builder) { Zsh(b, model) }, []string{
			`'check:lint files'`, `'install:add the hooks'`, `'--format[output format]:format:(text json)'`, `'--dir[a folder]:dir:_files -/'`, `'*:file:_files'`}},
		{"fish", func(b *strings.Builder) { Fish(b, model) }, []string{
			`complete -c baton -n __fish_use_subcommand -a 'check' -d 'lint files'`,
			`complete -c baton -n '__fish_seen_subcommand_from hook; and not __fish_seen_subcommand_from install' -a 'install' -d 'add the hooks'`,
			`-l format -x -a 'text json'`, `complete -c baton -n '__fish_seen_subcommand_from check' -F`}},
	} {
		var b strings.Builder
		tt.write(&b)
		for _, w := range tt.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: no %q in\n%s", tt.name, w, b.String())
			}
		}
	}
}
