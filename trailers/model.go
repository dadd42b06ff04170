package trailers

import (
	"bytes"
	"encoding/json"
	"path"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
)

// matchProcess returns the known agent whose program the process runs,
// and the arguments that program got; nil when it runs none.
func matchProcess(p *Process) (*Agent, []string) {
	names := p.names()
	for _, a := range Known {
		if a.isProgram(names...) || a.onPath(p.Exe) {
			if len(p.Args) > 1 {
				return a, p.Args[1:]
			}
			return a, []string{}
		}
	}
	kind := p.interpreter()
	if kind == "" {
		return nil, nil
	}
	script, rest, ok := p.script(kind)
	if !ok {
		return nil, nil
	}
	for _, a := range Known {
		if a.isProgram(scriptName(script)) || a.onPath(script) {
			if rest == nil {
				rest = []string{}
			}
			return a, rest
		}
	}
	return nil, nil
}

// isProgram reports whether one of the names is the agent's program.
func (a *Agent) isProgram(names ...string) bool {
	for _, n := range names {
		for _, p := range a.Programs {
			if n == p {
				return true
			}
		}
	}
	return false
}

// onPath reports whether a program's or script's path lies where the agent
// is installed.
func (a *Agent) onPath(p string) bool {
	if p == "" {
		return false
	}
	p = filepath.ToSlash(p)
	for _, frag := range a.Paths {
		if strings.Contains(p, frag) {
			return true
		}
	}
	return false
}

// scriptName is a script's base name, lower-case, without the extension of
// a script language: "/usr/lib/node_modules/x/bin/codex.js" is "codex".
func scriptName(script string) string {
	base := strings.ToLower(path.Base(filepath.ToSlash(script)))
	switch ext := path.Ext(base); ext {
	case ".js", ".mjs", ".cjs", ".ts", ".py", ".sh":
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// modelFromArgs reads the model an agent's command line chooses: the last
// of its model options (`--model X`, `--model=X`, `-m X` where the agent
// reads -m so) or of `-c model=X`, and the configuration profile it
// chooses. Arguments after "--" are not options.
func (a *Agent) modelFromArgs(args []string) (model, flag, profile string) {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			break
		}
		if v, f, n, ok := optionValue(args, i, a.ModelFlags); ok {
			if m := cleanModel(v); m != "" {
				model, flag = m, f
			}
			i += n
			continue
		}
		if v, f, n, ok := optionValue(args, i, a.ConfigFlags); ok {
			if k, val, found := strings.Cut(v, "="); found && strings.TrimSpace(k) == "model" {
				if m := cleanModel(strings.Trim(strings.TrimSpace(val), `"'`)); m != "" {
					model, flag = m, f+" model="
				}
			}
			i += n
			continue
		}
		if v, _, n, ok := optionValue(args, i, a.ProfileFlags); ok {
			profile = v
			i += n
			continue
		}
	}
	return model, flag, profile
}

// optionValue reads the value of one of flags at args[i]: "--flag VALUE"
// or "-f VALUE" (n = 1, the value taken from the next argument), or
// "--flag=VALUE" (n = 0).
func optionValue(args []string, i int, flags []string) (value, flag string, n int, ok bool) {
	arg := args[i]
	for _, f := range flags {
		switch {
		case arg == f && i+1 < len(args):
			return args[i+1], f, 1, true
		case strings.HasPrefix(f, "--") && strings.HasPrefix(arg, f+"="):
			return arg[len(f)+1:], f, 0, true
		}
	}
	return "", "", 0, false
}

// MaxModelLen bounds a model name read from a command line or a file; no
// real one comes near it.
const MaxModelLen = 128

// cleanModel returns s trimmed, or "" when it cannot be a model name: too
// long, not UTF-8, or holding a control character (a name from a file of
// the repository lands in a commit message).
func cleanModel(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > MaxModelLen || !utf8.ValidString(s) {
		return ""
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return ""
		}
	}
	return s
}

// maxSettings bounds a read of an agent's settings file.
const maxSettings = 1 << 20

// modelFromFiles reads the agent's settings files in order and returns the
// first model found and the file it came from. project is the agent's
// working directory; envOf reads the agent's environment (for DirVar);
// profile is the configuration profile its command line chose.
func (anc *Ancestry) modelFromFiles(a *Agent, project string, envOf func(string) string, profile string) (model, where string) {
	if anc.ReadFile == nil {
		return "", ""
	}
	for _, f := range a.ModelFiles {
		var data []byte
		var err error
		if f.Project {
			if project == "" {
				continue
			}
			// The project is untrusted: read below it without links.
			rel := path.Join(f.Dir, f.Name)
			data, err = anc.ReadFile(project, rel)
			where = rel + " in " + project
		} else {
			dir := ""
			if f.DirVar != "" {
				dir = envOf(f.DirVar)
			}
			if dir == "" || !filepath.IsAbs(dir) {
				if anc.Home == "" {
					continue
				}
				dir = filepath.Join(anc.Home, f.Dir)
			}
			full := filepath.Join(dir, filepath.FromSlash(f.Name))
			// The user's own files may be links (a dotfiles checkout).
			real, lerr := filepath.EvalSymlinks(full)
			if lerr != nil {
				continue
			}
			data, err = anc.ReadFile(filepath.Dir(real), filepath.Base(real))
			where = homeRelative(full, anc.Home)
		}
		if err != nil {
			continue
		}
		if m := cleanModel(modelIn(f.Name, data, f.Keys, profile)); m != "" {
			return m, where
		}
	}
	return "", ""
}

// homeRelative writes a path below home as "~/…".
func homeRelative(p, home string) string {
	if home != "" {
		if rel, err := filepath.Rel(home, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return p
}

// modelIn reads the first of keys (dotted paths) that holds a string from
// a settings file, by the file's extension. In a TOML file, a profile (the
// one given, or the file's own `profile`) with a model of its own wins.
func modelIn(name string, data []byte, keys []string, profile string) string {
	var doc map[string]any
	switch path.Ext(name) {
	case ".json", ".jsonc":
		if json.Unmarshal(data, &doc) != nil && json.Unmarshal(stripJSONComments(data), &doc) != nil {
			return ""
		}
	case ".toml":
		if toml.Unmarshal(data, &doc) != nil {
			return ""
		}
		if profile == "" {
			profile, _ = doc["profile"].(string)
		}
		if profiles, ok := doc["profiles"].(map[string]any); ok && profile != "" {
			if p, ok := profiles[profile].(map[string]any); ok {
				if m, ok := p["model"].(string); ok && m != "" {
					return m
				}
			}
		}
	case ".yml", ".yaml":
		return yamlTopLevel(data, keys)
	default:
		return ""
	}
	for _, k := range keys {
		var v any = doc
		for _, part := range strings.Split(k, ".") {
			m, ok := v.(map[string]any)
			if !ok {
				v = nil
				break
			}
			v = m[part]
		}
		if s, ok := v.(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// yamlTopLevel reads a top-level scalar `key: value` of a YAML file, which
// is all that Aider's and Goose's model settings are; it is no YAML parser.
func yamlTopLevel(data []byte, keys []string) string {
	for _, k := range keys {
		for _, line := range strings.Split(string(data), "\n") {
			rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), k)
			if !ok {
				continue
			}
			rest = strings.TrimLeft(rest, " \t")
			v, ok := strings.CutPrefix(rest, ":")
			if !ok {
				continue
			}
			v = strings.TrimSpace(v)
			if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
				if end := strings.IndexByte(v[1:], v[0]); end >= 0 {
					return v[1 : end+1]
				}
				return ""
			}
			if i := strings.Index(v, " #"); i >= 0 {
				v = strings.TrimSpace(v[:i])
			}
			if v != "" && v != "~" && v != "null" {
				return v
			}
		}
	}
	return ""
}

// stripJSONComments blanks // and /* */ comments outside strings, which
// settings files of JSON-with-comments hold.
func stripJSONComments(data []byte) []byte {
	out := bytes.Clone(data)
	inString := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for i < len(out) && out[i] != '\n' {
				out[i] = ' '
				i++
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			for i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/') {
				if out[i] != '\n' {
					out[i] = ' '
				}
				i++
			}
			if i+1 < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		}
	}
	return out
}

// CommandAgent names the known agent a command line runs, by its program's
// name, and the model its options choose (empty when they choose none);
// nil when the program is no known agent's. sentinel run marks its
// sandbox with it.
func CommandAgent(argv []string) (*Agent, string) {
	if len(argv) == 0 {
		return nil, ""
	}
	name := argv[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	for _, a := range Known {
		if a.isProgram(name) {
			m, _, _ := a.modelFromArgs(argv[1:])
			return a, m
		}
	}
	return nil, ""
}
