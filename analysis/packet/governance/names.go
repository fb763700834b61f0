package governance

import (
	"encoding/json"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/internal/safefile"
)

// The active feature's requirements and tasks, as specrew's spec and task
// templates write them: "- **FR-008**: System MUST …" in spec.md and
// "- [ ] T009 [P] [US1] Update …" in tasks.md.
var (
	requirementLine = lazyre.New(`(?m)^\s*-\s*\*\*(FR-\d+)\*\*:\s*(.+)$`)
	taskLine        = lazyre.New(`(?m)^\s*-\s*\[[ xX]\]\s*(T\d{3,})\s+(?:\[[^\]\n]*\]\s*)*(.+)$`)
)

// names maps the ids of the specrew project's active feature (the
// feature_path of .specrew/start-context.json) to what each names, for the
// fix that describes bare references; nil when there is no such feature.
func names(fsys fs.FS, root string) map[string]string {
	if fsys == nil || root == "" {
		return nil
	}
	ctx, err := readSmall(fsys, ".specrew/start-context.json")
	if err != nil {
		return nil
	}
	var top struct {
		FeaturePath string `json:"feature_path"`
	}
	if json.Unmarshal(ctx, &top) != nil || top.FeaturePath == "" {
		return nil
	}
	fp := filepath.FromSlash(strings.ReplaceAll(top.FeaturePath, `\`, "/"))
	if !filepath.IsAbs(fp) {
		fp = filepath.Join(root, fp)
	}
	rel, err := filepath.Rel(root, fp)
	if err != nil || !filepath.IsLocal(rel) {
		return nil
	}
	out := map[string]string{}
	for _, f := range []struct {
		name string
		re   *lazyre.Regexp
	}{{"spec.md", requirementLine}, {"tasks.md", taskLine}} {
		data, err := readSmall(fsys, path.Join(filepath.ToSlash(rel), f.name))
		if err != nil {
			continue
		}
		for _, m := range f.re.FindAllSubmatch(data, -1) {
			id := strings.ToUpper(string(m[1]))
			if _, ok := out[id]; !ok {
				out[id] = short(string(m[2]))
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func readSmall(fsys fs.FS, name string) ([]byte, error) {
	return safefile.ReadFileFS(fsys, name, 4<<20)
}

// short is a requirement's or a task's text cut to a few words: its first
// clause, without Markdown, at most about 60 bytes, ending at a word.
func short(s string) string {
	s = strings.NewReplacer("`", "", "**", "", "*", "").Replace(strings.TrimSpace(s))
	for _, stop := range []string{". ", "; ", ": ", " ("} {
		if i := strings.Index(s, stop); i > 0 {
			s = s[:i]
		}
	}
	s = strings.TrimRight(s, ".;:")
	if len(s) > 60 {
		cut := strings.LastIndexByte(s[:60], ' ')
		if cut < 20 {
			cut = 60
		}
		s = s[:cut] + " …"
	}
	if s != "" {
		s = strings.ToLower(s[:1]) + s[1:]
	}
	return strings.TrimSpace(s)
}
