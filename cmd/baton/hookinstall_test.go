package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookInstallDirMustExist: a --dir that is not there is an error
// naming it, and nothing is made: not the folder (which the write used to
// make), and not the settings of the Git work tree around it (which a
// mistyped folder inside a repository used to resolve to).
func TestHookInstallDirMustExist(t *testing.T) {
	repo := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", "")
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(repo, "README.md")
	if err := os.WriteFile(file, []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	typo := filepath.Join(repo, "sub-projetc")
	for _, args := range [][]string{
		{"hook", "install", "--host", "claude"},
		{"hook", "uninstall", "--host", "gemini"},
		{"hook", "status"},
		{"mcp", "install", "--host", "codex"},
		{"mcp", "uninstall", "--host", "claude"},
		{"mcp", "status"},
	} {
		code, stdout, stderr := runBaton(t, "", "", append(args, "--dir", typo)...)
		if code != exitUsage || stdout != "" || stderr != "baton: --dir "+typo+": no such folder\n" {
			t.Errorf("%v: exit %d\nstdout: %q\nstderr: %q", args, code, stdout, stderr)
		}
		if _, err := os.Lstat(typo); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%v made the folder it was given: %v", args, err)
		}
		entries, _ := os.ReadDir(repo)
		if len(entries) != 2 {
			t.Fatalf("%v wrote into the repository: %v", args, entries)
		}
	}
	code, _, stderr := runBaton(t, "", "", "hook", "install", "--host", "claude", "--dir", file)
	if code != exitUsage || !strings.Contains(stderr, "--dir "+file+": not a folder") {
		t.Errorf("a file as --dir: exit %d, %q", code, stderr)
	}
}
