package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/keyfindings/keyfindings/findings"
	"github.com/keyfindings/keyfindings/route"
)

func runRoute(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("route", stderr)
	fs.Usage = commandUsage(fs, "keyfindings route [flags] MODEL-ID", "Evaluates the extracted routing and tool rules at --ref for MODEL-ID (the provider's API id) and --provider: the prompt file, the advertised tools and their tokens, each decision cited.")
	var src sourceFlags
	src.register(fs)
	provider := fs.String("provider", "", "the provider id the model is used through (default: the one routes data gives for MODEL-ID, else none)")
	format := fs.String("format", "text", "output format: text, md or json")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("want one model id, got %d arguments (usage: keyfindings route MODEL-ID [--provider ID])", len(rest))
	}
	switch *format {
	case "text", "md", "json":
	default:
		return usagef("--format %q: want text, md or json", *format)
	}
	cfg, err := route.ParseConfig(findings.RoutesData(), "findings/routes.yaml")
	if err != nil {
		return err
	}
	m := route.Model{ID: rest[0], Provider: *provider}
	if m.Provider == "" {
		for _, rm := range cfg.Models {
			if rm.ID == m.ID {
				m.Provider = rm.Provider
			}
		}
	}
	_, res, err := src.extractOne(stderr)
	if err != nil {
		return err
	}
	rt, err := route.Evaluate(res.Document, cfg, m)
	if err != nil {
		return fmt.Errorf("%v (at %s; check the definitions with `keyfindings build --strict`)", err, findings.SourceLabel(res.Document.Source))
	}
	switch *format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(rt)
	case "md":
		_, err = io.WriteString(stdout, route.Markdown(rt))
	default:
		_, err = io.WriteString(stdout, route.Text(rt))
	}
	return err
}
