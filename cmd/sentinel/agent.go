//go:build !sentinel_front

package main

import (
	"fmt"

	"github.com/gitsentinel/sentinel/internal/jsonout"
	"github.com/gitsentinel/sentinel/trailers"
	"github.com/urfave/cli/v2"
)

// agentOptions are the flags of `sentinel agent`.
type agentOptions struct {
	format string
}

func agentCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "agent",
		Usage: "print the coding agent sentinel detects and the Assisted-by line it would add",
		Flags: []cli.Flag{formatFlag("text", "json")},
		Action: func(c *cli.Context) error {
			f, err := checkFormat(c, "text", "json")
			if err != nil {
				return err
			}
			return reportIn(e, f, func(e *env) error { return runAgent(c, e, agentOptions{format: f}) })
		},
	}
}

func runAgent(c *cli.Context, e *env, o agentOptions) error {
	s, err := trailers.LoadConfig(c.Context, e.dir)
	if err != nil {
		return err
	}
	d := s.Detect(e.agentEnv())
	line := ""
	if d != nil {
		line = trailers.AssistedBy + ": " + d.Value(s.Config.Trailers.Format, s.Config.Trailers.Tools)
	}
	if o.format == "json" {
		type out struct {
			Detected    bool   `json:"detected"`
			Agent       string `json:"agent,omitempty"`
			Product     string `json:"product,omitempty"`
			Source      string `json:"source,omitempty"`
			Model       string `json:"model,omitempty"`
			ModelSource string `json:"model_source,omitempty"`
			Line        string `json:"line,omitempty"`
		}
		o := out{Detected: d != nil, Line: line}
		if d != nil {
			o.Agent, o.Source, o.Model, o.ModelSource = d.Name, d.Source, d.Model, d.ModelSource
			if d.Agent != nil {
				o.Product = d.Agent.Product
			}
		}
		return jsonout.Write(e.stdout, o)
	}
	if d == nil {
		_, err := fmt.Fprintln(e.stdout, "no coding agent detected: commits get no Assisted-by")
		return err
	}
	product := d.Name
	if d.Agent != nil {
		product = d.Agent.Product
	}
	model := d.Model
	if model == "" {
		hint := "set [trailers.models] in " + ".sentinel/config.toml"
		if d.Agent != nil && len(d.Agent.ModelVars) > 0 {
			hint = "set " + d.Agent.ModelVars[0] + " or [trailers.models] " + d.Agent.ID + " in .sentinel/config.toml"
		}
		model = trailers.UnknownModel + " (" + hint + ")"
	} else {
		model += " (from " + d.ModelSource + ")"
	}
	_, err = fmt.Fprintf(e.stdout, "agent:  %s (from %s)\nmodel:  %s\nadds:   %s\n", product, d.Source, model, line)
	return err
}
