package languages

import (
	"bufio"
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
)

// PyConfig is the part of a pytest configuration that decides which
// files, classes and functions pytest collects.
type PyConfig struct {
	// Dir is the rootdir: the slash path, relative to the repository's
	// root, of the directory that holds File ("" for the root itself).
	Dir string
	// File is the configuration file's path, "" for pytest's defaults.
	File string
	// Files, Classes and Functions are python_files, python_classes and
	// python_functions.
	Files, Classes, Functions []string
	// Testpaths are the testpaths globs, relative to Dir.
	Testpaths []string
	// NoRecurse are the norecursedirs patterns.
	NoRecurse []string
	// PythonPath are the pythonpath directories, relative to Dir.
	PythonPath []string
	// Args are the paths addopts names, relative to Dir; when there are
	// any, pytest collects them instead of Testpaths.
	Args []string
	// Ignore and IgnoreGlob are addopts' --ignore and --ignore-glob.
	Ignore, IgnoreGlob []string
}

// DefaultPyConfig returns pytest's defaults, for a project at dir.
func DefaultPyConfig(dir string) *PyConfig {
	return &PyConfig{
		Dir:       dir,
		Files:     []string{"test_*.py", "*_test.py"},
		Classes:   []string{"Test"},
		Functions: []string{"test"},
		NoRecurse: []string{"*.egg", ".*", "_darcs", "build", "CVS", "dist", "node_modules", "venv", "{arch}"},
	}
}

// PyConfigNames are the files pytest reads its configuration from, in the
// order it tries them in each directory.
var PyConfigNames = []string{"pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"}

// ParsePyConfig reads the pytest configuration in the file at the slash
// path name (one of PyConfigNames). ok is false when the file holds none,
// as pytest decides: pytest.ini always counts, even empty; pyproject.toml
// only with a [tool.pytest.ini_options] table; tox.ini only with [pytest];
// setup.cfg only with [tool:pytest]. A file pytest could not read is an
// error, and a caller that cannot stop for it reads pytest's defaults.
func ParsePyConfig(name string, data []byte) (cfg *PyConfig, ok bool, err error) {
	cfg = DefaultPyConfig(path.Dir(name))
	if cfg.Dir == "." {
		cfg.Dir = ""
	}
	cfg.File = name
	var values map[string][]string
	switch base := path.Base(name); base {
	case "pyproject.toml":
		values, ok, err = pyTOMLOptions(data)
	default:
		section := "pytest"
		if base == "setup.cfg" {
			section = "tool:pytest"
		}
		var sections map[string]map[string]string
		sections, err = parseINI(data)
		if err == nil {
			var sec map[string]string
			sec, ok = sections[section]
			if !ok && base == "pytest.ini" {
				ok, sec = true, map[string]string{}
			}
			values = map[string][]string{}
			for k, v := range sec {
				// pytest's "args" options are split as a shell would.
				values[k] = shellSplit(v)
			}
		}
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", name, err)
	}
	if !ok {
		return nil, false, nil
	}
	set := func(key string, dst *[]string) {
		if v, ok := values[key]; ok {
			*dst = v
		}
	}
	set("python_files", &cfg.Files)
	set("python_classes", &cfg.Classes)
	set("python_functions", &cfg.Functions)
	set("testpaths", &cfg.Testpaths)
	set("norecursedirs", &cfg.NoRecurse)
	set("pythonpath", &cfg.PythonPath)
	cfg.addopts(values["addopts"])
	return cfg, true, nil
}

// pyTOMLOptions reads [tool.pytest.ini_options]: a list stays a list, and
// a string is split as an ini value is.
func pyTOMLOptions(data []byte) (map[string][]string, bool, error) {
	var doc struct {
		Tool struct {
			Pytest struct {
				IniOptions map[string]any `toml:"ini_options"`
			} `toml:"pytest"`
		} `toml:"tool"`
	}
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, false, err
	}
	opts := doc.Tool.Pytest.IniOptions
	if opts == nil {
		return nil, false, nil
	}
	values := map[string][]string{}
	for k, v := range opts {
		switch v := v.(type) {
		case []any:
			for _, e := range v {
				values[k] = append(values[k], fmt.Sprint(e))
			}
		case string:
			values[k] = shellSplit(v)
		default:
			values[k] = []string{fmt.Sprint(v)}
		}
	}
	return values, true, nil
}

// pyOptionsWithValue are pytest options (and common plugins') that take
// the next argument as their value, so that it is not read as a path.
var pyOptionsWithValue = map[string]bool{
	"-p": true, "-k": true, "-m": true, "-c": true, "-o": true, "-W": true, "-n": true, "-r": true,
	"--tb": true, "--rootdir": true, "--confcutdir": true, "--basetemp": true, "--cov": true,
	"--cov-report": true, "--cov-config": true, "--durations": true, "--junitxml": true, "--junit-xml": true,
	"--log-level": true, "--maxfail": true, "--import-mode": true, "--timeout": true, "--dist": true,
	"--reruns": true, "--color": true, "--deselect": true, "--override-ini": true, "--capture": true,
	"--doctest-glob": true, "--log-cli-level": true, "--log-file": true, "--log-format": true,
	"--log-date-format": true, "--runxfail-when": true, "--pyargs-root": true, "--html": true,
	"--numprocesses": true, "--maxprocesses": true, "--max-worker-restart": true, "--asyncio-mode": true,
	"--durations-min": true, "--report-log": true, "--benchmark-columns": true, "--hypothesis-profile": true,
	"--verbosity": true, "--strict-config-file": true, "--ignore": true, "--ignore-glob": true,
}

// addopts reads what addopts changes about collection: --ignore and
// --ignore-glob, and the paths it names (pytest prepends addopts to the
// command line, so a path there is collected instead of testpaths).
func (c *PyConfig) addopts(args []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch {
		case a == "--ignore":
			c.Ignore = append(c.Ignore, next())
		case strings.HasPrefix(a, "--ignore="):
			c.Ignore = append(c.Ignore, strings.TrimPrefix(a, "--ignore="))
		case a == "--ignore-glob":
			c.IgnoreGlob = append(c.IgnoreGlob, next())
		case strings.HasPrefix(a, "--ignore-glob="):
			c.IgnoreGlob = append(c.IgnoreGlob, strings.TrimPrefix(a, "--ignore-glob="))
		case pyOptionsWithValue[a]:
			next()
		case strings.HasPrefix(a, "-"):
		default:
			c.Args = append(c.Args, a)
		}
	}
}

// parseINI reads an ini file as pytest's iniconfig does: "[section]"
// headers, "key = value" or "key: value", indented lines continuing the
// value on a new line, and "#" or ";" starting a comment line.
func parseINI(data []byte) (map[string]map[string]string, error) {
	sections := map[string]map[string]string{}
	var sec map[string]string
	last := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), len(data)+1)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), " \t\r\n\f\v")
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed == "" || trimmed[0] == '#' || trimmed[0] == ';' {
			continue
		}
		switch {
		case line[0] == '[':
			head := line
			for _, c := range "#;" {
				head, _, _ = strings.Cut(head, string(c))
				head = strings.TrimRight(head, " \t")
			}
			if !strings.HasSuffix(head, "]") || len(head) < 3 {
				return nil, fmt.Errorf("line %d: not a section header", n)
			}
			name := head[1 : len(head)-1]
			sec = map[string]string{}
			sections[name] = sec
			last = ""
		case line[0] == ' ' || line[0] == '\t':
			if sec == nil || last == "" {
				return nil, fmt.Errorf("line %d: a continuation with no value", n)
			}
			if sec[last] == "" {
				sec[last] = trimmed
			} else {
				sec[last] += "\n" + trimmed
			}
		default:
			if sec == nil {
				return nil, fmt.Errorf("line %d: no section header", n)
			}
			key, value, found := strings.Cut(line, "=")
			if !found || strings.Contains(key, ":") {
				if key, value, found = strings.Cut(line, ":"); !found {
					return nil, fmt.Errorf("line %d: neither key = value nor key: value", n)
				}
			}
			last = strings.TrimSpace(key)
			sec[last] = strings.TrimSpace(value)
		}
	}
	return sections, sc.Err()
}

// shellSplit splits s into words as Python's shlex.split does: blanks
// separate words, quotes group them, a backslash escapes outside single
// quotes.
func shellSplit(s string) []string {
	var out []string
	var word strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			word.WriteRune(r)
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				word.WriteRune(r)
			}
		case quote == '"':
			switch r {
			case '"':
				quote = 0
			case '\\':
				escaped = true
			default:
				word.WriteRune(r)
			}
		case r == '\\':
			escaped, inWord = true, true
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if inWord {
				out = append(out, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		out = append(out, word.String())
	}
	return out
}

var fnmatchCache sync.Map // pattern → *regexp.Regexp

// Fnmatch reports whether name matches the shell pattern as Python's
// fnmatch.fnmatchcase does: "*" matches any run of characters, "/"
// included, "?" one character, "[seq]" and "[!seq]" a set.
func Fnmatch(name, pattern string) bool {
	if re, ok := fnmatchCache.Load(pattern); ok {
		return re.(*regexp.Regexp).MatchString(name)
	}
	re := regexp.MustCompile(fnmatchRegexp(pattern))
	fnmatchCache.Store(pattern, re)
	return re.MatchString(name)
}

// fnmatchRegexp translates a pattern as fnmatch.translate does.
func fnmatchRegexp(pat string) string {
	var b strings.Builder
	b.WriteString(`(?s)\A`)
	rs := []rune(pat)
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			j := i + 1
			if j < len(rs) && rs[j] == '!' {
				j++
			}
			if j < len(rs) && rs[j] == ']' {
				j++
			}
			for j < len(rs) && rs[j] != ']' {
				j++
			}
			if j >= len(rs) {
				b.WriteString(`\[`)
				continue
			}
			set := string(rs[i+1 : j])
			i = j
			neg := strings.HasPrefix(set, "!")
			set = strings.TrimPrefix(set, "!")
			set = strings.ReplaceAll(set, `\`, `\\`)
			set = strings.ReplaceAll(set, "[", `\[`)
			if neg {
				b.WriteString("[^" + set + "]")
			} else if strings.HasPrefix(set, "^") {
				b.WriteString(`[\` + set + "]")
			} else {
				b.WriteString("[" + set + "]")
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`\z`)
	return b.String()
}

// PyPathMatches reports whether the file at the slash path matches one of
// the patterns as pytest's fnmatch_ex matches python_files and
// norecursedirs: a pattern without "/" against the base name, one with
// "/" against the whole path, its start free.
func PyPathMatches(p string, patterns []string) bool {
	for _, pat := range patterns {
		if !strings.Contains(pat, "/") {
			if Fnmatch(path.Base(p), pat) {
				return true
			}
			continue
		}
		if !strings.HasPrefix(pat, "/") {
			pat = "*/" + pat
		}
		if Fnmatch("/"+p, pat) {
			return true
		}
	}
	return false
}

// pyNameMatches reports whether a class or function name matches one of
// pytest's python_classes or python_functions entries: a prefix, or a glob
// when it has glob characters.
func pyNameMatches(name string, patterns []string) bool {
	for _, p := range patterns {
		if strings.HasPrefix(name, p) {
			return true
		}
		if strings.ContainsAny(p, "*?[") && Fnmatch(name, p) {
			return true
		}
	}
	return false
}
