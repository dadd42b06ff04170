package chaos

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// fileState is one file as a snapshot saw it.
type fileState struct {
	exists bool
	mode   fs.FileMode
	data   string
}

// snapshot maps the files sentinel may write, by slash-separated path from
// the work tree's root, to their states. The baseline staged in the index
// is the entry stagedBaseline.
type snapshot map[string]fileState

// stagedBaseline names the index's baseline in a snapshot.
const stagedBaseline = ":staged:" + baselineFile

// fingerprint marks sentinel's own hook scripts.
const fingerprint = "sentinel-managed-hook"

// atField is an acceptance's time, which differs from run to run; the
// snapshot blanks it so that an accept's baseline has one expected form.
var atField = regexp.MustCompile(`"at": "[^"]*"`)

// snapshot reads every file of the work tree dir, and of its git directory
// the hooks, the configuration, sentinel's own files and the backups of
// the agents' settings. Temporary files
// and locks are left out: temps and locks report them.
func (l *lab) snapshot(dir string) snapshot {
	s := snapshot{}
	add := func(rel, path string) {
		info, err := os.Lstat(path)
		if err != nil || !info.Mode().IsRegular() {
			return
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return
		}
		s[rel] = fileState{exists: true, mode: info.Mode().Perm(), data: normalise(rel, string(data))}
	}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel := slashRel(dir, path)
		if d.IsDir() {
			if rel == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !isTemp(d.Name()) {
			add(rel, path)
		}
		return nil
	})
	add(".git/config", filepath.Join(dir, ".git", "config"))
	for _, sub := range []string{"hooks", "sentinel"} {
		entries, _ := os.ReadDir(filepath.Join(dir, ".git", sub))
		for _, e := range entries {
			n := e.Name()
			// The count cache is rewritten whole by every run that adds
			// to it; count's figures after the next run check it.
			if isTemp(n) || strings.HasSuffix(n, ".lock") || strings.HasPrefix(n, "counts-") {
				continue
			}
			add(".git/"+sub+"/"+n, filepath.Join(dir, ".git", sub, n))
		}
	}
	// The originals guard install keeps of the settings it changed, by
	// their paths in the work tree.
	gitDir := filepath.Join(dir, ".git")
	filepath.WalkDir(filepath.Join(gitDir, "sentinel", "backups"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !isTemp(d.Name()) {
			add(".git/"+slashRel(gitDir, path), path)
		}
		return nil
	})
	if r := l.run(dir, time.Minute, nil, "git", "cat-file", "blob", ":"+baselineFile); r.exit == 0 {
		s[stagedBaseline] = fileState{exists: true, mode: 0o644, data: normalise(stagedBaseline, r.stdout)}
	}
	return s
}

func normalise(rel, data string) string {
	if strings.HasSuffix(rel, baselineFile) {
		return atField.ReplaceAllString(data, `"at": ""`)
	}
	return data
}

func slashRel(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}

// torn returns the files of now that are neither as they were before the
// command (old) nor as an uninterrupted run leaves them (new). A JSON or
// TOML file, or git's configuration, that is neither but reads whole, is
// whole: the check is for files cut short or mixed, not for a second valid
// form. A file that differed between two uninterrupted runs (variable) is
// only required to exist where both had it. The foreign hooks must still
// run, by themselves or from behind sentinel's.
func torn(old, new, now snapshot, variable map[string]bool, dir string) []string {
	var out []string
	for _, p := range unionKeys(old, new, now) {
		n := now[p]
		if n == old[p] || n == new[p] {
			continue
		}
		if !n.exists {
			out = append(out, p+": gone")
			continue
		}
		if structured(p) {
			if err := readWhole(p, n.data, dir); err != nil {
				out = append(out, fmt.Sprintf("%s: neither its old nor its new bytes, and unreadable (%d bytes): %v", p, len(n.data), err))
			}
			continue
		}
		if !variable[p] {
			out = append(out, fmt.Sprintf("%s: neither its old nor its new bytes (%d bytes, mode %v)", p, len(n.data), n.mode))
		}
	}
	return append(out, lostHooks(now)...)
}

// lostHooks names the foreign hooks that no longer run: each must be in
// place, or kept as <hook>.sentinel-prev behind sentinel's hook, executable.
func lostHooks(now snapshot) []string {
	var out []string
	for _, name := range sortedKeys(foreignHooks) {
		script := foreignHooks[name]
		hook, prev := now[".git/hooks/"+name], now[".git/hooks/"+name+".sentinel-prev"]
		runs := func(f fileState, want string) bool {
			return f.exists && f.mode&0o111 != 0 && f.data == want
		}
		switch {
		case runs(hook, script):
		case runs(prev, script) && hook.exists && hook.mode&0o111 != 0 && strings.Contains(hook.data, fingerprint):
		default:
			out = append(out, "the project's own "+name+" hook would no longer run")
		}
	}
	return out
}

// structured reports whether a file is checked by reading it whole.
func structured(p string) bool {
	return strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".toml") || p == ".git/config"
}

// readWhole reads a structured file's data as its reader would.
func readWhole(p, data, dir string) error {
	switch {
	case strings.HasSuffix(p, baselineFile):
		_, err := parseBaseline([]byte(data))
		return err
	case strings.HasSuffix(p, ".json"):
		var v any
		return json.Unmarshal([]byte(data), &v)
	case strings.HasSuffix(p, ".toml"):
		var v map[string]any
		return toml.Unmarshal([]byte(data), &v)
	case p == ".git/config":
		f, err := os.CreateTemp("", "chaos-config-*")
		if err != nil {
			return err
		}
		defer os.Remove(f.Name())
		f.WriteString(data)
		f.Close()
		cmd := exec.Command("git", "config", "--file", f.Name(), "--list")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%v: %s", err, firstLine(string(out)))
		}
	}
	return nil
}

// diverged returns the files that differ from what an uninterrupted run
// leaves, after the next run of the command has finished the work.
func diverged(new, now snapshot, variable map[string]bool) []string {
	var out []string
	for _, p := range unionKeys(new, now) {
		if now[p] != new[p] && !variable[p] {
			switch {
			case !now[p].exists:
				out = append(out, p+": missing")
			case !new[p].exists:
				out = append(out, p+": not written by an uninterrupted run")
			default:
				out = append(out, p+": differs from an uninterrupted run's")
			}
		}
	}
	return out
}

// isTemp reports a temporary file of sentinel's atomic writes
// (.baseline.json.sentinel-123) or any other *.tmp. The files sentinel
// keeps on purpose, <hook>.sentinel-prev and <settings>.sentinel-backup,
// are not temporary.
func isTemp(name string) bool {
	if strings.HasSuffix(name, ".sentinel-prev") || strings.HasSuffix(name, ".sentinel-backup") {
		return false
	}
	return strings.Contains(name, ".sentinel-") || strings.HasSuffix(name, ".tmp")
}

// temps returns the temporary files in the work tree dir and in its git
// directory. A work-tree one that `git add -A` would commit is marked so.
func (l *lab) temps(dir string) (workTree, gitDir []string) {
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel := slashRel(dir, path)
		if d.IsDir() {
			if rel == ".git/objects" || rel == ".git/logs" {
				return filepath.SkipDir
			}
			return nil
		}
		if !isTemp(d.Name()) {
			return nil
		}
		if strings.HasPrefix(rel, ".git/") {
			gitDir = append(gitDir, rel)
		} else {
			workTree = append(workTree, rel)
		}
		return nil
	})
	if len(workTree) > 0 {
		r := l.run(dir, time.Minute, nil, "git", "status", "--porcelain", "-z", "--ignored", "--untracked-files=all")
		untracked := map[string]bool{}
		for _, e := range strings.Split(r.stdout, "\x00") {
			if strings.HasPrefix(e, "?? ") {
				untracked[e[3:]] = true
			}
		}
		for i, t := range workTree {
			if untracked[t] {
				workTree[i] += " (git add -A would commit it)"
			}
		}
	}
	return workTree, gitDir
}

// locks returns the lock files in the git directory of dir: sentinel's and
// git's (index.lock, config.lock).
func locks(dir string) []string {
	var out []string
	git := filepath.Join(dir, ".git")
	filepath.WalkDir(git, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == "objects" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".lock") {
			out = append(out, slashRel(dir, path))
		}
		return nil
	})
	return out
}

// lockMessage is how sentinel and git say that a lock stopped them.
var lockMessage = regexp.MustCompile(`(?i)another sentinel holds|lock the baseline|could not lock|\.lock'?: File exists|Unable to create '[^']*\.lock'`)

// slow is how long a command may take before it counts as having waited
// for a lock: they take tens of milliseconds, and sentinel's lock gives up
// after seconds.
const slow = 3 * time.Second

// blocked says why a command counts as blocked by a lock, or "".
func blocked(r result) string {
	switch {
	case r.timedOut:
		return "did not finish: " + r.brief()
	case lockMessage.MatchString(r.output()):
		return "refused on a lock: " + r.brief()
	case r.dur > slow:
		return fmt.Sprintf("waited %v: %s", r.dur.Round(time.Millisecond), r.brief())
	}
	return ""
}

var (
	backticked = regexp.MustCompile("`((?:sentinel|git) [^`]+)`")
	acceptLine = regexp.MustCompile(`(?m)^\s+(sentinel accept [^\n]+)$`)
	removeLock = regexp.MustCompile(`remove it: (rm \S+)`)
)

// namedCommands returns the commands a message tells a person to run to
// get on, in the order it names them: a backticked `sentinel …` or
// `git …`, an indented `sentinel accept …` line, the `rm PATH` of a lock.
// Commands that only report (status, count) are left out; so is a
// compound one (init's "git add … && git commit"), which the probe's own
// commit does.
func namedCommands(msg string) [][]string {
	type named struct {
		at  int
		cmd string
	}
	var found []named
	for _, re := range []*regexp.Regexp{backticked, acceptLine, removeLock} {
		for _, m := range re.FindAllStringSubmatchIndex(msg, -1) {
			found = append(found, named{m[2], msg[m[2]:m[3]]})
		}
	}
	sort.Slice(found, func(i, j int) bool { return found[i].at < found[j].at })
	var out [][]string
	seen := map[string]bool{}
	for _, f := range found {
		c := f.cmd
		argv := shellFields(c)
		if len(argv) < 2 || strings.Contains(c, "&&") || seen[c] {
			continue
		}
		if argv[0] == "sentinel" && (argv[1] == "status" || argv[1] == "count" || argv[1] == "doctor") {
			continue
		}
		seen[c] = true
		for i := 1; i < len(argv); i++ {
			if argv[i-1] == "--reason" {
				argv[i] = "as the message said"
			}
		}
		out = append(out, argv)
	}
	return out
}

// shellFields splits a command line as the shell would, for the quoting
// sentinel's messages use.
func shellFields(s string) []string {
	var out []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '"' || c == '\'':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

func unionKeys(ss ...snapshot) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		for k := range s {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
