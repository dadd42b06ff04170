package guard

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/shell"
	"github.com/gitsentinel/sentinel/internal/atomicfile"
)

// maxPatch bounds the read of a patch the guard reads for the files it
// writes.
const maxPatch = 4 << 20

// patchWrites reads what a program that applies a patch (patch, git apply,
// git am) would write: the files the patch names, read from the patch file,
// the file on its stdin or the literal text piped in. applies is false for
// a command that applies nothing; ok is false when the patch cannot be read
// (a pipe from a program, a file that is not there), and the write is then
// not computed.
//
// A patch file that is not there, and that no earlier command of the line
// writes, applies nothing: the program fails on it.
func patchWrites(c *shell.Command, e *pathguard.Env, writtenBefore func(string) bool) (paths []string, applies, ok bool) {
	var sources []string
	stdin := true
	switch {
	case c.Name() == "patch":
		if c.Has("--dry-run") {
			return nil, false, true
		}
		ops := c.Operands()
		if len(ops) > 0 {
			paths = append(paths, ops[0]) // the file to patch, named outright
		}
		if v, set := c.Opts().Value("input"); set {
			sources, stdin = append(sources, v), false
		} else if v, set := c.Opts().Value("i"); set {
			sources, stdin = append(sources, v), false
		} else if len(ops) > 1 {
			sources, stdin = append(sources, ops[1]), false
		}
	case c.Name() == "git" && (c.Sub() == "apply" || c.Sub() == "am"):
		g := c.Git().Args
		if c.Sub() == "apply" && !g.On("apply") && (g.On("check") || g.On("stat") || g.On("numstat") || g.On("summary")) {
			return nil, false, true
		}
		if ops := c.Operands()[1:]; len(ops) > 0 {
			sources, stdin = append(sources, ops...), false
		}
	default:
		return nil, false, true
	}
	var texts []string
	for _, s := range sources {
		if s == "-" {
			stdin = true
			continue
		}
		p := e.Resolve(s)
		if c.ArgsUnknown || unknownSource(s, p) {
			return paths, true, false
		}
		text, err := readPatch(p)
		if errors.Is(err, fs.ErrNotExist) && !writtenBefore(p) {
			continue
		}
		if err != nil {
			return paths, true, false
		}
		texts = append(texts, text)
	}
	if stdin {
		switch {
		case c.Stdin != "":
			texts = append(texts, c.Stdin)
		case len(c.Reads) > 0 && !c.StdinDynamic:
			for _, r := range c.Reads {
				p := e.Resolve(r)
				if unknownSource(r, p) {
					return paths, true, false
				}
				text, err := readPatch(p)
				if errors.Is(err, fs.ErrNotExist) && !writtenBefore(p) {
					continue
				}
				if err != nil {
					return paths, true, false
				}
				texts = append(texts, text)
			}
		default:
			return paths, true, false
		}
	}
	// patch -d DIR and git apply --directory=DIR put every path below DIR.
	dir := ""
	if c.Name() == "patch" {
		if v, set := c.Opts().Value("directory"); set {
			dir = v
		} else if v, set := c.Opts().Value("d"); set {
			dir = v
		}
	} else if v, set := c.Git().Args.Value("directory"); set {
		dir = v
	}
	for _, t := range texts {
		for _, p := range patchTargets(t) {
			paths = append(paths, p)
			if dir != "" {
				paths = append(paths, filepath.Join(dir, p))
			}
		}
	}
	return paths, true, true
}

// unknownSource reports a patch source whose text is not known: a process
// substitution (the decomposer writes what it cannot compute as "…") or a
// descriptor.
func unknownSource(word, resolved string) bool {
	return strings.Contains(word, "…") || strings.HasPrefix(resolved, "/dev/") || strings.HasPrefix(resolved, "/proc/")
}

// readPatch reads a regular file of at most maxPatch bytes, through links.
func readPatch(path string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	b, err := atomicfile.ReadFile(real, maxPatch)
	return string(b), err
}

// patchTargets are the paths a patch writes, as it names them and with any
// number of leading components stripped (-pN): a unified diff's ---
// and +++ lines, git's diff, rename and copy headers, and Codex's
// apply_patch markers.
func patchTargets(text string) []string {
	var out []string
	add := func(p string) {
		if i := strings.IndexByte(p, '\t'); i >= 0 {
			p = p[:i] // a timestamp after a tab
		}
		p = strings.Trim(strings.TrimSpace(p), `"`)
		if p == "" || p == "/dev/null" {
			return
		}
		out = append(out, p)
		// Whatever -p strips: every suffix after a slash.
		for rest := p; ; {
			i := strings.IndexByte(rest, '/')
			if i < 0 || i+1 == len(rest) {
				break
			}
			rest = rest[i+1:]
			out = append(out, rest)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "):
			add(line[4:])
		case strings.HasPrefix(line, "diff --git "):
			for _, p := range strings.Fields(line[len("diff --git "):]) {
				add(p)
			}
		case strings.HasPrefix(line, "rename to "), strings.HasPrefix(line, "copy to "):
			add(line[strings.Index(line, " to ")+4:])
		}
	}
	return append(out, hosts.PatchPaths(text)...)
}
