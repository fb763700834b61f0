package audit

import (
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"
)

// Text writes the report for a terminal: each session with its stops,
// then the totals and the blocks by rule.
func (r *Report) Text(w io.Writer) error {
	var b strings.Builder
	for _, s := range r.Sessions {
		id := s.ID
		if id == "" {
			id = "(no id)"
		}
		fmt.Fprintf(&b, "%s session %s  %s\n", s.Host, id, s.Path)
		fmt.Fprintf(&b, "  %d stop(s), %d would be blocked", len(s.Stops), s.Blocked)
		if s.HookBlocked > 0 {
			fmt.Fprintf(&b, ", %d blocked by the hook", s.HookBlocked)
		}
		if s.Skipped > 0 {
			fmt.Fprintf(&b, " (%d unreadable line(s) skipped)", s.Skipped)
		}
		b.WriteString("\n")
		for _, st := range s.Stops {
			when := ""
			if st.Time != nil {
				when = " " + st.Time.UTC().Format("2006-01-02 15:04")
			}
			hook := ""
			if st.Hook != "" {
				hook = "  hook: " + st.Hook
			}
			fmt.Fprintf(&b, "  #%-3d %-5s %-12s%s  %s%s\n", st.N, st.Verdict, st.Outcome, when, st.Excerpt, hook)
			for _, f := range st.Findings {
				fmt.Fprintf(&b, "         %s\n", f)
			}
			if st.HookReason != "" {
				for _, l := range strings.Split(st.HookReason, "\n") {
					fmt.Fprintf(&b, "         hook: %s\n", l)
				}
			}
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%d session(s), %d stop(s), %d would be blocked", len(r.Sessions), r.Stops, r.Blocked)
	if r.Hooked > 0 {
		fmt.Fprintf(&b, "; the hosts recorded their hook's answer at %d, of which %d blocked", r.Hooked, r.HookBlocked)
	}
	b.WriteString("\n")
	if len(r.ByRule) > 0 {
		b.WriteString("by rule:\n")
		for _, c := range r.ByRule {
			fmt.Fprintf(&b, "  %-40s %d stop(s) in %d session(s)\n", c.Rule, c.Stops, c.Sessions)
		}
	}
	for _, p := range r.Problems {
		fmt.Fprintf(&b, "not read: %s\n", p)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// JSON writes the report as one JSON object.
func (r *Report) JSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

//go:embed report.html.tmpl
var templates embed.FS

// page is the report's template, parsed when first used: every baton
// process (each stop hook among them) would otherwise parse it at its
// start.
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report.html.tmpl").Funcs(template.FuncMap{
		"pct": func(a, b int) int {
			if b == 0 {
				return 0
			}
			return a * 100 / b
		},
	}).ParseFS(templates, "report.html.tmpl"))
})

// HTML writes the report as one self-contained page (no external asset):
// a timeline of stops per session coloured by verdict, and a table by rule.
func (r *Report) HTML(w io.Writer) error { return page().Execute(w, r) }
