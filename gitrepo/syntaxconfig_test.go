package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gitconfig"
	"github.com/gitsentinel/sentinel/internal/gittest"
)

// configGen writes random configuration files that use every piece of
// git's syntax, and now and then break it.
type configGen struct {
	r *rand.Rand
	// bad is the chance, in percent, of a deliberate syntax error per line.
	bad int
}

func (g *configGen) pick(s ...string) string { return s[g.r.Intn(len(s))] }

func (g *configGen) chance(percent int) bool { return g.r.Intn(100) < percent }

func (g *configGen) randCase(s string) string {
	b := []byte(s)
	for i := range b {
		if g.chance(30) {
			if b[i] >= 'a' && b[i] <= 'z' {
				b[i] -= 'a' - 'A'
			}
		}
	}
	return string(b)
}

func (g *configGen) space() string {
	return g.pick("", "", " ", "\t", "  ", " \t ")
}

func (g *configGen) section() string {
	name := g.randCase(g.pick("trailer", "trailer", "trailer", "core", "core", "user", "trailer-x", "tr4iler"))
	switch g.r.Intn(6) {
	case 0, 1:
		return "[" + name + "]"
	case 2:
		// The legacy [section.sub] form: the subsection is lower-cased.
		return "[" + name + "." + g.randCase(g.pick("sign", "Fixes", "a.b", "x-1")) + "]"
	default:
		var sub strings.Builder
		for n := g.r.Intn(6); n >= 0; n-- {
			switch g.r.Intn(9) {
			case 0:
				sub.WriteString(`\"`)
			case 1:
				sub.WriteString(`\\`)
			case 2:
				sub.WriteString(`\` + g.pick("x", "n", "t", "]", "a"))
			case 3:
				sub.WriteString(g.pick(" ", "\t", "]", "[", "#", ";", "=", "."))
			case 4:
				sub.WriteString(g.pick("é", "日本"))
			default:
				sub.WriteString(g.randCase(g.pick("sign", "Fixes", "co-authored-by", "x", "Ack")))
			}
		}
		sep := g.pick(" ", " ", "\t", "  ")
		return "[" + name + sep + `"` + sub.String() + `"]`
	}
}

func (g *configGen) key() string {
	return g.randCase(g.pick("key", "ifexists", "ifmissing", "where", "separators", "command", "cmd",
		"commentchar", "commentstring", "commentChar", "k-1", "a", "x9"))
}

func (g *configGen) value() string {
	var v strings.Builder
	quoted := false
	for n := g.r.Intn(7); n > 0; n-- {
		switch g.r.Intn(14) {
		case 0:
			v.WriteString(`"`)
			quoted = !quoted
		case 1:
			v.WriteString(g.pick(`\n`, `\t`, `\b`, `\\`, `\"`))
		case 2:
			v.WriteString(g.pick(" ", "\t", "   ", " \t"))
		case 3:
			if !quoted {
				// A continuation line.
				v.WriteString("\\\n" + g.space())
			}
		case 4:
			v.WriteString(g.pick("#", ";", "; not a comment", " # nor this"))
		case 5:
			v.WriteString(g.pick("=", "[x]", "a=b", "Assisted-by:", "ünï"))
		default:
			v.WriteString(g.pick("v", "Signed-off-by", "end", "add", "doNothing", "after", ":", "#", "x y", "12"))
		}
	}
	if quoted {
		v.WriteString(`"`)
	}
	if g.chance(15) {
		v.WriteString(g.space() + g.pick("# comment", "; comment", "#", ";;x \\"))
	}
	return v.String()
}

func (g *configGen) broken() string {
	return g.pick(
		"key = \\q",
		"key = \"open",
		"ke_y = 1",
		"key ; comment",
		"key: v",
		"[trailer \"open",
		"[trailer\"x\"]",
		"[trailer \"x\" ]",
		"[trailer x]",
		"[]",
		"[tr_ailer]",
		"[trailer",
		"1key = v",
		"key = v\\",
		"= v",
		"[trailer \"a\\\n\"]",
	)
}

// file returns a whole random configuration file.
func (g *configGen) file() string {
	var b strings.Builder
	eol := "\n"
	if g.chance(10) {
		eol = "\r\n"
	}
	if g.chance(5) {
		b.WriteString("\xef\xbb\xbf")
	}
	for n := g.r.Intn(12); n >= 0; n-- {
		if g.chance(g.bad) {
			b.WriteString(g.space() + g.broken() + eol)
			continue
		}
		switch g.r.Intn(10) {
		case 0:
			b.WriteString(g.space() + g.pick("# a comment", "; another", "#", ";[trailer] key = no") + eol)
		case 1:
			b.WriteString(g.space() + eol)
		case 2, 3:
			b.WriteString(g.space() + g.section() + g.space())
			if g.chance(30) {
				b.WriteString(g.key() + g.space() + "=" + g.space() + g.value())
			} else if g.chance(10) {
				b.WriteString("# comment")
			}
			b.WriteString(eol)
		default:
			line := g.space() + g.key()
			switch g.r.Intn(8) {
			case 0:
				// A boolean with no value.
				line += g.pick("", " ", "\t")
			case 1:
				line += g.space() + "=" + g.space()
			default:
				line += g.space() + "=" + g.space() + g.value()
			}
			b.WriteString(line + eol)
		}
	}
	s := b.String()
	if g.chance(10) {
		s = strings.TrimSuffix(s, eol)
	}
	return s
}

// badLine is git's message for a syntax error.
var badLine = regexp.MustCompile(`bad config line (\d+) in file (.*)`)

// gitSyntaxConfig is what git config prints, or its error.
func gitSyntaxConfig(t *testing.T, dir string) ([]ConfigEntry, error) {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, ArgvConfigSyntax...)...).Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() != 1 {
		return nil, fmt.Errorf("%w: %s", err, ee.Stderr)
	}
	if errors.As(err, &ee) && ee.ExitCode() == 1 && len(ee.Stderr) == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return parseConfigZ(out), nil
}

// TestSyntaxConfigMatchesGit compares the in-process reading with git's
// over random configuration files in the repository, the global file and
// (a third of the cases) the system file.
func TestSyntaxConfigMatchesGit(t *testing.T) {
	gittest.Isolate(t)
	dir := t.TempDir()
	if err := exec.Command("git", "init", "-q", dir).Run(); err != nil {
		t.Fatal(err)
	}
	localPath := filepath.Join(dir, ".git", "config")
	head, err := os.ReadFile(localPath)
	if err != nil {
		t.Fatal(err)
	}
	globalPath := filepath.Join(t.TempDir(), "global")
	systemPath := filepath.Join(t.TempDir(), "system")
	t.Setenv("GIT_CONFIG_GLOBAL", globalPath)
	cases := 600
	if testing.Short() {
		cases = 100
	}
	g := &configGen{r: rand.New(rand.NewSource(20261201)), bad: 1}
	var agreed, refused, nonEmpty int
	for i := 0; i < cases; i++ {
		system := i%3 == 2
		if system {
			t.Setenv("GIT_CONFIG_SYSTEM", systemPath)
			os.Unsetenv("GIT_CONFIG_NOSYSTEM")
		} else {
			t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
		}
		files := map[string]string{localPath: string(head) + g.file(), globalPath: g.file()}
		if system {
			files[systemPath] = g.file()
		}
		for path, text := range files {
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, gitErr := gitSyntaxConfig(t, dir)
		got, err := SyntaxConfigInProcess(dir, os.LookupEnv)
		describe := func() string {
			var b strings.Builder
			for path, text := range files {
				fmt.Fprintf(&b, "--- %s\n%q\n", filepath.Base(path), text)
			}
			return b.String()
		}
		switch {
		case gitErr != nil && err == nil:
			t.Errorf("case %d: git refused (%v) but the reader read %q\n%s", i, gitErr, got, describe())
		case gitErr != nil:
			var se *gitconfig.SyntaxError
			if !errors.As(err, &se) || !errors.Is(err, gitconfig.ErrUnsupported) {
				t.Errorf("case %d: git refused, the reader's error is %v, want a syntax error", i, err)
			} else if m := badLine.FindStringSubmatch(gitErr.Error()); m == nil || m[1] != fmt.Sprint(se.Line) || !strings.HasSuffix(se.File, m[2]) {
				t.Errorf("case %d: git said %v, the reader %v\n%s", i, gitErr, err, describe())
			}
			refused++
		case err != nil:
			t.Errorf("case %d: git read %q, the reader failed: %v\n%s", i, want, err, describe())
		case !reflect.DeepEqual(got, want):
			t.Errorf("case %d:\n got %q\nwant %q\n%s", i, got, want, describe())
		default:
			agreed++
			if len(want) > 0 {
				nonEmpty++
			}
		}
	}
	t.Logf("%d cases: %d agreed (%d with entries), %d refused by both", cases, agreed, nonEmpty, refused)
	if refused == 0 || nonEmpty < cases/2 {
		t.Errorf("the generator is too tame: %d refused, %d with entries", refused, nonEmpty)
	}
}

// gitIn runs git in dir and fails the test on error.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// checkSame asserts that the in-process reading agrees with git in dir,
// and that it found something.
func checkSame(t *testing.T, dir string) []ConfigEntry {
	t.Helper()
	want, err := gitSyntaxConfig(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := SyntaxConfigInProcess(dir, os.LookupEnv)
	if err != nil {
		t.Fatalf("in-process: %v", err)
	}
	if !reflect.DeepEqual(got, want) || len(want) == 0 {
		t.Fatalf("in %s:\n got %q\nwant %q", dir, got, want)
	}
	return got
}

// checkFallback asserts that the in-process reading declines, and that
// SyntaxConfig still gives git's answer (or git's error).
func checkFallback(t *testing.T, dir string) {
	t.Helper()
	if got, err := SyntaxConfigInProcess(dir, os.LookupEnv); !errors.Is(err, gitconfig.ErrUnsupported) {
		t.Fatalf("in-process read %q, %v; want ErrUnsupported", got, err)
	}
	want, wantErr := gitSyntaxConfig(t, dir)
	got, err := (&Git{Dir: dir}).SyntaxConfig(context.Background())
	if (err != nil) != (wantErr != nil) || !reflect.DeepEqual(got, want) {
		t.Fatalf("SyntaxConfig = %q, %v; git %q, %v", got, err, want, wantErr)
	}
}

func newRepo(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "config", "trailer.sign.key", "Signed-off-by")
	return dir
}

// TestSyntaxConfigFallback sets up, one by one, everything that makes the
// in-process reading step aside for git config.
func TestSyntaxConfigFallback(t *testing.T) {
	write := func(t *testing.T, path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	appendTo := func(t *testing.T, path, text string) {
		t.Helper()
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string)
	}{
		{"include", func(t *testing.T, dir string) {
			other := filepath.Join(t.TempDir(), "other")
			write(t, other, "[trailer \"inc\"]\n\tkey = Included\n")
			appendTo(t, filepath.Join(dir, ".git", "config"), "[include]\n\tpath = "+other+"\n")
		}},
		{"include in the global file, upper case", func(t *testing.T, dir string) {
			global := filepath.Join(t.TempDir(), "global")
			write(t, global, "[Include]\n\tPath = /nonexistent\n")
			t.Setenv("GIT_CONFIG_GLOBAL", global)
		}},
		{"includeIf", func(t *testing.T, dir string) {
			other := filepath.Join(t.TempDir(), "other")
			write(t, other, "[trailer \"inc\"]\n\tkey = Included\n")
			appendTo(t, filepath.Join(dir, ".git", "config"), "[includeIf \"gitdir:"+dir+"/\"]\n\tpath = "+other+"\n")
		}},
		{"include in the worktree file", func(t *testing.T, dir string) {
			gitIn(t, dir, "config", "extensions.worktreeConfig", "true")
			write(t, filepath.Join(dir, ".git", "config.worktree"), "[include]\n\tpath = /nonexistent\n")
		}},
		{"GIT_CONFIG_PARAMETERS", func(t *testing.T, dir string) {
			t.Setenv("GIT_CONFIG_PARAMETERS", "'trailer.x.key'='y'")
		}},
		{"GIT_CONFIG_COUNT", func(t *testing.T, dir string) {
			t.Setenv("GIT_CONFIG_COUNT", "1")
			t.Setenv("GIT_CONFIG_KEY_0", "trailer.x.key")
			t.Setenv("GIT_CONFIG_VALUE_0", "y")
		}},
		{"GIT_CONFIG", func(t *testing.T, dir string) {
			only := filepath.Join(t.TempDir(), "only")
			write(t, only, "[trailer \"only\"]\n\tkey = Only\n")
			t.Setenv("GIT_CONFIG", only)
		}},
		{"syntax error", func(t *testing.T, dir string) {
			appendTo(t, filepath.Join(dir, ".git", "config"), "[trailer \"broken\"\n")
		}},
		{"unreadable global file", func(t *testing.T, dir string) {
			if os.Geteuid() == 0 {
				t.Skip("root reads every file")
			}
			global := filepath.Join(t.TempDir(), "global")
			write(t, global, "[trailer \"g\"]\n\tkey = G\n")
			if err := os.Chmod(global, 0); err != nil {
				t.Fatal(err)
			}
			t.Setenv("GIT_CONFIG_GLOBAL", global)
		}},
		{"unknown system path", func(t *testing.T, dir string) {
			// A git that is not the distribution's: its compiled-in
			// system path cannot be known without asking it.
			bin := t.TempDir()
			real, err := exec.LookPath("git")
			if err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(bin, "git"), "#!/bin/sh\nexec "+real+" \"$@\"\n")
			if err := os.Chmod(filepath.Join(bin, "git"), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			os.Unsetenv("GIT_CONFIG_NOSYSTEM")
		}},
		{"GIT_CONFIG_NOSYSTEM not a boolean", func(t *testing.T, dir string) {
			t.Setenv("GIT_CONFIG_NOSYSTEM", "2k")
		}},
		{"unknown repository extension", func(t *testing.T, dir string) {
			gitIn(t, dir, "config", "core.repositoryformatversion", "1")
			gitIn(t, dir, "config", "extensions.somethingNew", "true")
		}},
		{"non-UTF-8 key", func(t *testing.T, dir string) {
			appendTo(t, filepath.Join(dir, ".git", "config"), "[trailer \"\xff\"]\n\tkey = x\n")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gittest.Isolate(t)
			dir := newRepo(t)
			checkSame(t, dir)
			c.setup(t, dir)
			checkFallback(t, dir)
		})
	}
}

// hookEnv commits in dir with a commit-msg hook that records its
// environment, git's extra arguments first, and returns the GIT_*
// variables the hook saw.
func hookEnv(t *testing.T, dir string, gitArgs ...string) map[string]string {
	t.Helper()
	hooks := filepath.Join(gitIn(t, dir, "rev-parse", "--git-common-dir"))
	hooks = strings.TrimSpace(hooks)
	if !filepath.IsAbs(hooks) {
		hooks = filepath.Join(dir, hooks)
	}
	out := filepath.Join(t.TempDir(), "env")
	hook := filepath.Join(hooks, "hooks", "commit-msg")
	script := "#!/bin/sh\nenv -0 > '" + out + "'\n"
	if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(hook)
	gitIn(t, dir, append(gitArgs, "commit", "-q", "--allow-empty", "-m", "subject")...)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, kv := range strings.Split(string(data), "\x00") {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "GIT_") {
			env[k] = v
		}
	}
	return env
}

// withEnv makes the process environment the hook's GIT_* variables.
func withEnv(t *testing.T, env map[string]string) {
	t.Helper()
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GIT_") {
			t.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
	for k, v := range env {
		t.Setenv(k, v)
	}
}

// TestSyntaxConfigInHook reads the configuration with the environment
// git gives a commit-msg hook: plain, after `git -c`, and in a linked
// worktree (where git sets GIT_DIR).
func TestSyntaxConfigInHook(t *testing.T) {
	gittest.Isolate(t)
	dir := newRepo(t)

	plain := hookEnv(t, dir)
	wt := filepath.Join(t.TempDir(), "wt")
	gitIn(t, dir, "worktree", "add", "-q", wt)
	linked := hookEnv(t, wt)
	withC := hookEnv(t, dir, "-c", "trailer.fromc.key=Given-by")

	t.Run("plain", func(t *testing.T) {
		withEnv(t, plain)
		checkSame(t, dir)
	})
	t.Run("linked worktree", func(t *testing.T) {
		if linked["GIT_DIR"] == "" {
			t.Fatalf("git set no GIT_DIR for the hook: %q", linked)
		}
		withEnv(t, linked)
		checkSame(t, wt)
	})
	t.Run("git -c", func(t *testing.T) {
		if withC["GIT_CONFIG_PARAMETERS"] == "" {
			t.Fatalf("git -c set no GIT_CONFIG_PARAMETERS: %q", withC)
		}
		withEnv(t, withC)
		checkFallback(t, dir)
		got, err := (&Git{Dir: dir}).SyntaxConfig(context.Background())
		if err != nil || !reflect.DeepEqual(got[len(got)-1], ConfigEntry{Key: "trailer.fromc.key", Value: "Given-by"}) {
			t.Fatalf("SyntaxConfig = %q, %v; want trailer.fromc.key last", got, err)
		}
	})
}

// TestSyntaxConfigWorktrees reads the configuration from the main and a
// linked worktree, with and without extensions.worktreeConfig, from a
// subdirectory, and with GIT_DIR and GIT_COMMON_DIR given.
func TestSyntaxConfigWorktrees(t *testing.T) {
	gittest.Isolate(t)
	dir := newRepo(t)
	gitIn(t, dir, "commit", "-q", "--allow-empty", "-m", "first")
	wt := filepath.Join(t.TempDir(), "linked")
	gitIn(t, dir, "worktree", "add", "-q", wt)
	sub := filepath.Join(wt, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}

	for _, d := range []string{dir, wt, sub} {
		checkSame(t, d)
	}

	gitIn(t, dir, "config", "extensions.worktreeConfig", "true")
	gitIn(t, dir, "config", "--worktree", "trailer.main.key", "Main")
	gitIn(t, wt, "config", "--worktree", "trailer.linked.key", "Linked")
	gitIn(t, wt, "config", "--worktree", "core.commentChar", ";")
	has := func(entries []ConfigEntry, key string) bool {
		for _, e := range entries {
			if e.Key == key {
				return true
			}
		}
		return false
	}
	if got := checkSame(t, dir); !has(got, "trailer.main.key") || has(got, "trailer.linked.key") {
		t.Errorf("main worktree: %q", got)
	}
	for _, d := range []string{wt, sub} {
		if got := checkSame(t, d); has(got, "trailer.main.key") || !has(got, "trailer.linked.key") {
			t.Errorf("linked worktree %s: %q", d, got)
		}
	}

	t.Run("GIT_DIR and GIT_COMMON_DIR", func(t *testing.T) {
		gitDir := strings.TrimSpace(gitIn(t, wt, "rev-parse", "--absolute-git-dir"))
		t.Setenv("GIT_DIR", gitDir)
		checkSame(t, t.TempDir())
		t.Setenv("GIT_COMMON_DIR", filepath.Join(dir, ".git"))
		checkSame(t, t.TempDir())
	})

	t.Run("worktreeConfig off", func(t *testing.T) {
		gitIn(t, dir, "config", "extensions.worktreeConfig", "false")
		if got := checkSame(t, wt); has(got, "trailer.linked.key") {
			t.Errorf("config.worktree read with worktreeConfig false: %q", got)
		}
	})
}

// TestSyntaxConfigDistributionSystemFile reads with the system file
// enabled and no GIT_CONFIG_SYSTEM: with the distribution's git (prefix
// /usr) the reading is in-process and agrees with git, with any other git
// it steps aside.
func TestSyntaxConfigDistributionSystemFile(t *testing.T) {
	gittest.Isolate(t)
	dir := newRepo(t)
	os.Unsetenv("GIT_CONFIG_NOSYSTEM")
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	if real, _ := filepath.EvalSymlinks(git); real != "/usr/bin/git" {
		checkFallback(t, dir)
		return
	}
	checkSame(t, dir)
}

// BenchmarkSyntaxConfig reads the trailer syntax of a repository with a
// typical configuration, in-process and with the git config process.
func BenchmarkSyntaxConfig(b *testing.B) {
	gittest.Isolate(b)
	dir := b.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v\n%s", err, out)
	}
	for _, kv := range [][2]string{{"trailer.sign.key", "Signed-off-by"}, {"trailer.ifexists", "addIfDifferent"}, {"core.commentChar", "#"}} {
		if out, err := exec.Command("git", "-C", dir, "config", kv[0], kv[1]).CombinedOutput(); err != nil {
			b.Fatalf("git config: %v\n%s", err, out)
		}
	}
	global := filepath.Join(b.TempDir(), "global")
	if err := os.WriteFile(global, []byte("[user]\n\tname = Jane Doe\n\temail = jane@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	b.Setenv("GIT_CONFIG_GLOBAL", global)
	ctx := context.Background()
	b.Run("in-process", func(b *testing.B) {
		for b.Loop() {
			if e, err := SyntaxConfigInProcess(dir, os.LookupEnv); err != nil || len(e) != 3 {
				b.Fatal(e, err)
			}
		}
	})
	b.Run("git-config", func(b *testing.B) {
		g := &Git{Dir: dir}
		for b.Loop() {
			if e, err := g.SyntaxConfigGit(ctx); err != nil || len(e) != 3 {
				b.Fatal(e, err)
			}
		}
	})
}
