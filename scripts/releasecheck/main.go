// Command releasecheck checks the release folder scripts/release.sh writes:
// every file is in SHA256SUMS with the right checksum; each archive holds
// exactly the binary, LICENSE and README.md; each VS Code package holds
// its own platform's binary and nothing of another's; and every binary was
// built for the platform its file name says, with the release's version
// linked in. A binary for this machine is run (`baton version`); the
// others are read: GOOS, GOARCH, CGO_ENABLED and -trimpath from the build
// information the go command embeds (what `go version -m` prints), and
// main.version from the symbol table, since the go command leaves -ldflags
// out of a -trimpath build's information.
//
//	go run ./scripts/releasecheck -version v1.2.3 [-platforms "linux/amd64 …"] [-vsix=false] bin/release
package main

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
)

// allPlatforms are the platforms a release is built for.
const allPlatforms = "linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64"

// maxBinary bounds what is read of one archived binary.
const maxBinary = 256 << 20

func main() {
	version := flag.String("version", "", "the release's version (what -X main.version linked), e.g. v1.2.3")
	platforms := flag.String("platforms", allPlatforms, "the GOOS/GOARCH pairs the release must hold, space-separated")
	vsix := flag.Bool("vsix", true, "the release must hold a VS Code package for each platform")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: releasecheck -version V [-platforms LIST] [-vsix=false] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || *version == "" {
		flag.Usage()
		os.Exit(2)
	}
	c := checker{dir: flag.Arg(0), version: *version, platforms: strings.Fields(*platforms), vsix: *vsix, out: os.Stdout}
	if errs := c.check(); len(errs) > 0 {
		for _, err := range errs {
			fmt.Fprintf(os.Stderr, "releasecheck: %v\n", err)
		}
		os.Exit(1)
	}
}

type checker struct {
	dir       string
	version   string   // as linked: v1.2.3
	platforms []string // GOOS/GOARCH
	vsix      bool
	out       io.Writer // one line per artifact checked
}

// vsceTarget is the VS Code target of a Go platform (linux/amd64 → linux-x64).
func vsceTarget(platform string) string {
	goos, goarch, _ := strings.Cut(platform, "/")
	if goos == "windows" {
		goos = "win32"
	}
	if goarch == "amd64" {
		goarch = "x64"
	}
	return goos + "-" + goarch
}

// archiveName is the file name of a platform's archive.
func (c *checker) archiveName(platform string) string {
	goos, goarch, _ := strings.Cut(platform, "/")
	ext := ".tar.gz"
	if goos == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("baton_%s_%s_%s%s", strings.TrimPrefix(c.version, "v"), goos, goarch, ext)
}

var vsixName = regexp.MustCompile(`^baton-([a-z0-9]+-[a-z0-9]+)-(\d+\.\d+\.\d+)\.vsix$`)

func (c *checker) check() []error {
	var errs []error
	sums, err := c.checksums()
	if err != nil {
		return []error{err}
	}
	for _, p := range c.platforms {
		name := c.archiveName(p)
		if _, ok := sums[name]; !ok {
			errs = append(errs, fmt.Errorf("%s: missing (no %s archive in %s/SHA256SUMS)", name, p, c.dir))
			continue
		}
		if err := c.checkArchive(name, p); err != nil {
			errs = append(errs, err)
		}
	}
	if c.vsix {
		found := map[string]string{} // target → file
		for name := range sums {
			if m := vsixName.FindStringSubmatch(name); m != nil {
				found[m[1]] = name
			} else if strings.HasSuffix(name, ".vsix") {
				errs = append(errs, fmt.Errorf("%s: not named baton-<target>-<version>.vsix", name))
			}
		}
		for _, p := range c.platforms {
			target := vsceTarget(p)
			name, ok := found[target]
			if !ok {
				errs = append(errs, fmt.Errorf("no VS Code package for %s (baton-%s-<version>.vsix)", target, target))
				continue
			}
			if err := c.checkVSIX(name, target, p); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errs
}

// checksums reads SHA256SUMS, checks every file it names, and that every
// file of the folder is named.
func (c *checker) checksums() (map[string]string, error) {
	data, err := os.ReadFile(filepath.Join(c.dir, "SHA256SUMS"))
	if err != nil {
		return nil, err
	}
	sums := map[string]string{}
	var errs []error
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 64 || name == "" || strings.ContainsAny(name, `/\`) {
			errs = append(errs, fmt.Errorf("SHA256SUMS:%d: not \"SHA256  NAME\": %q", n, sc.Text()))
			continue
		}
		if _, dup := sums[name]; dup {
			errs = append(errs, fmt.Errorf("SHA256SUMS:%d: %s is listed twice", n, name))
		}
		sums[name] = sum
		got, err := fileSHA256(filepath.Join(c.dir, name))
		if err != nil {
			errs = append(errs, err)
		} else if got != sum {
			errs = append(errs, fmt.Errorf("%s: SHA-256 %s, SHA256SUMS says %s", name, got, sum))
		}
	}
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if _, ok := sums[e.Name()]; !ok && e.Name() != "SHA256SUMS" {
			errs = append(errs, fmt.Errorf("%s: not in SHA256SUMS", e.Name()))
		}
	}
	return sums, errors.Join(errs...)
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// checkArchive checks a platform's archive: exactly the binary, LICENSE
// and README.md, and the binary built for that platform at the version.
func (c *checker) checkArchive(name, platform string) error {
	exe := "baton"
	if strings.HasPrefix(platform, "windows/") {
		exe = "baton.exe"
	}
	files, err := readArchive(filepath.Join(c.dir, name))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var names []string
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	want := []string{"LICENSE", "README.md", exe}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		return fmt.Errorf("%s: holds %v, want %v", name, names, want)
	}
	got, err := c.checkBinary(files[exe], platform)
	if err != nil {
		return fmt.Errorf("%s: %s: %w", name, exe, err)
	}
	fmt.Fprintf(c.out, "ok %s: %s\n", name, got)
	return nil
}

// readArchive reads the regular files of a .tar.gz or .zip by name.
func readArchive(path string) (map[string][]byte, error) {
	files := map[string][]byte{}
	if strings.HasSuffix(path, ".zip") || strings.HasSuffix(path, ".vsix") {
		zr, err := zip.OpenReader(path)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		for _, f := range zr.File {
			if f.FileInfo().IsDir() {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f.Name, err)
			}
			data, err := io.ReadAll(io.LimitReader(rc, maxBinary))
			rc.Close()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f.Name, err)
			}
			files[f.Name] = data
		}
		return files, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("%s: not a regular file", h.Name)
		}
		data, err := io.ReadAll(io.LimitReader(tr, maxBinary))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", h.Name, err)
		}
		files[h.Name] = data
	}
}

// checkVSIX checks a VS Code package: its manifest's target platform, the
// bundled binary for that target alone, and that binary.
func (c *checker) checkVSIX(name, target, platform string) error {
	files, err := readArchive(filepath.Join(c.dir, name))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var pkg struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(files["extension/package.json"], &pkg); err != nil {
		return fmt.Errorf("%s: extension/package.json: %w", name, err)
	}
	if m := vsixName.FindStringSubmatch(name); m == nil || m[2] != pkg.Version {
		return fmt.Errorf("%s: its package.json says version %q", name, pkg.Version)
	}
	if !bytes.Contains(files["extension.vsixmanifest"], []byte(`TargetPlatform="`+target+`"`)) {
		return fmt.Errorf("%s: extension.vsixmanifest does not name TargetPlatform=%q", name, target)
	}
	exe := "extension/bin/" + target + "/baton"
	if strings.HasPrefix(target, "win32-") {
		exe += ".exe"
	}
	for n := range files {
		if strings.HasPrefix(n, "extension/bin/") && n != exe {
			return fmt.Errorf("%s: holds %s besides %s", name, n, exe)
		}
	}
	bin, ok := files[exe]
	if !ok {
		return fmt.Errorf("%s: no %s", name, exe)
	}
	got, err := c.checkBinary(bin, platform)
	if err != nil {
		return fmt.Errorf("%s: %s: %w", name, exe, err)
	}
	fmt.Fprintf(c.out, "ok %s: %s\n", name, got)
	return nil
}

// checkBinary checks that a binary was built for platform with the
// release's version linked, and runs it when it is this machine's. It
// says what it found.
func (c *checker) checkBinary(data []byte, platform string) (string, error) {
	bi, err := buildinfo.Read(bytes.NewReader(data))
	if err != nil {
		return "", fmt.Errorf("no Go build information: %w", err)
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if got := settings["GOOS"] + "/" + settings["GOARCH"]; got != platform {
		return "", fmt.Errorf("built for %s, want %s", got, platform)
	}
	linked, err := linkedString(data, "main.version")
	if err != nil {
		return "", err
	}
	if linked != c.version {
		return "", fmt.Errorf("main.version is %q, want %s", linked, c.version)
	}
	if settings["CGO_ENABLED"] != "0" {
		return "", fmt.Errorf("CGO_ENABLED=%q, want 0", settings["CGO_ENABLED"])
	}
	if settings["-trimpath"] != "true" {
		return "", errors.New("not built with -trimpath")
	}
	found := fmt.Sprintf("%s %s, linked %s", platform, bi.GoVersion, c.version)
	if platform != runtime.GOOS+"/"+runtime.GOARCH {
		return found + " (read)", nil
	}
	out, err := runVersion(data)
	if err != nil {
		return "", err
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 || lines[0] != "baton "+c.version || !strings.HasSuffix(lines[2], " "+platform) {
		return "", fmt.Errorf("`baton version` printed %q, want \"baton %s\", the commit, and the toolchain for %s", out, c.version, platform)
	}
	return found + " (ran: " + lines[0] + ")", nil
}

// runVersion runs `baton version` from a copy of the binary.
func runVersion(data []byte) (string, error) {
	dir, err := os.MkdirTemp("", "releasecheck")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "baton")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		return "", err
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		return "", fmt.Errorf("baton version: %w", err)
	}
	return string(out), nil
}
