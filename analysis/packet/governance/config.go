package governance

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"github.com/baton-md/baton/internal/lazyre"

	"github.com/baton-md/baton/internal/safefile"
)

// settings is what specrew's Get-InteractionModelSettings
// (scripts/shared-governance.ps1) reads of the project's
// .specrew/config.yml: the bare-path exemptions the project approved, and
// what in the file it could not use.
type settings struct {
	exemptions []*lazyre.Regexp
	issues     []string
}

var (
	cfgSeverity  = lazyre.New(`(?i)^\s{2}bare_path_boundary_handoff_severity:\s*(\S.*?)\s*$`)
	cfgExemption = lazyre.New(`(?i)^\s{2}exemption_extensions:\s*$`)
	cfgID        = lazyre.New(`(?i)^\s{4}-\s*id:\s*(\S.*?)\s*$`)
	cfgField     = lazyre.New(`(?i)^\s{6}(pattern|approver|rationale):\s*(\S.*?)\s*$`)
	cfgTop       = lazyre.New(`(?i)^interaction_model:\s*$`)
)

// readSettings reads .specrew/config.yml of the workspace; no file is no
// settings. A file over 1 MiB is not read: it is no configuration.
func readSettings(fsys fs.FS) settings {
	var st settings
	if fsys == nil {
		return st
	}
	data, err := safefile.ReadFileFS(fsys, ".specrew/config.yml", 1<<20)
	if err != nil {
		return st
	}
	trim := func(s string) string { return strings.Trim(s, " \t\r\n'\"") }
	type entry struct{ id, pattern, approver, rationale string }
	var entries []*entry
	var cur *entry
	in, inExemptions := false, false
	for _, line := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		if line != "" && line[0] != ' ' && line[0] != '\t' {
			if cfgTop.MatchString(line) {
				in, inExemptions = true, false
				continue
			}
			if in {
				break
			}
		}
		if !in {
			continue
		}
		if m := cfgSeverity.FindStringSubmatch(line); m != nil {
			if v := trim(m[1]); v != "soft-warning" && v != "validation-fail" {
				st.issues = append(st.issues, fmt.Sprintf("interaction_model bare_path_boundary_handoff_severity '%s' is invalid; expected soft-warning or validation-fail.", v))
			}
			continue
		}
		if cfgExemption.MatchString(line) {
			inExemptions = true
			continue
		}
		if !inExemptions {
			continue
		}
		if m := cfgID.FindStringSubmatch(line); m != nil {
			cur = &entry{id: trim(m[1])}
			entries = append(entries, cur)
			continue
		}
		if cur == nil {
			continue
		}
		if m := cfgField.FindStringSubmatch(line); m != nil {
			switch v := trim(m[2]); strings.ToLower(m[1]) {
			case "pattern":
				cur.pattern = v
			case "approver":
				cur.approver = v
			case "rationale":
				cur.rationale = v
			}
		}
	}
	for _, e := range entries {
		if strings.TrimSpace(e.pattern) == "" || strings.TrimSpace(e.approver) == "" || strings.TrimSpace(e.rationale) == "" {
			st.issues = append(st.issues, fmt.Sprintf("interaction_model exemption extension '%s' must include pattern, approver, and rationale.", e.id))
			continue
		}
		// The pattern is a .NET regular expression matched with -match
		// (case-insensitive); one Go cannot compile exempts nothing, and
		// says so.
		re, err := regexp.Compile("(?i)" + e.pattern)
		if err != nil {
			st.issues = append(st.issues, fmt.Sprintf("interaction_model exemption extension '%s': baton cannot read its pattern (%v), so it exempts nothing here.", e.id, err))
			continue
		}
		st.exemptions = append(st.exemptions, lazyre.Of(re))
	}
	return st
}
