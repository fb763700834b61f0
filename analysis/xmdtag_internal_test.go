package analysis

import (
	"strings"
	"testing"
)

// The engine's grammar reads unclosed tags nested in unclosed tags in time
// quadratic or worse; baton's reading spends a budget linear in the text,
// and past it still answers (a closing tag or "/>" somewhere after).
func TestXMDScanBudget(t *testing.T) {
	tests := []struct {
		name string
		text string
		want Kind
	}{
		{"nested unclosed, one closer", strings.Repeat("<If>", 20000) + "</If>", KindWorkflow},
		{"nested unclosed with text", strings.Repeat("<If>x ", 20000) + "</If></If>", KindWorkflow},
		{"unterminated values", strings.Repeat("<A x=\"", 20000), KindOther},
		{"unterminated expressions", strings.Repeat("<A {", 20000), KindOther},
		{"distinct names, never closed", func() string {
			var b strings.Builder
			for i := range 5000 {
				b.WriteString("<A" + strings.Repeat("b", i%50) + ">")
			}
			return b.String()
		}(), KindOther},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Parse("f.md", tt.text)
			if d.Kind != tt.want {
				t.Errorf("Kind = %v, want %v", d.Kind, tt.want)
			}
			s := xmdScan{text: d.Source}
			budget := 32*len(d.Source) + 1<<16
			for i := strings.Index(tt.text, "<"); i >= 0 && i < len(tt.text); i++ {
				if tt.text[i] == '<' {
					s.isXMDTag(i)
				}
			}
			if used := budget - s.budget; used > budget+maxOpenTag {
				t.Errorf("%d steps for %d bytes, over the budget of %d", used, len(d.Source), budget)
			}
		})
	}
}
