package githooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitsentinel/sentinel/config"
	"github.com/gitsentinel/sentinel/coverage"
	"github.com/gitsentinel/sentinel/gitrepo"
	"github.com/gitsentinel/sentinel/internal/atomicfile"
)

// attributesLine maps the baseline to sentinel's merge driver.
const attributesLine = coverage.BaselinePath + " merge=sentinel"

// mergeDriver is the local git configuration of the baseline merge driver.
var mergeDriver = [][2]string{
	{"merge.sentinel.name", "sentinel baseline merge (peaks: the maximum; acceptances: the union)"},
	{"merge.sentinel.driver", "sentinel merge-baseline %O %A %B"},
}

// InitOptions says how to set a repository up.
type InitOptions struct {
	// Install carries the hook options; its Dir is the repository.
	Install InstallOptions
}

// InitResult is what Init did.
type InitResult struct {
	// Done lists what was done or found in place, for people.
	Done []string
	// Hooks are the hook actions.
	Hooks []Action
	// Commit lists the files to commit.
	Commit []string
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

	cfgPath := filepath.Join(info.Root, filepath.FromSlash(config.File))
	switch _, err := os.Stat(cfgPath); {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(cfgPath), 0o755); err != nil {
			return nil, fmt.Errorf("create %s: %w", config.Dir, err)
		}
		if err := atomicfile.WriteFile(cfgPath, []byte(config.Template), 0o644); err != nil {
			return nil, err
		}
		res.Done = append(res.Done, "wrote "+config.File+", every key commented at its default")
		res.Commit = append(res.Commit, config.File)
	case err != nil:
		return nil, err
	default:
		// An existing configuration is the project's: check it, keep it.
		if _, err := config.Load(info.Root); err != nil {
			return nil, fmt.Errorf("%w; fix it, then run `sentinel init` again", err)
		}
		res.Done = append(res.Done, "kept "+config.File)
	}

	blPath := filepath.Join(info.Root, filepath.FromSlash(coverage.BaselinePath))
	if _, err := os.Stat(blPath); errors.Is(err, fs.ErrNotExist) {
		opts, _, err := coverage.ProjectOptions(ctx, dir, coverage.WorkTree, "")
		if err != nil {
			return nil, err
		}
		c, err := coverage.Count(ctx, opts)
		if err != nil {
			return nil, err
		}
		b := coverage.NewBaseline(c)
		if err := coverage.WriteBaseline(ctx, info.Root, info.CommonDir, b, false); err != nil {
			return nil, err
		}
		t := c.Total()
		res.Done = append(res.Done, fmt.Sprintf("wrote %s from the current counts (%d tests, %d assertions)", coverage.BaselinePath, t.Tests, t.Assertions))
		res.Commit = append(res.Commit, coverage.BaselinePath)
	} else if err != nil {
		return nil, err
	} else {
		res.Done = append(res.Done, "kept "+coverage.BaselinePath)
	}

	attrs := filepath.Join(info.Root, ".gitattributes")
	added, err := ensureLine(attrs, attributesLine)
	if err != nil {
		return nil, err
	}
	if added {
		res.Done = append(res.Done, "mapped "+coverage.BaselinePath+" to the sentinel merge driver in .gitattributes")
		res.Commit = append(res.Commit, ".gitattributes")
	} else {
		res.Done = append(res.Done, ".gitattributes already maps "+coverage.BaselinePath+" to the sentinel merge driver")
	}
	for _, kv := range mergeDriver {
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
		return res, err
	}
	return res, nil
}

// ensureLine appends line to a text file (creating it) unless a line equal
// to it, spaces aside, is already there. The file is replaced atomically and
// keeps its mode; nothing else in it changes.
func ensureLine(path, line string) (bool, error) {
	cur, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	want := strings.Join(strings.Fields(line), " ")
	for _, l := range strings.Split(string(cur), "\n") {
		if strings.Join(strings.Fields(l), " ") == want {
			return false, nil
		}
	}
	var out bytes.Buffer
	out.Write(cur)
	if len(cur) > 0 && cur[len(cur)-1] != '\n' {
		out.WriteByte('\n')
	}
	out.WriteString(line + "\n")
	return true, atomicfile.WriteFile(path, out.Bytes(), 0o644)
}
