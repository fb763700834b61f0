package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestReadBuildVersion reads the version, commit and platform from the
// link-time values and the build information the go command records, for
// each way baton is built.
func TestReadBuildVersion(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "GOOS", Value: "darwin"},
		{Key: "GOARCH", Value: "arm64"},
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"},
		{Key: "vcs.modified", Value: "true"},
	}
	here := runtime.GOOS + "/" + runtime.GOARCH
	for _, tc := range []struct {
		name           string
		linked, commit string
		bi             *debug.BuildInfo
		want           buildVersion
	}{
		{"no build information", "", "", nil,
			buildVersion{Version: "(devel)", Go: runtime.Version(), Platform: here}},
		{"go install from the module proxy", "", "",
			&debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Path: "github.com/baton-md/baton", Version: "v1.2.3"},
				Settings: []debug.BuildSetting{{Key: "GOOS", Value: "windows"}, {Key: "GOARCH", Value: "amd64"}}},
			buildVersion{Version: "v1.2.3", Go: "go1.26.1", Platform: "windows/amd64"}},
		{"go build in a checkout", "", "",
			&debug.BuildInfo{GoVersion: "go1.26.2", Main: debug.Module{Version: "v0.0.0-20260102030405-0123456789ab+dirty"}, Settings: vcs},
			buildVersion{Version: "v0.0.0-20260102030405-0123456789ab+dirty", Commit: "0123456789abcdef0123456789abcdef01234567",
				Time: "2026-01-02T03:04:05Z", Modified: true, Go: "go1.26.2", Platform: "darwin/arm64"}},
		{"the linked version wins; the linked commit is the stamped one", "v1.3.0-2-gabcdef0", "0123456789abcdef0123456789abcdef01234567",
			&debug.BuildInfo{GoVersion: "go1.26.2", Main: debug.Module{Version: "(devel)"}, Settings: vcs},
			buildVersion{Version: "v1.3.0-2-gabcdef0", Commit: "0123456789abcdef0123456789abcdef01234567", Time: "2026-01-02T03:04:05Z", Modified: true,
				Go: "go1.26.2", Platform: "darwin/arm64"}},
		{"an abbreviated linked commit of the stamped revision", "v1.3.0", "0123456",
			&debug.BuildInfo{GoVersion: "go1.26.2", Main: debug.Module{Version: "(devel)"}, Settings: vcs},
			buildVersion{Version: "v1.3.0", Commit: "0123456", Time: "2026-01-02T03:04:05Z", Modified: true,
				Go: "go1.26.2", Platform: "darwin/arm64"}},
		{"a linked commit wins, without the stamps of another commit", "v1.3.0-2-gabcdef0", "abcdef0",
			&debug.BuildInfo{GoVersion: "go1.26.2", Main: debug.Module{Version: "(devel)"}, Settings: vcs},
			buildVersion{Version: "v1.3.0-2-gabcdef0", Commit: "abcdef0", Go: "go1.26.2", Platform: "darwin/arm64"}},
		{"a devel build without VCS stamps", "", "",
			&debug.BuildInfo{GoVersion: "go1.26.2", Main: debug.Module{Version: "(devel)"}},
			buildVersion{Version: "(devel)", Go: "go1.26.2", Platform: here}},
		{"an empty main version", "", "",
			&debug.BuildInfo{GoVersion: "go1.26.2"},
			buildVersion{Version: "(devel)", Go: "go1.26.2", Platform: here}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := readBuildVersion(tc.linked, tc.commit, tc.bi); got != tc.want {
				t.Errorf("readBuildVersion:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestVersionOutput holds `baton version`'s three lines to their format.
func TestVersionOutput(t *testing.T) {
	for _, tc := range []struct {
		v    buildVersion
		want string
	}{
		{buildVersion{Version: "v1.2.3", Commit: "abc", Time: "2026-01-02T03:04:05Z", Modified: true, Go: "go1.26.1", Platform: "linux/arm64"},
			"baton v1.2.3\ncommit abc (2026-01-02T03:04:05Z, modified)\ngo1.26.1 linux/arm64\n"},
		{buildVersion{Version: "v1.2.3", Commit: "abc", Time: "2026-01-02T03:04:05Z", Go: "go1.26.1", Platform: "linux/arm64"},
			"baton v1.2.3\ncommit abc (2026-01-02T03:04:05Z)\ngo1.26.1 linux/arm64\n"},
		{buildVersion{Version: "v1.2.3", Commit: "abc", Modified: true, Go: "go1.26.1", Platform: "linux/arm64"},
			"baton v1.2.3\ncommit abc (modified)\ngo1.26.1 linux/arm64\n"},
		{buildVersion{Version: "v1.2.3", Commit: "abc", Go: "go1.26.1", Platform: "linux/arm64"},
			"baton v1.2.3\ncommit abc\ngo1.26.1 linux/arm64\n"},
		{buildVersion{Version: "(devel)", Go: "go1.26.1", Platform: "windows/amd64"},
			"baton (devel)\ncommit unknown\ngo1.26.1 windows/amd64\n"},
	} {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("%+v:\n got %q\nwant %q", tc.v, got, tc.want)
		}
	}
}

// TestVersionLinked builds baton as the Makefile and the release do, with
// -ldflags "-X main.version=… -X main.commit=…", and checks that `baton
// version` prints them, and that SARIF names the same version. It holds
// whether or not the go command stamps the checkout's VCS information (a
// clone is stamped by default; -buildvcs=false, a linked worktree or a
// source archive is not): the stamped time and modified flag belong to the
// checkout's commit, not to the linked 0badc0de.
func TestVersionLinked(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "baton")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-trimpath",
		"-ldflags", "-X main.version=v9.8.7-test -X main.commit=0badc0de", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil {
		t.Fatalf("baton version: %v\n%s", err, out)
	}
	want := "baton v9.8.7-test\ncommit 0badc0de\n" + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	if string(out) != want {
		t.Errorf("baton version:\n got %q\nwant %q", out, want)
	}

	doc := filepath.Join(t.TempDir(), "note.md")
	if err := os.WriteFile(doc, []byte("# A note\n\nNothing for baton here.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sarifOut, err := exec.Command(bin, "check", "--format", "sarif", doc).Output()
	if err != nil {
		t.Fatalf("baton check --format sarif: %v\n%s", err, sarifOut)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Version string `json:"version"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sarifOut, &log); err != nil {
		t.Fatalf("SARIF: %v\n%s", err, sarifOut)
	}
	// Without the "v": the SARIF Multitool wants a version that starts
	// with a number (SARIF2005; see sarifVersions in package report).
	if len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Version != "9.8.7-test" {
		t.Errorf("SARIF runs %+v, want one run whose driver version is 9.8.7-test", log.Runs)
	}
}
