package ghaction

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Action is a composite action as its action.yml describes it.
type Action struct {
	// Inputs maps each input to its default.
	Inputs map[string]string
	// Steps are runs.steps, in order.
	Steps []Step
}

// Step is one step of a composite action.
type Step struct {
	Name, ID, If, Uses, Shell, Run, WorkingDirectory string
	Env, With                                        map[string]string
	// Line is where the step starts in action.yml, for messages.
	Line int
}

// Label names the step for messages: its name, its id, or what it uses.
func (s Step) Label() string {
	switch {
	case s.Name != "":
		return s.Name
	case s.ID != "":
		return s.ID
	}
	return s.Uses
}

// Load reads a composite action from action.yml.
func Load(path string) (*Action, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	doc, err := parseYAML(path, data)
	if err != nil {
		return nil, err
	}
	top, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s:1:1: an action is a mapping", path)
	}
	a := &Action{Inputs: map[string]string{}}
	if in, ok := top["inputs"].(map[string]any); ok {
		for k, v := range in {
			m, _ := v.(map[string]any)
			a.Inputs[k], _ = m["default"].(string)
		}
	}
	runs, _ := top["runs"].(map[string]any)
	if runs["using"] != "composite" {
		return nil, fmt.Errorf("%s: runs.using is %v, not composite", path, runs["using"])
	}
	steps, _ := runs["steps"].([]any)
	for i, s := range steps {
		m, ok := s.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: step %d is not a mapping", path, i+1)
		}
		str := func(k string) string { v, _ := m[k].(string); return v }
		strs := func(k string) map[string]string {
			out := map[string]string{}
			mm, _ := m[k].(map[string]any)
			for kk, vv := range mm {
				out[kk], _ = vv.(string)
			}
			return out
		}
		st := Step{Name: str("name"), ID: str("id"), If: str("if"), Uses: str("uses"), Shell: str("shell"), Run: str("run"),
			WorkingDirectory: str("working-directory"), Env: strs("env"), With: strs("with")}
		if st.Uses == "" && (st.Run == "" || st.Shell == "") {
			return nil, fmt.Errorf("%s: step %q: a composite run step needs run and shell", path, st.Label())
		}
		a.Steps = append(a.Steps, st)
	}
	return a, nil
}

// Context is what a run knows beyond the action: the runner's environment
// and the values expressions read.
type Context struct {
	// Env is the environment every step starts from (PATH, HOME, and the
	// GITHUB_* and RUNNER_* variables the runner sets).
	Env []string
	// Inputs are the inputs the workflow gives; the rest take their
	// defaults.
	Inputs map[string]string
	// ActionPath is github.action_path, the action's own source.
	ActionPath string
	// Workspace is github.workspace, where steps start.
	Workspace string
}

// StepResult is what one step did.
type StepResult struct {
	Step    Step
	Skipped bool // a `uses:` step, which this runner does not run
	Stdout  string
	Stderr  string
	Code    int
	Outputs map[string]string
}

// Result is what a run of the action did, step by step.
type Result struct {
	Steps []StepResult
	// Failed is the step that failed, or nil; the steps after it did not
	// run, as on a runner.
	Failed *StepResult
}

// Stdout is everything the steps printed on standard output, in order.
func (r *Result) Stdout() string {
	var b strings.Builder
	for _, s := range r.Steps {
		b.WriteString(s.Stdout)
	}
	return b.String()
}

// run holds the state that passes from step to step.
type run struct {
	ctx     *Context
	action  *Action
	env     map[string]string
	paths   []string // GITHUB_PATH additions, newest first
	outputs map[string]map[string]string
	event   map[string]any
}

// Run runs the action's steps in order under ctx, with bash as a runner
// starts it (`bash --noprofile --norc -eo pipefail FILE`), until one
// fails.
func (a *Action) Run(c context.Context, ctx *Context) (*Result, error) {
	r := &run{ctx: ctx, action: a, env: map[string]string{}, outputs: map[string]map[string]string{}}
	for _, kv := range ctx.Env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			r.env[k] = v
		}
	}
	if p := r.env["GITHUB_EVENT_PATH"]; p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("the event: %w", err)
		}
		if err := json.Unmarshal(data, &r.event); err != nil {
			return nil, fmt.Errorf("the event %s: %w", p, err)
		}
	}
	res := &Result{}
	for _, st := range a.Steps {
		if st.Uses != "" {
			res.Steps = append(res.Steps, StepResult{Step: st, Skipped: true})
			continue
		}
		sr, err := r.step(c, st)
		if err != nil {
			return nil, fmt.Errorf("step %q: %w", st.Label(), err)
		}
		res.Steps = append(res.Steps, *sr)
		if sr.Code != 0 {
			res.Failed = &res.Steps[len(res.Steps)-1]
			break
		}
	}
	return res, nil
}

func (r *run) step(c context.Context, st Step) (*StepResult, error) {
	if st.If != "" {
		return nil, errors.New("this runner does not evaluate if: on a run step")
	}
	if st.Shell != "bash" {
		return nil, fmt.Errorf("shell %q: this runner runs bash steps only", st.Shell)
	}
	tmp, err := os.MkdirTemp("", "ghaction-step-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	script := filepath.Join(tmp, "step.sh")
	if err := os.WriteFile(script, []byte(st.Run), 0o600); err != nil {
		return nil, err
	}
	files := map[string]string{}
	for _, k := range []string{"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH"} {
		files[k] = filepath.Join(tmp, strings.ToLower(k))
		if err := os.WriteFile(files[k], nil, 0o600); err != nil {
			return nil, err
		}
	}

	env := map[string]string{}
	for k, v := range r.env {
		env[k] = v
	}
	for k, v := range files {
		env[k] = v
	}
	if len(r.paths) > 0 {
		env["PATH"] = strings.Join(r.paths, string(os.PathListSeparator)) + string(os.PathListSeparator) + env["PATH"]
	}
	for k, v := range st.Env {
		if env[k], err = r.expand(v); err != nil {
			return nil, fmt.Errorf("env %s: %w", k, err)
		}
	}
	dir := r.ctx.Workspace
	if st.WorkingDirectory != "" {
		wd, err := r.expand(st.WorkingDirectory)
		if err != nil {
			return nil, fmt.Errorf("working-directory: %w", err)
		}
		if !filepath.IsAbs(wd) {
			wd = filepath.Join(r.ctx.Workspace, wd)
		}
		dir = wd
	}

	cmd := exec.CommandContext(c, "bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir = dir
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		cmd.Env = append(cmd.Env, k+"="+env[k])
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	sr := &StepResult{Step: st}
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return nil, err
		}
		sr.Code = ee.ExitCode()
	}
	sr.Stdout, sr.Stderr = stdout.String(), stderr.String()

	if sr.Outputs, err = readCommandFile(files["GITHUB_OUTPUT"]); err != nil {
		return nil, err
	}
	if st.ID != "" {
		r.outputs[st.ID] = sr.Outputs
	}
	setEnv, err := readCommandFile(files["GITHUB_ENV"])
	if err != nil {
		return nil, err
	}
	for k, v := range setEnv {
		r.env[k] = v
	}
	data, err := os.ReadFile(files["GITHUB_PATH"])
	if err != nil {
		return nil, err
	}
	for _, p := range strings.Split(string(data), "\n") {
		if p = strings.TrimSpace(p); p != "" {
			r.paths = append([]string{p}, r.paths...)
		}
	}
	return sr, nil
}

// readCommandFile reads GITHUB_OUTPUT or GITHUB_ENV: NAME=VALUE lines and
// NAME<<DELIMITER blocks.
func readCommandFile(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		ln := lines[i]
		if ln == "" {
			continue
		}
		if k, delim, ok := strings.Cut(ln, "<<"); ok && !strings.Contains(k, "=") {
			var val []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				val = append(val, lines[i])
			}
			if i == len(lines) {
				return nil, fmt.Errorf("%s: %s<<%s has no end", filepath.Base(path), k, delim)
			}
			out[k] = strings.Join(val, "\n")
			continue
		}
		k, v, ok := strings.Cut(ln, "=")
		if !ok {
			return nil, fmt.Errorf("%s: %q is neither NAME=VALUE nor NAME<<DELIMITER", filepath.Base(path), ln)
		}
		out[k] = v
	}
	return out, nil
}

// exprRe finds the expressions in a value.
var exprRe = regexp.MustCompile(`\$\{\{(.*?)\}\}`)

// expand replaces each `${{ … }}` in s with its value. An expression is
// operands joined by ||, the first that is not empty winning, as in
// GitHub's expressions; an operand is a 'string' or a context path
// (inputs.*, github.*, github.event.*, runner.*, steps.ID.outputs.*,
// env.*). An unknown path is an error, so that a typo fails the test
// rather than reading as empty.
func (r *run) expand(s string) (string, error) {
	var firstErr error
	out := exprRe.ReplaceAllStringFunc(s, func(m string) string {
		expr := exprRe.FindStringSubmatch(m)[1]
		for _, op := range strings.Split(expr, "||") {
			v, err := r.operand(strings.TrimSpace(op))
			if err != nil {
				if firstErr == nil {
					firstErr = fmt.Errorf("${{%s}}: %w", expr, err)
				}
				return ""
			}
			if v != "" {
				return v
			}
		}
		return ""
	})
	return out, firstErr
}

func (r *run) operand(op string) (string, error) {
	if len(op) >= 2 && op[0] == '\'' && op[len(op)-1] == '\'' {
		return strings.ReplaceAll(op[1:len(op)-1], "''", "'"), nil
	}
	parts := strings.Split(op, ".")
	switch {
	case parts[0] == "inputs" && len(parts) == 2:
		def, ok := r.action.Inputs[parts[1]]
		if !ok {
			return "", fmt.Errorf("the action has no input %s", parts[1])
		}
		if v, ok := r.ctx.Inputs[parts[1]]; ok {
			return v, nil
		}
		return def, nil
	case op == "github.action_path":
		return r.ctx.ActionPath, nil
	case op == "github.workspace":
		return r.ctx.Workspace, nil
	case op == "github.sha":
		return r.env["GITHUB_SHA"], nil
	case op == "runner.os":
		return r.env["RUNNER_OS"], nil
	case op == "runner.temp":
		return r.env["RUNNER_TEMP"], nil
	case parts[0] == "env" && len(parts) == 2:
		return r.env[parts[1]], nil
	case parts[0] == "steps" && len(parts) == 4 && parts[2] == "outputs":
		return r.outputs[parts[1]][parts[3]], nil
	case len(parts) > 2 && parts[0] == "github" && parts[1] == "event":
		// A missing field is empty, as on GitHub: a push has no
		// pull_request.
		var v any = r.event
		for _, p := range parts[2:] {
			m, ok := v.(map[string]any)
			if !ok {
				return "", nil
			}
			v = m[p]
		}
		switch v := v.(type) {
		case nil:
			return "", nil
		case string:
			return v, nil
		default:
			b, err := json.Marshal(v)
			return string(b), err
		}
	}
	return "", fmt.Errorf("%s is not a context this runner knows", op)
}
