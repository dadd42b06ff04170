package trailers

import (
	"fmt"
	"strings"
)

// Detection is the coding agent sentinel finds in its environment.
type Detection struct {
	// Agent is the known agent, or nil for an agent named only by a
	// generic marker (AI_AGENT, AGENT, SENTINEL_AGENT).
	Agent *Agent
	// Name is the name written in Assisted-by.
	Name string
	// Model is the model, or empty when neither the agent nor the
	// configuration names one.
	Model string
	// Source is the environment variable that revealed the agent.
	Source string
	// ModelSource says where the model came from.
	ModelSource string
}

// Getenv reads an environment variable; os.Getenv in production.
type Getenv func(string) string

// Detect finds the coding agent running sentinel, or returns nil. An
// explicit SENTINEL_AGENT=name[:model] wins; then the markers of the known
// agents, in table order; then the generic AI_AGENT and AGENT. models maps
// an agent ID to the model to assume when the agent does not expose one.
func Detect(getenv Getenv, models map[string]string) *Detection {
	d := detectAgent(getenv)
	if d == nil {
		return nil
	}
	if d.Model == "" && d.Agent != nil {
		for _, v := range d.Agent.ModelVars {
			if m := getenv(v); m != "" {
				d.Model, d.ModelSource = m, v
				break
			}
		}
	}
	if d.Model == "" {
		key := strings.ToLower(d.Name)
		if d.Agent != nil {
			key = d.Agent.ID
		}
		if m := models[key]; m != "" {
			d.Model, d.ModelSource = m, fmt.Sprintf("config [trailers.models] %s", key)
		}
	}
	d.Name = noSpaces(d.Name)
	d.Model = noSpaces(d.Model)
	return d
}

func detectAgent(getenv Getenv) *Detection {
	if v := strings.TrimSpace(getenv("SENTINEL_AGENT")); v != "" {
		name, model, _ := strings.Cut(v, ":")
		d := named(name, "SENTINEL_AGENT")
		if model != "" {
			d.Model, d.ModelSource = model, "SENTINEL_AGENT"
		}
		return d
	}
	for _, a := range Known {
		for _, m := range a.Markers {
			v := getenv(m.Var)
			if v == "" || m.Value != "" && !strings.EqualFold(v, m.Value) {
				continue
			}
			src := m.Var
			if m.Value != "" {
				src += "=" + v
			}
			return &Detection{Agent: a, Name: a.Name, Source: src}
		}
	}
	for _, k := range []string{"AI_AGENT", "AGENT"} {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			return named(v, k+"="+v)
		}
	}
	return nil
}

// named resolves an agent given by name, known or not.
func named(name, source string) *Detection {
	if a := Lookup(name); a != nil {
		return &Detection{Agent: a, Name: a.Name, Source: source}
	}
	return &Detection{Name: name, Source: source}
}

func noSpaces(s string) string {
	return strings.Join(strings.Fields(s), "-")
}

// DefaultFormat is the Assisted-by value in the kernel's form.
const DefaultFormat = "{agent}:{model}"

// UnknownModel stands in for a model nobody named, so that the value keeps
// the AGENT:MODEL shape that checkpatch expects.
const UnknownModel = "unknown"

// Value renders the Assisted-by value from a format with the placeholders
// {agent}, {model} and {tools}; tools are appended after the model as the
// kernel's "[TOOL1] [TOOL2]".
func (d *Detection) Value(format string, tools []string) string {
	if format == "" {
		format = DefaultFormat
	}
	model := d.Model
	if model == "" {
		model = UnknownModel
	}
	var ts []string
	for _, t := range tools {
		if t = noSpaces(t); t != "" {
			ts = append(ts, t)
		}
	}
	r := strings.NewReplacer("{agent}", d.Name, "{model}", model, "{tools}", strings.Join(ts, " "))
	v := strings.TrimSpace(r.Replace(format))
	if len(ts) > 0 && !strings.Contains(format, "{tools}") {
		v += " " + strings.Join(ts, " ")
	}
	return v
}
