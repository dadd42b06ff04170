package githooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/atomicfile"
	"github.com/gitsentinel/sentinel/trailers"
)

// attributesLine maps the baseline to sentinel's merge driver, and keeps
// git from converting its line ends (core.autocrlf, eol=crlf): the
// baseline is read only in the exact form sentinel writes.
const attributesLine = coverage.BaselinePath + " merge=sentinel -text"

// oldAttributesLines are the lines earlier releases wrote, which init
// replaces in place.
var oldAttributesLines = []string{coverage.BaselinePath + " merge=sentinel"}

// mergeDriver is the local git configuration of the baseline merge driver
// for the sentinel binary at bin. git runs the driver through the shell, so
// it names the binary by its absolute path, quoted: a bare "sentinel" would
// run whatever a PATH entry (node_modules/.bin, an agent's directory) holds.
func mergeDriver(bin string) ([][2]string, error) {
	command := "sentinel"
	if bin != "" {
		if strings.ContainsAny(bin, "'\n") {
			return nil, fmt.Errorf("the sentinel binary's path %q cannot be quoted in the merge driver; move it, then run `sentinel init` again", bin)
		}
		command = "'" + bin + "'"
	}
	return [][2]string{
		{"merge.sentinel.name", "sentinel baseline merge (peaks: the maximum; acceptances: the union)"},
		{"merge.sentinel.driver", command + " merge-baseline %O %A %B"},
	}, nil
}

// InitOptions says how to set a repository up.
type InitOptions struct {
	// Install carries the hook options; its Dir is the repository.
	Install InstallOptions
	// Progress, when set, is told how far the first count has come: on a
	// large repository it takes a while.
	Progress coverage.Progress
}

// InitResult is what Init did.
type InitResult struct {
	// Done lists what was done or found in place, for people.
	Done []string
	// Hooks are the hook actions.
	Hooks []Action
	// Commit lists the files to commit.
	Commit []string
	// Manager is the hook manager that owns the hooks, when init left them
	// to it: the lines that add sentinel to it are the person's to add.
	Manager *ManagerError
	// Advice lists, for people, what init noticed and did not change.
	Advice []string
}

// Init sets a repository up once: the commented configuration, the
// baseline merge driver in .gitattributes and the local configuration, and
// the hooks. Running it again changes nothing that is already in place.
func Init(ctx context.Context, o InitOptions) (*InitResult, error) {
	dir := o.Install.Dir
	if _, err := gitrepo.HooksDir(ctx, dir); err != nil {
		return nil, err
	}
	info, err := gitrepo.RepoInfo(ctx, dir)
	if err != nil {
		return nil, err
	}
	res := &InitResult{}
	// Refuse a link anywhere init writes before writing anything, so that a
	// hostile repository does not leave a half set-up one behind.
	for _, rel := range []string{config.File, coverage.BaselinePath, ".gitattributes"} {
		if _, _, err := atomicfile.Lstat(info.Root, rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}

	// Enforcement starts at the commit init runs at: the history before
	// it was made without sentinel, and is not held to its rules.
	head, err := gitrepo.HeadCommit(ctx, info.Root)
	if err != nil {
		return nil, err
	}
	template := config.Template
	if head != "" {
		template = config.WithSince(head)
	}
	wroteConfig, err := writeOnce(ctx, info, config.File, []byte(template))
	if err != nil {
		return nil, err
	}
	if wroteConfig {
		res.Done = append(res.Done, "wrote "+config.File+", every key commented at its default")
		res.Commit = append(res.Commit, config.File)
		if head != "" {
			line, err := sinceLine(ctx, info.Root, head)
			if err != nil {
				return nil, err
			}
			res.Done = append(res.Done, line)
		}
	} else {
		// An existing configuration is the project's: check it, keep it.
		if _, err := config.Load(info.Root); err != nil {
			return nil, fmt.Errorf("%w; fix it, then run `sentinel init` again", err)
		}
		res.Done = append(res.Done, "kept "+config.File)
	}

	// The counts come first, outside the lock; the baseline is written
	// only if there is still none once the lock is held.
	existing, err := coverage.ReadWorkTreeBaseline(info.Root)
	if err != nil {
		return nil, err
	}
	if existing != nil {
		if _, err := coverage.ParseBaseline(coverage.BaselinePath, existing); err != nil {
			return nil, err
		}
		res.Done = append(res.Done, "kept "+coverage.BaselinePath)
	} else {
		opts, _, err := coverage.ProjectOptions(ctx, dir, coverage.WorkTree, "")
		if err != nil {
			return nil, err
		}
		opts.Progress = o.Progress
		c, err := coverage.Count(ctx, opts)
		if err != nil {
			return nil, err
		}
		wrote := false
		_, err = coverage.UpdateBaseline(ctx, coverage.UpdateOptions{Root: info.Root, CommonDir: info.CommonDir},
			func(cur *coverage.Baseline) (*coverage.Baseline, error) {
				if cur != nil {
					return nil, nil
				}
				wrote = true
				return coverage.NewBaseline(c), nil
			})
		if err != nil {
			return nil, err
		}
		if wrote {
			t := c.Total()
			res.Done = append(res.Done, fmt.Sprintf("wrote %s from the current counts (%d tests, %d assertions)", coverage.BaselinePath, t.Tests, t.Assertions))
			res.Commit = append(res.Commit, coverage.BaselinePath)
		} else {
			res.Done = append(res.Done, "kept "+coverage.BaselinePath)
		}
	}

	added, err := ensureLine(ctx, info, ".gitattributes", attributesLine, oldAttributesLines)
	if err != nil {
		return nil, err
	}
	if added {
		res.Done = append(res.Done, "mapped "+coverage.BaselinePath+" to the sentinel merge driver in .gitattributes")
		res.Commit = append(res.Commit, ".gitattributes")
	} else {
		res.Done = append(res.Done, ".gitattributes already maps "+coverage.BaselinePath+" to the sentinel merge driver")
	}
	driver, err := mergeDriver(o.Install.Bin)
	if err != nil {
		return nil, err
	}
	for _, kv := range driver {
		if v, ok, err := gitrepo.LocalConfig(ctx, dir, kv[0]); err != nil {
			return nil, err
		} else if ok && v == kv[1] {
			continue
		}
		if err := gitrepo.SetLocalConfig(ctx, dir, kv[0], kv[1]); err != nil {
			return nil, err
		}
	}
	res.Done = append(res.Done, "registered the merge driver in the local git configuration (merge.sentinel.*)")

	if c, err := config.Load(info.Root); err == nil {
		o.Install.FailOpen = c.Hooks.FailOpen
	}
	if res.Hooks, err = Install(ctx, o.Install); err != nil {
		// Under husky, lefthook or pre-commit the set-up is done but for
		// the lines the manager's configuration needs: they are printed,
		// and init succeeds.
		var me *ManagerError
		if errors.As(err, &me) {
			res.Manager = me
			return res, nil
		}
		return res, err
	}
	if h, err := gitrepo.HooksDir(ctx, dir); err == nil && readManagerConfig(info.Root, preCommitConfig) != nil {
		calls := false
		for _, m := range ManagedHooks(info.Root, h) {
			calls = calls || m.Manager == "pre-commit"
		}
		if !calls {
			res.Advice = append(res.Advice, "pre-commit is configured here ("+preCommitConfig+") but its hooks are not installed, so sentinel installed its own; a later `pre-commit install` moves them aside (to *.legacy) and runs them after its own. To keep one hook manager, let pre-commit run sentinel:\n"+ManagerSnippet("pre-commit"))
		}
	}
	return res, nil
}

// sinceLine says where enforcement starts, and how many of the commits
// before it the attribution policy would refuse: they are not judged.
func sinceLine(ctx context.Context, root, head string) (string, error) {
	commits, err := gitrepo.Range(ctx, root, head)
	if err != nil {
		return "", err
	}
	s, err := trailers.LoadSettings(ctx, root)
	if err != nil {
		return "", err
	}
	rep, err := s.CheckCommits(commits)
	if err != nil {
		return "", err
	}
	failing := map[string]bool{}
	for _, f := range rep.Findings {
		failing[f.Source] = true
	}
	line := fmt.Sprintf("[ci] since = %s: sentinel ci and the pre-push hook judge the commits after it", gitrepo.ShortID(head))
	if len(failing) > 0 {
		line += fmt.Sprintf("; %d of the %d commits up to it would fail the attribution policy, and will not be judged", len(failing), len(commits))
	}
	return line, nil
}

// writeOnce writes a file below the root, under the repository's lock,
// unless it is already there.
func writeOnce(ctx context.Context, info *gitrepo.Info, rel string, data []byte) (bool, error) {
	unlock, err := gitrepo.LockRepository(ctx, info.Root, info.CommonDir)
	if err != nil {
		return false, err
	}
	defer unlock()
	switch _, _, err := atomicfile.Lstat(info.Root, rel); {
	case err == nil:
		return false, nil
	case !errors.Is(err, fs.ErrNotExist):
		return false, err
	}
	return true, atomicfile.WriteIn(info.Root, rel, data, atomicfile.Options{Perm: 0o666, MkdirAll: true})
}

// ensureLine appends line to a text file below the root (creating it)
// unless a line equal to it, spaces aside, is already there; a line equal
// to one of old is replaced by it where it stands. It reads and writes
// under the repository's lock, so that two runs at once do not lose a
// line; the file is replaced atomically and keeps its mode, and nothing
// else in it changes.
func ensureLine(ctx context.Context, info *gitrepo.Info, rel, line string, old []string) (bool, error) {
	unlock, err := gitrepo.LockRepository(ctx, info.Root, info.CommonDir)
	if err != nil {
		return false, err
	}
	defer unlock()
	cur, err := atomicfile.ReadIn(info.Root, rel, maxAttributes)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	norm := func(l string) string { return strings.Join(strings.Fields(l), " ") }
	lines := strings.SplitAfter(string(cur), "\n")
	replaced := false
	for i, l := range lines {
		if norm(l) == norm(line) {
			return false, nil
		}
		for _, o := range old {
			if !replaced && norm(l) == norm(o) {
				lines[i] = line + l[len(strings.TrimRight(l, "\r\n")):]
				replaced = true
			}
		}
	}
	var out bytes.Buffer
	out.WriteString(strings.Join(lines, ""))
	if !replaced {
		if len(cur) > 0 && cur[len(cur)-1] != '\n' {
			out.WriteByte('\n')
		}
		out.WriteString(line + "\n")
	}
	return true, atomicfile.WriteIn(info.Root, rel, out.Bytes(), atomicfile.Options{Perm: 0o666})
}

// maxAttributes bounds the read of .gitattributes.
const maxAttributes = 4 << 20
