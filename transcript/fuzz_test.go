package transcript_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	_ "github.com/baton-md/baton/agenthost/hosts" // the hosts' formats
	. "github.com/baton-md/baton/transcript"
)

// Any bytes, read as any host's session, give entries or skipped lines,
// never a panic; a stop's text is always an assistant entry's.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"sessions.txtar", "hostshapes.txtar"} {
		a, err := txtar.ParseFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range a.Files {
			f.Add(file.Data)
		}
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "s")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_ = Detect(data)
		for _, host := range Hosts() {
			s, err := Read(path, host)
			if err != nil {
				t.Fatalf("%s: %v", host, err)
			}
			for _, st := range s.Stops() {
				if e := s.Entries[st.Index]; e.Role != Assistant || e.Text != st.Text {
					t.Fatalf("%s: stop %+v is not its entry %+v", host, st, e)
				}
			}
			s.StepsSincePerson()
		}
	})
}
