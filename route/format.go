package route

import (
	"fmt"
	"strings"

	"github.com/keyfindings/keyfindings/findings"
)

func tokensText(t *findings.Tokens) string {
	if t == nil {
		return "not counted"
	}
	return fmt.Sprintf("%d o200k_base, %d cl100k_base", t.O200kBase, t.Cl100kBase)
}

func citeText(c Citation) string {
	s := c.Record
	if c.Path != "" {
		s += " (" + c.Path + " " + c.Lines
		if len(c.SHA256) >= 12 {
			s += " sha256 " + c.SHA256[:12] + "…"
		}
		s += ")"
	}
	return s
}

func stepText(s Step) string {
	out := s.Rule + " → " + s.Outcome
	if len(s.Unknown) > 0 {
		out += " (" + strings.Join(s.Unknown, "; ") + ")"
	}
	return out
}

// Text renders a route for a terminal.
func Text(rt *Route) string {
	var b strings.Builder
	provider := rt.Provider
	if provider == "" {
		provider = "(none given)"
	}
	fmt.Fprintf(&b, "model %s, provider %s\n\nprompt: ", rt.Model, provider)
	if rt.Prompt.Path == "" {
		fmt.Fprintf(&b, "undecided: %s\n", strings.Join(rt.Prompt.Undecided, "; "))
	} else {
		rule := rt.Prompt.Rule
		if rule == "" {
			rule = "no rule holds: the fallback"
		}
		fmt.Fprintf(&b, "%s\n  chosen by: %s\n  tokens: %s\n", rt.Prompt.Path, rule, tokensText(rt.Prompt.Tokens))
	}
	for _, s := range rt.Prompt.Steps {
		fmt.Fprintf(&b, "  rule: %s\n", stepText(s))
	}
	for _, c := range rt.Prompt.Cites {
		fmt.Fprintf(&b, "  cites: %s\n", citeText(c))
	}
	b.WriteString("\ntools:\n")
	for _, t := range rt.Tools {
		id := t.ID
		if t.Description == "" {
			id += " (registry key; no description record names " + t.Definition + ")"
		}
		fmt.Fprintf(&b, "  %-12s %-8s tokens: %s\n", id, t.Advertised, tokensText(t.Tokens))
		for _, s := range t.Steps {
			fmt.Fprintf(&b, "      %s\n", stepText(s))
		}
		var cs []string
		for _, c := range t.Cites {
			cs = append(cs, c.Record)
		}
		fmt.Fprintf(&b, "      cites: %s\n", strings.Join(cs, ", "))
	}
	b.WriteString("\ntokens by section:\n")
	for _, s := range rt.Sections {
		fmt.Fprintf(&b, "  %-24s %s", s.Name, tokensText(s.Tokens))
		if s.Note != "" {
			fmt.Fprintf(&b, " — %s", s.Note)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "  %-24s %s (counted sections only)\n", "total", tokensText(rt.Tokens))
	b.WriteString("\nat run time (not covered):\n")
	for _, r := range rt.RunTime {
		fmt.Fprintf(&b, "  %s\n", r)
	}
	return b.String()
}

// Markdown renders a route as Markdown.
func Markdown(rt *Route) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Route of `%s` (provider `%s`)\n\n", rt.Model, rt.Provider)
	if rt.Prompt.Path == "" {
		fmt.Fprintf(&b, "**Prompt:** undecided — %s\n\n", mdEscape(strings.Join(rt.Prompt.Undecided, "; ")))
	} else {
		rule := "no rule holds (fallback)"
		if rt.Prompt.Rule != "" {
			rule = "`" + rt.Prompt.Rule + "`"
		}
		fmt.Fprintf(&b, "**Prompt:** `%s`, chosen by %s; %s tokens.\n\n", rt.Prompt.Path, rule, tokensText(rt.Prompt.Tokens))
	}
	b.WriteString("| tool | advertised | tokens (o200k) | decided by |\n| --- | --- | ---: | --- |\n")
	for _, t := range rt.Tools {
		tok := "—"
		if t.Tokens != nil {
			tok = fmt.Sprint(t.Tokens.O200kBase)
		}
		var steps []string
		for _, s := range t.Steps {
			steps = append(steps, mdEscape(stepText(s)))
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", t.ID, t.Advertised, tok, strings.Join(steps, "<br>"))
	}
	b.WriteString("\n| section | tokens | note |\n| --- | --- | --- |\n")
	for _, s := range rt.Sections {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", s.Name, tokensText(s.Tokens), mdEscape(s.Note))
	}
	fmt.Fprintf(&b, "| **total** | %s | counted sections only |\n", tokensText(rt.Tokens))
	return b.String()
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ", "<", "&lt;", ">", "&gt;").Replace(s)
}
