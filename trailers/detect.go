package trailers

import (
	"fmt"
	"strings"

	"github.com/gitsentinel/sentinel/internal/agentmark"
)

// Detection is the coding agent sentinel finds running it.
type Detection struct {
	// Agent is the known agent, or nil for an agent named only by a
	// generic marker (AI_AGENT, AGENT, SENTINEL_AGENT).
	Agent *Agent
	// Name is the name written in Assisted-by.
	Name string
	// Model is the model, or empty when neither the agent nor the
	// configuration names one.
	Model string
	// Source says what revealed the agent: an environment variable
	// ("CLAUDECODE=1") or a parent process ("process 1234 (claude)").
	Source string
	// ModelSource says where the model came from.
	ModelSource string
	// PID is the agent's process when the walk up the process tree found
	// it, or 0.
	PID int
}

// Getenv reads an environment variable; os.Getenv in production.
type Getenv func(string) string

// Env is what agent detection reads of the world: this process's
// environment and the processes above it.
type Env struct {
	// Getenv reads this process's environment.
	Getenv Getenv
	// Processes walks the parent processes; nil reads the environment
	// alone.
	Processes *Ancestry
	// Mark is the agent mark of the sandbox `sentinel run` started this
	// process in, or nil outside one. It lives in the sandbox's mounts,
	// so no environment or process tree can shed it.
	Mark *agentmark.Mark
}

// Detect finds the coding agent running sentinel, or returns nil. An
// explicit SENTINEL_AGENT=name[:model] names an agent sentinel cannot see;
// then the nearest parent process that runs a known agent's program wins,
// because an agent can unset its markers but not hide its program from the
// commands it starts (a person's shell inside an agent's session is under
// the agent too, and is taken for it); then the mark of the sandbox
// `sentinel run` started this process in, which env -i and setsid cannot
// remove and SENTINEL_AGENT cannot rename; then the markers of the known agents
// in this environment, in table order, and in the environments the parent
// processes started with; then the generic AI_AGENT and AGENT. models maps
// an agent ID to the model to assume when neither the agent's command line,
// its environment nor its settings name one.
func Detect(env Env, models map[string]string) *Detection {
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	anc := env.Processes
	override := detectOverride(getenv)
	own := detectEnv(getenv)

	// One walk finds the nearest agent program and, when this environment
	// shows no known agent, the nearest marker a parent started with.
	var proc *agentProcess
	var inherited *Detection
	var inheritedEnv []string
	lookInEnv := own == nil || own.Agent == nil
	anc.walk(MaxDepth, func(p *Process) bool {
		if a, rest := matchProcess(p); a != nil {
			proc = &agentProcess{proc: p, agent: a, args: rest}
			return false
		}
		if lookInEnv && inherited == nil {
			environ := anc.Table.Environ(p.PID)
			if a, m := markerIn(environ); a != nil {
				inherited = &Detection{Agent: a, Name: a.Name, PID: p.PID,
					Source: fmt.Sprintf("%s in the environment of process %d (%s)", m, p.PID, p.Name())}
				inheritedEnv = environ
			}
		}
		return true
	})

	var d *Detection
	var environ []string
	switch {
	case proc != nil && (override == nil || override.Agent != proc.agent):
		// SENTINEL_AGENT cannot rename an agent whose program is running.
		d = &Detection{Agent: proc.agent, Name: proc.agent.Name, PID: proc.proc.PID,
			Source: fmt.Sprintf("process %d (%s)", proc.proc.PID, proc.proc.Name())}
	case env.Mark != nil:
		d = named(env.Mark.Agent, "the sandbox's agent mark ("+agentmark.Path+")")
		if env.Mark.Model != "" {
			d.Model, d.ModelSource = env.Mark.Model, d.Source
		}
	case override != nil:
		d = override
	case own != nil && own.Agent != nil:
		d = own
	case inherited != nil:
		d, environ = inherited, inheritedEnv
	default:
		d = own
	}
	if d == nil {
		return nil
	}
	var profile string
	if proc != nil && d.Agent == proc.agent {
		d.PID = proc.proc.PID
		profile = resolveFromProcess(d, proc)
		environ = anc.Table.Environ(proc.proc.PID)
	}
	resolveModel(d, getenv, environ, anc, models, profile)
	d.Name = noSpaces(d.Name)
	d.Model = noSpaces(d.Model)
	return d
}

// agentProcess is a parent process that runs a known agent's program.
type agentProcess struct {
	proc  *Process
	agent *Agent
	// args are the arguments the agent's program got: after argv[0], or
	// after the script an interpreter runs.
	args []string
}

// resolveFromProcess reads the model from the agent's command line, and
// returns the configuration profile it names, if any.
func resolveFromProcess(d *Detection, p *agentProcess) (profile string) {
	m, flag, profile := p.agent.modelFromArgs(p.args)
	if d.Model == "" && m != "" {
		d.Model, d.ModelSource = m, fmt.Sprintf("%s in the command line of process %d", flag, p.proc.PID)
	}
	return profile
}

// resolveModel fills in the model from, in order: the environment the
// agent started with, this environment, the agent's settings files (with
// the configuration profile its command line chose), and the project's
// configuration.
func resolveModel(d *Detection, getenv Getenv, environ []string, anc *Ancestry, models map[string]string, profile string) {
	if d.Model == "" && d.Agent != nil {
		for _, v := range d.Agent.ModelVars {
			if m := cleanModel(lookupEnv(environ, v)); m != "" {
				d.Model, d.ModelSource = m, fmt.Sprintf("%s in the environment of process %d", v, d.PID)
				break
			}
			if m := cleanModel(getenv(v)); m != "" {
				d.Model, d.ModelSource = m, v
				break
			}
		}
	}
	if d.Model == "" && d.Agent != nil && anc != nil {
		project := anc.WorkDir
		if d.PID != 0 && anc.Table != nil {
			if dir := anc.Table.Dir(d.PID); dir != "" {
				project = dir
			}
		}
		envOf := func(k string) string {
			if v := lookupEnv(environ, k); v != "" {
				return v
			}
			return getenv(k)
		}
		if m, where := anc.modelFromFiles(d.Agent, project, envOf, profile); m != "" {
			d.Model, d.ModelSource = m, where
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
}

// detectOverride reads SENTINEL_AGENT=name[:model].
func detectOverride(getenv Getenv) *Detection {
	v := strings.TrimSpace(getenv("SENTINEL_AGENT"))
	if v == "" {
		return nil
	}
	name, model, _ := strings.Cut(v, ":")
	d := named(name, "SENTINEL_AGENT")
	if model != "" {
		d.Model, d.ModelSource = model, "SENTINEL_AGENT"
	}
	return d
}

// detectEnv reads the markers of this environment: the known agents' in
// table order, then the generic AI_AGENT and AGENT.
func detectEnv(getenv Getenv) *Detection {
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

// markerIn finds a known agent's marker in an environment ("NAME=value"
// strings) and returns the agent and the marker as "NAME=value" or "NAME".
func markerIn(environ []string) (*Agent, string) {
	if len(environ) == 0 {
		return nil, ""
	}
	for _, a := range Known {
		for _, m := range a.Markers {
			v := lookupEnv(environ, m.Var)
			if v == "" || m.Value != "" && !strings.EqualFold(v, m.Value) {
				continue
			}
			if m.Value != "" {
				return a, m.Var + "=" + v
			}
			return a, m.Var
		}
	}
	return nil, ""
}

// lookupEnv finds a variable in an environment; the last setting wins, as
// getenv reads it.
func lookupEnv(environ []string, name string) string {
	for i := len(environ) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(environ[i], "="); ok && k == name {
			return v
		}
	}
	return ""
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
