package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
)

// version is set at link time by the Makefile and the release builds
// (-ldflags "-X main.version=v1.2.3", from git describe). Left empty, the
// module version the go command recorded is used: the tag for
// `go install …@v1.2.3`, a pseudo-version for a build in a checkout.
var version = ""

// commit is set at link time beside version (git rev-parse HEAD): the go
// command records the revision itself only when it stamps VCS information,
// which -buildvcs=false and some checkouts turn off.
var commit = ""

// buildVersion is what a binary knows of its own build.
type buildVersion struct {
	Version  string // v1.2.3, a git describe string, a pseudo-version or "(devel)"
	Commit   string // the VCS revision, "" when the build recorded none
	Time     string // the commit's time (RFC 3339), "" when unknown
	Modified bool   // the work tree had uncommitted changes
	Go       string // the toolchain, go1.26.8
	Platform string // GOOS/GOARCH the binary was built for
}

// readBuildVersion reads the build's version from the link-time version
// and commit, and the build information the go command embeds (nil when
// there is none). What was linked wins: it is what the release built. The
// commit time and the modified flag the go command stamped describe the
// checkout it built in: they are kept only for that commit (the linked
// commit, full or abbreviated, is the stamped revision, as with make), never
// put beside another one.
func readBuildVersion(linkedVersion, linkedCommit string, bi *debug.BuildInfo) buildVersion {
	v := buildVersion{Version: linkedVersion, Commit: linkedCommit, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi == nil {
		if v.Version == "" {
			v.Version = "(devel)"
		}
		return v
	}
	if bi.GoVersion != "" {
		v.Go = bi.GoVersion
	}
	if v.Version == "" {
		v.Version = bi.Main.Version
	}
	if v.Version == "" {
		v.Version = "(devel)"
	}
	var goos, goarch, revision, vcsTime string
	var modified bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.time":
			vcsTime = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		case "GOOS":
			goos = s.Value
		case "GOARCH":
			goarch = s.Value
		}
	}
	if linkedCommit == "" {
		v.Commit = revision
	}
	if v.Commit != "" && strings.HasPrefix(revision, v.Commit) {
		v.Time, v.Modified = vcsTime, modified
	}
	if goos != "" && goarch != "" {
		v.Platform = goos + "/" + goarch
	}
	return v
}

// currentVersion is this binary's build version.
func currentVersion() buildVersion {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return readBuildVersion(version, commit, bi)
}

// versionString is the version alone: what the language server and SARIF
// report as the tool's version.
func versionString() string { return currentVersion().Version }

// String is what `baton version` prints, always three lines:
//
//	baton v1.2.3
//	commit 0123abcd… (2026-01-02T03:04:05Z, modified)
//	go1.26.8 linux/amd64
//
// The commit line reads "commit unknown" when the build recorded none (a
// `go install` from the module proxy), and drops the parts it lacks.
func (v buildVersion) String() string {
	commit := "commit unknown"
	if v.Commit != "" {
		commit = "commit " + v.Commit
		var extra string
		if v.Time != "" {
			extra = v.Time
		}
		if v.Modified {
			if extra != "" {
				extra += ", "
			}
			extra += "modified"
		}
		if extra != "" {
			commit += " (" + extra + ")"
		}
	}
	return fmt.Sprintf("baton %s\n%s\n%s %s\n", v.Version, commit, v.Go, v.Platform)
}

// printVersion writes `baton version`'s output.
func printVersion(w io.Writer) { fmt.Fprint(w, currentVersion().String()) }
