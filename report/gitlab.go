package report

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"path/filepath"
	"strconv"

	"github.com/baton-md/baton/markdown"

	"github.com/baton-md/baton/analysis"
)

// The GitLab Code Quality report of --format gitlab: a JSON array of
// issues, each with the fields GitLab documents as required
// (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format),
// plus "type": "issue", which the Code Climate specification it is a
// subset of requires.
type (
	gitlabIssue struct {
		Type        string         `json:"type"`
		CheckName   string         `json:"check_name"`
		Description string         `json:"description"`
		Severity    string         `json:"severity"`
		Fingerprint string         `json:"fingerprint"`
		Location    gitlabLocation `json:"location"`
	}
	gitlabLocation struct {
		Path  string      `json:"path"`
		Lines gitlabLines `json:"lines"`
	}
	gitlabLines struct {
		Begin int `json:"begin"` // 1-based
		End   int `json:"end"`   // the last line the finding covers
	}
)

// gitlabSeverity is the Code Quality severity of a finding: an error, which
// fails the run, is major; a warning minor; an info or a hint info.
func gitlabSeverity(s analysis.Severity) string {
	switch s {
	case analysis.Error:
		return "major"
	case analysis.Warning:
		return "minor"
	}
	return "info"
}

// gitlabFingerprint identifies an issue across pipelines, which GitLab
// compares by fingerprint: the SHA-256 of the file, the rule, the message
// and which of the file's findings with that rule and message it is. No
// line number goes in, so an edit above the finding does not make it
// read as fixed and found again.
func gitlabFingerprint(path, rule, message string, nth int) string {
	h := sha256.New()
	for _, s := range []string{path, rule, message, strconv.Itoa(nth)} {
		h.Write([]byte(strconv.Itoa(len(s)) + ":" + s)) // length-prefixed: no two inputs run together alike
	}
	return hex.EncodeToString(h.Sum(nil))
}

// gitlabFormatter writes the array an issue at a time.
type gitlabFormatter struct {
	w      io.Writer
	issues int // written so far
}

func (g *gitlabFormatter) File(r *File) error {
	// GitLab reads the path as relative to the repository's root, with
	// forward slashes; baton check runs there in a CI job.
	path := filepath.ToSlash(belowWD(r.Name))
	seen := map[[2]string]int{}
	var out []byte
	for _, f := range r.Findings {
		start := r.Doc.Lines.Position(f.Span.Start, markdown.UTF8)
		end := r.Doc.Lines.Position(f.Span.End, markdown.UTF8)
		if end.Line > start.Line && end.Character == 0 {
			end.Line-- // the span ends with a line break
		}
		key := [2]string{f.Rule, f.Message}
		seen[key]++
		issue := gitlabIssue{
			Type:        "issue",
			CheckName:   f.Rule,
			Description: f.Rule + ": " + oneLine(f.Message),
			Severity:    gitlabSeverity(f.Severity),
			Fingerprint: gitlabFingerprint(path, f.Rule, f.Message, seen[key]),
			Location:    gitlabLocation{Path: path, Lines: gitlabLines{Begin: start.Line + 1, End: end.Line + 1}},
		}
		b, err := encodeIndented(issue, "  ")
		if err != nil {
			return err
		}
		if g.issues == 0 {
			out = append(out, '[')
		} else {
			out = append(out, ',')
		}
		out = append(out, "\n  "...)
		out = append(out, b...)
		g.issues++
	}
	_, err := g.w.Write(out)
	return err
}

func (g *gitlabFormatter) End() error {
	closing := "\n]\n"
	if g.issues == 0 {
		closing = "[]\n"
	}
	_, err := io.WriteString(g.w, closing)
	return err
}
