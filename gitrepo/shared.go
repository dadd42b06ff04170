package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/gitsentinel/sentinel/internal/gitconfig"
	"github.com/gitsentinel/sentinel/internal/sharedperm"
)

// ArgvSharedRepository reads core.sharedRepository, every value git sees,
// NUL-ended, a value after a newline (a key written without '=' has
// none).
var ArgvSharedRepository = []string{"config", "-z", "--get-regexp", `^core\.sharedrepository$`}

// SharedRepository returns the core.sharedRepository setting of the
// repository containing dir, which the files sentinel creates below the
// git directory follow as git's own do. It is read in-process when that
// gives git's exact answer, from git config otherwise; a value git
// refuses is an error.
func SharedRepository(ctx context.Context, dir string) (sharedperm.Shared, error) {
	if all, err := gitconfig.Read(dir, os.LookupEnv); err == nil {
		// The last value wins, and only it is read, as in git.
		var last *gitconfig.Entry
		for i := range all {
			if all[i].Key == "core.sharedrepository" {
				last = &all[i]
			}
		}
		if last == nil {
			return sharedperm.Umask, nil
		}
		return parseShared(last.Value, last.Implicit)
	}
	out, err := (&Git{Dir: dir}).run(ctx, nil, ArgvSharedRepository)
	var ee *ExitError
	if errors.As(err, &ee) && ee.Code == 1 && ee.Stderr == "" {
		return sharedperm.Umask, nil // not set
	}
	if err != nil {
		return sharedperm.Umask, err
	}
	recs := bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0})
	_, value, hasValue := bytes.Cut(recs[len(recs)-1], []byte{'\n'})
	return parseShared(string(value), !hasValue)
}

// parseShared reads a value of core.sharedRepository; one git refuses as
// well comes with the setting that works.
func parseShared(value string, implicit bool) (sharedperm.Shared, error) {
	s, err := sharedperm.Parse(value, implicit)
	if err != nil {
		return s, fmt.Errorf("%w; git refuses it too: run `git config core.sharedRepository group`", err)
	}
	return s, nil
}
