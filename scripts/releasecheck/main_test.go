package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

// fakeBaton is a stand-in for baton: it prints `baton version`'s three
// lines from what was linked (shown, when set, replaces the version it
// prints, to play a binary that misreports itself).
const fakeBaton = `package main

import (
	"fmt"
	"os"
	"runtime"
)

var version, shown string

func main() {
	if len(os.Args) != 2 || os.Args[1] != "version" {
		os.Exit(2)
	}
	if shown == "" {
		shown = version
	}
	fmt.Printf("baton %s\ncommit unknown\n%s %s/%s\n", shown, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
`

var (
	fakeMu    sync.Mutex
	fakeBuilt = map[string][]byte{}
)

// fake builds the stand-in for platform with ldflags, as the release does
// (CGO_ENABLED=0, -trimpath), once per test binary.
func fake(t *testing.T, platform, ldflags string) []byte {
	t.Helper()
	fakeMu.Lock()
	defer fakeMu.Unlock()
	key := platform + " " + ldflags
	if b, ok := fakeBuilt[key]; ok {
		return b
	}
	src := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module example.com/fake\n\ngo 1.22\n", "main.go": fakeBaton} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goos, goarch, _ := strings.Cut(platform, "/")
	bin := filepath.Join(src, "fake")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", ldflags, "-o", bin, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch, "GOFLAGS=-buildvcs=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", platform, err, out)
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	fakeBuilt[key] = b
	return b
}

const v = "v1.2.3"

var native = runtime.GOOS + "/" + runtime.GOARCH

// foreign is a platform this machine does not run.
func foreign() string {
	if native == "linux/arm64" {
		return "linux/amd64"
	}
	return "linux/arm64"
}

func writeTarGz(t *testing.T, path string, files map[string][]byte) {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, name := range sortedKeys(files) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(files[name])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(files[name])
	}
	tw.Close()
	gz.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeZip(t *testing.T, path string, files map[string][]byte) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range sortedKeys(files) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(files[name])
	}
	zw.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func sortedKeys(m map[string][]byte) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// writeSums writes SHA256SUMS for every file of dir.
func writeSums(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var sums strings.Builder
	for _, e := range entries {
		if e.Name() == "SHA256SUMS" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256(data)
		fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(h[:]), e.Name())
	}
	if err := os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(sums.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func docs(exe string, bin []byte) map[string][]byte {
	return map[string][]byte{exe: bin, "LICENSE": []byte("MIT\n"), "README.md": []byte("# baton\n")}
}

func vsixFiles(target, version string, bins map[string][]byte) map[string][]byte {
	files := map[string][]byte{
		"extension.vsixmanifest":  []byte(`<Identity Id="baton" Version="` + version + `" TargetPlatform="` + target + `" />`),
		"extension/package.json":  []byte(`{"name": "baton", "version": "` + version + `"}`),
		"extension/out/index.js":  []byte("// compiled\n"),
		"[Content_Types].xml":     []byte("<Types/>"),
		"extension/LICENSE.txt":   []byte("MIT\n"),
		"extension/readme.md":     []byte("# baton\n"),
		"extension/icon.png":      []byte("\x89PNG"),
		"extension/node_modules/": nil,
	}
	delete(files, "extension/node_modules/")
	for name, b := range bins {
		files[name] = b
	}
	return files
}

// release writes a good release for the native platform and a foreign one,
// with their VS Code packages, and returns its folder and the checker.
func release(t *testing.T) (string, *checker, *bytes.Buffer) {
	t.Helper()
	dir := t.TempDir()
	c := &checker{dir: dir, version: v, platforms: []string{native, foreign()}, vsix: true}
	for _, p := range c.platforms {
		bin := fake(t, p, "-w -X main.version="+v)
		writeTarGz(t, filepath.Join(dir, c.archiveName(p)), docs("baton", bin))
		target := vsceTarget(p)
		writeZip(t, filepath.Join(dir, "baton-"+target+"-1.2.3.vsix"),
			vsixFiles(target, "1.2.3", map[string][]byte{"extension/bin/" + target + "/baton": bin}))
	}
	writeSums(t, dir)
	var out bytes.Buffer
	c.out = &out
	return dir, c, &out
}

func wantErr(t *testing.T, errs []error, substr string) {
	t.Helper()
	var all []string
	for _, err := range errs {
		all = append(all, err.Error())
		if strings.Contains(err.Error(), substr) {
			return
		}
	}
	t.Errorf("errors %q, want one saying %q", all, substr)
}

// TestCheckGoodRelease: a release of every artifact, right, passes; the
// native binary is run and the foreign one read.
func TestCheckGoodRelease(t *testing.T) {
	_, c, out := release(t)
	if errs := c.check(); len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	for _, want := range []string{
		"ok " + c.archiveName(native) + ": " + native,
		"(ran: baton v1.2.3)",
		"ok " + c.archiveName(foreign()) + ": " + foreign(),
		"(read)",
		"ok baton-" + vsceTarget(native) + "-1.2.3.vsix",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestCheckWindowsZip: a windows archive is a zip holding baton.exe.
func TestCheckWindowsZip(t *testing.T) {
	dir := t.TempDir()
	c := &checker{dir: dir, version: v, platforms: []string{"windows/amd64"}, out: &bytes.Buffer{}}
	writeZip(t, filepath.Join(dir, "baton_1.2.3_windows_amd64.zip"), docs("baton.exe", fake(t, "windows/amd64", "-X main.version="+v)))
	writeSums(t, dir)
	if errs := c.check(); len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
}

// TestCheckWrongPlatform: an archive named for one platform holding
// another's binary.
func TestCheckWrongPlatform(t *testing.T) {
	dir, c, _ := release(t)
	writeTarGz(t, filepath.Join(dir, c.archiveName(foreign())), docs("baton", fake(t, native, "-w -X main.version="+v)))
	writeSums(t, dir)
	wantErr(t, c.check(), "built for "+native+", want "+foreign())
}

// TestCheckWrongVersion: a binary linked with another version, read or run.
func TestCheckWrongVersion(t *testing.T) {
	dir, c, _ := release(t)
	writeTarGz(t, filepath.Join(dir, c.archiveName(foreign())), docs("baton", fake(t, foreign(), "-X main.version=v1.2.2")))
	writeSums(t, dir)
	wantErr(t, c.check(), `main.version is "v1.2.2", want v1.2.3`)
}

// TestCheckMisreports: the native binary is linked right but says another
// version when run.
func TestCheckMisreports(t *testing.T) {
	dir, c, _ := release(t)
	writeTarGz(t, filepath.Join(dir, c.archiveName(native)), docs("baton", fake(t, native, "-X main.version="+v+" -X main.shown=v0.0.1")))
	writeSums(t, dir)
	wantErr(t, c.check(), "`baton version` printed \"baton v0.0.1")
}

// TestCheckChecksum: an archive changed after SHA256SUMS was written.
func TestCheckChecksum(t *testing.T) {
	dir, c, _ := release(t)
	writeTarGz(t, filepath.Join(dir, c.archiveName(native)), docs("baton", fake(t, native, "-X main.version="+v)))
	wantErr(t, c.check(), "SHA256SUMS says")
}

// TestCheckUnlisted: a file of the release that SHA256SUMS does not list.
func TestCheckUnlisted(t *testing.T) {
	dir, c, _ := release(t)
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	wantErr(t, c.check(), "notes.txt: not in SHA256SUMS")
}

// TestCheckMissing: a platform without its archive or its VS Code package.
func TestCheckMissing(t *testing.T) {
	dir, c, _ := release(t)
	os.Remove(filepath.Join(dir, c.archiveName(foreign())))
	os.Remove(filepath.Join(dir, "baton-"+vsceTarget(foreign())+"-1.2.3.vsix"))
	writeSums(t, dir)
	errs := c.check()
	wantErr(t, errs, c.archiveName(foreign())+": missing")
	wantErr(t, errs, "no VS Code package for "+vsceTarget(foreign()))
}

// TestCheckArchiveContents: an archive without LICENSE.
func TestCheckArchiveContents(t *testing.T) {
	dir, c, _ := release(t)
	files := docs("baton", fake(t, native, "-w -X main.version="+v))
	delete(files, "LICENSE")
	writeTarGz(t, filepath.Join(dir, c.archiveName(native)), files)
	writeSums(t, dir)
	wantErr(t, c.check(), "holds [README.md baton], want [LICENSE README.md baton]")
}

// TestCheckVSIXOtherBinary: a VS Code package that bundles another
// platform's binary besides its own, or names another target.
func TestCheckVSIXOtherBinary(t *testing.T) {
	dir, c, _ := release(t)
	target := vsceTarget(native)
	bin := fake(t, native, "-w -X main.version="+v)
	writeZip(t, filepath.Join(dir, "baton-"+target+"-1.2.3.vsix"), vsixFiles(target, "1.2.3", map[string][]byte{
		"extension/bin/" + target + "/baton": bin,
		"extension/bin/win32-x64/baton.exe":  bin,
	}))
	other := vsceTarget(foreign())
	writeZip(t, filepath.Join(dir, "baton-"+other+"-1.2.3.vsix"), vsixFiles(target, "1.2.3", map[string][]byte{
		"extension/bin/" + other + "/baton": fake(t, foreign(), "-w -X main.version="+v),
	}))
	writeSums(t, dir)
	errs := c.check()
	wantErr(t, errs, "holds extension/bin/win32-x64/baton.exe besides")
	wantErr(t, errs, `does not name TargetPlatform="`+other+`"`)
}

// TestCheckVSIXVersion: a package whose name and package.json disagree.
func TestCheckVSIXVersion(t *testing.T) {
	dir, c, _ := release(t)
	target := vsceTarget(native)
	writeZip(t, filepath.Join(dir, "baton-"+target+"-1.2.3.vsix"), vsixFiles(target, "1.2.4", map[string][]byte{
		"extension/bin/" + target + "/baton": fake(t, native, "-w -X main.version="+v),
	}))
	writeSums(t, dir)
	wantErr(t, c.check(), `its package.json says version "1.2.4"`)
}

// TestCheckStripped: a binary without its symbol table cannot say its
// version, and is refused rather than passed.
func TestCheckStripped(t *testing.T) {
	dir, c, _ := release(t)
	writeTarGz(t, filepath.Join(dir, c.archiveName(foreign())), docs("baton", fake(t, foreign(), "-s -w -X main.version="+v)))
	writeSums(t, dir)
	wantErr(t, c.check(), "no symbol table")
}

// TestLinkedStringEveryFormat reads main.version from an ELF, a Mach-O
// and a PE binary, for amd64 and arm64.
func TestLinkedStringEveryFormat(t *testing.T) {
	for _, p := range []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "windows/arm64"} {
		t.Run(strings.ReplaceAll(p, "/", "-"), func(t *testing.T) {
			got, err := linkedString(fake(t, p, "-w -X main.version=v7.7.7-rc.1"), "main.version")
			if err != nil || got != "v7.7.7-rc.1" {
				t.Errorf("linkedString: %q, %v; want v7.7.7-rc.1", got, err)
			}
		})
	}
}
