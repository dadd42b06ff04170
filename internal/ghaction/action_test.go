package ghaction

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// sh runs a command in dir with env, failing the test on an error.
func sh(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// goEnv is the Go setting a temporary HOME would lose: the build and module
// caches, so that the action's build is warm and needs no network.
func goEnv(t *testing.T) []string {
	var env []string
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Skipf("go env %s: %v", k, err)
		}
		env = append(env, k+"="+strings.TrimSpace(string(out)))
	}
	return append(env, "GOTOOLCHAIN=local", "GOFLAGS=-mod=readonly", "GOPROXY=off")
}

const twoTests = `package a

import "testing"

func TestOne(t *testing.T) {}

func TestTwo(t *testing.T) {}
`

const oneTest = `package a

import "testing"

func TestOne(t *testing.T) {}
`

const threeTests = twoTests + `
func TestThree(t *testing.T) {}
`

// TestActionOnPullRequest runs action.yml's steps as a runner would, with
// the real build, bash and git, on a pull request whose commits lose a
// test and lack an Assisted-by in the middle; then on a shallow checkout
// of a push that passes, with the base given as an input.
func TestActionOnPullRequest(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds sentinel and sentinel-engine")
	}
	for _, tool := range []string{"bash", "git", "make", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	a, err := Load(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	home := filepath.Join(tmp, "home")
	runnerTemp := filepath.Join(tmp, "runner-temp")
	for _, d := range []string{home, runnerTemp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	base := append([]string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "LANG=C.UTF-8",
		"GIT_AUTHOR_NAME=Jane Doe", "GIT_AUTHOR_EMAIL=jane@example.com",
		"GIT_COMMITTER_NAME=Jane Doe", "GIT_COMMITTER_EMAIL=jane@example.com",
		"CI=true", "GITHUB_ACTIONS=true", "RUNNER_OS=Linux", "RUNNER_TEMP=" + runnerTemp,
		"GITHUB_ACTION_PATH=" + root,
	}, goEnv(t)...)

	// The build step alone first: its sentinel sets up the repositories.
	bin := builtOnce(t, a, base, root)
	withBin := append(append([]string{}, base...), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))

	// The project: sentinel set up on main, then a branch with problems
	// and a branch that passes.
	src := filepath.Join(tmp, "src")
	os.MkdirAll(src, 0o755)
	git := func(args ...string) string { return sh(t, src, withBin, "git", args...) }
	git("init", "-q", "-b", "main")
	write(t, filepath.Join(src, "a_test.go"), twoTests)
	git("add", "a_test.go")
	sh(t, src, withBin, filepath.Join(bin, "sentinel"), "init")
	git("add", "-A")
	git("commit", "-q", "-m", "Set up sentinel")
	baseSHA := git("rev-parse", "HEAD")

	git("checkout", "-q", "-b", "bad")
	git("commit", "-q", "--allow-empty", "-m", "Before")
	git("commit", "-q", "--allow-empty", "--no-verify", "-m", "Add retry\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)")
	write(t, filepath.Join(src, "a_test.go"), oneTest)
	git("commit", "-q", "-a", "--no-verify", "-m", "Drop a test")
	git("commit", "-q", "--allow-empty", "--no-verify", "-m", "After")

	git("checkout", "-q", "-b", "good", "main")
	write(t, filepath.Join(src, "a_test.go"), threeTests)
	git("commit", "-q", "-a", "-m", "Add a test\n\nAssisted-by: Claude:claude-opus-4-5")
	git("checkout", "-q", "main")

	t.Run("pull request refused", func(t *testing.T) {
		ws := filepath.Join(tmp, "ws1")
		sh(t, tmp, base, "git", "clone", "-q", "-b", "bad", src, ws)
		head := sh(t, ws, base, "git", "rev-parse", "HEAD")
		// A segment an earlier step of the job left in the cache, as the
		// project's own code could: the action removes it unread.
		planted := filepath.Join(ws, ".git", "sentinel", "counts-v0.bin.d", "planted.bin")
		write(t, planted, "SNTC\x02\x00")
		env, summary := runnerFiles(t, ws, head, map[string]any{"pull_request": map[string]any{"base": map[string]any{"sha": baseSHA}}})
		res, err := a.Run(context.Background(), &Context{Env: append(append([]string{}, base...), env...), ActionPath: root, Workspace: ws})
		if err != nil {
			t.Fatal(err)
		}
		if res.Failed == nil || res.Failed.Step.Name != "sentinel ci" || res.Failed.Code != 1 {
			t.Fatalf("want the sentinel ci step to fail with exit 1; got %+v", res.Failed)
		}
		var skipped []string
		for _, s := range res.Steps {
			if s.Skipped {
				skipped = append(skipped, s.Step.Uses)
			}
		}
		if got := strings.Join(skipped, " "); got != "actions/setup-go@v5 actions/cache/restore@v4" {
			t.Errorf("skipped %q", got)
		}
		out := res.Stdout()
		for _, want := range []string{
			// A lost test is annotated where it last was; the drop on the
			// baseline names the acceptance after the fact that mends it.
			`(?m)^::error file=a_test\.go,line=7,title=sentinel ratchet::commit [0-9a-f]{12} Drop a test: go TestTwo is gone \(a_test\.go:7\)`,
			`(?m)^::error file=\.sentinel/baseline\.json,line=1,title=sentinel ratchet::go tests 2 → 1; if intended: sentinel accept --rev [0-9a-f]{12} --reason`,
			`(?m)^::error title=sentinel attribution::commit [0-9a-f]{12} Add retry: line 1: missing-assisted-by: .* rebase -i --rebase-merges ` + baseSHA + `$`,
		} {
			if !regexp.MustCompile(want).MatchString(out) {
				t.Errorf("the annotations lack %s:\n%s", want, out)
			}
		}
		sum := readFile(t, summary)
		for _, want := range []string{
			"## sentinel ci\n",
			"**Refused**: 4 commits checked; 1 figure below its peak, 1 test lost without an acceptance, 1 commit refused by the attribution policy.",
			"| go | 1 | 2 | 0 | 0 | 0 | **below its peak**: tests |",
			"Drop a test: go TestTwo is gone \\(a\\_test.go\\:7\\)",
			"```sh\nGIT_SEQUENCE_EDITOR='f() { awk ",
		} {
			if !strings.Contains(sum, want) {
				t.Errorf("the summary lacks %q:\n%s", want, sum)
			}
		}
		// The cache the action saves is where sentinel wrote its counts.
		dir := res.Steps[stepIndex(t, res, "cache-dir")].Outputs["dir"]
		real, _ := filepath.EvalSymlinks(filepath.Join(ws, ".git"))
		if dir != filepath.Join(real, "sentinel") {
			t.Errorf("cache dir %q, want %q", dir, filepath.Join(real, "sentinel"))
		}
		if m, _ := filepath.Glob(filepath.Join(dir, "counts-v*")); len(m) == 0 {
			t.Errorf("no count cache in %s after the run", dir)
		}
		if _, err := os.Stat(planted); err == nil {
			t.Errorf("the file an earlier step left in the cache is still there: %s", planted)
		}
	})

	t.Run("shallow push passes", func(t *testing.T) {
		ws := filepath.Join(tmp, "ws2")
		sh(t, tmp, base, "git", "clone", "-q", "--depth", "1", "-b", "good", "file://"+src, ws)
		head := sh(t, ws, base, "git", "rev-parse", "HEAD")
		env, summary := runnerFiles(t, ws, head, map[string]any{"before": baseSHA})
		res, err := a.Run(context.Background(), &Context{Env: append(append([]string{}, base...), env...), ActionPath: root, Workspace: ws,
			Inputs: map[string]string{"base": baseSHA}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Failed != nil {
			t.Fatalf("step %q failed (exit %d):\n%s%s", res.Failed.Step.Label(), res.Failed.Code, res.Failed.Stdout, res.Failed.Stderr)
		}
		out := res.Stdout()
		for _, want := range []string{
			"::notice title=sentinel::the checkout is shallow; fetching the history",
			"::notice title=sentinel::1 commits checked, all pass\n",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("stdout lacks %q:\n%s", want, out)
			}
		}
		sum := readFile(t, summary)
		for _, want := range []string{"**Passed**: 1 commits checked.", "| go | 3 | 3 | 0 | 0 | 0 | ok |"} {
			if !strings.Contains(sum, want) {
				t.Errorf("the summary lacks %q:\n%s", want, sum)
			}
		}
	})
}

// TestActionOnPush runs the action on pushes without a base: each checks
// the whole history, whatever the tip it moved ("before": one the clone
// has, all zeros for a new branch, no ancestor after a forced push, one the
// clone lacks). Checking only the commits a push added would let a later
// push turn the branch green over a commit that broke a rule.
func TestActionOnPush(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds sentinel and sentinel-engine")
	}
	for _, tool := range []string{"bash", "git", "make", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	a, err := Load(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	home := filepath.Join(tmp, "home")
	runnerTemp := filepath.Join(tmp, "runner-temp")
	for _, d := range []string{home, runnerTemp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	base := append([]string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "LANG=C.UTF-8",
		"GIT_AUTHOR_NAME=Jane Doe", "GIT_AUTHOR_EMAIL=jane@example.com",
		"GIT_COMMITTER_NAME=Jane Doe", "GIT_COMMITTER_EMAIL=jane@example.com",
		"CI=true", "GITHUB_ACTIONS=true", "RUNNER_OS=Linux", "RUNNER_TEMP=" + runnerTemp,
		"GITHUB_ACTION_PATH=" + root,
	}, goEnv(t)...)
	bin := builtOnce(t, a, base, root)
	withBin := append(append([]string{}, base...), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	src := filepath.Join(tmp, "src")
	os.MkdirAll(src, 0o755)
	git := func(args ...string) string { return sh(t, src, withBin, "git", args...) }
	git("init", "-q", "-b", "main")
	write(t, filepath.Join(src, "a_test.go"), twoTests)
	git("add", "a_test.go")
	sh(t, src, withBin, filepath.Join(bin, "sentinel"), "init")
	git("add", "-A")
	git("commit", "-q", "-m", "Two tests")
	first := git("rev-parse", "HEAD")
	write(t, filepath.Join(src, "a_test.go"), threeTests)
	git("commit", "-q", "-a", "-m", "A third test")
	git("commit", "-q", "--allow-empty", "-m", "After")
	// A tip a forced push replaced: in the clone, on a branch of its own,
	// and no ancestor of the new one.
	unrelated := git("commit-tree", "-m", "elsewhere", git("rev-parse", "HEAD^{tree}"))
	git("branch", "old-tip", unrelated)

	for i, tc := range []struct {
		name, before string
		checked      int
	}{
		{"after a tip the clone has", first, 3},
		{"a new branch", strings.Repeat("0", 40), 3},
		{"a forced push", unrelated, 3},
		{"a tip the clone lacks", strings.Repeat("1", 40), 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := filepath.Join(tmp, fmt.Sprintf("ws%d", i))
			sh(t, tmp, base, "git", "clone", "-q", src, ws)
			env, _ := runnerFiles(t, ws, sh(t, ws, base, "git", "rev-parse", "HEAD"), map[string]any{"before": tc.before})
			res, err := a.Run(context.Background(), &Context{Env: append(append([]string{}, base...), env...), ActionPath: root, Workspace: ws})
			if err != nil {
				t.Fatal(err)
			}
			if res.Failed != nil {
				t.Fatalf("step %q failed (exit %d):\n%s%s", res.Failed.Step.Label(), res.Failed.Code, res.Failed.Stdout, res.Failed.Stderr)
			}
			if want := fmt.Sprintf("::notice title=sentinel::%d commits checked, all pass\n", tc.checked); !strings.Contains(res.Stdout(), want) {
				t.Errorf("stdout lacks %q:\n%s", want, res.Stdout())
			}
		})
	}
}

// shared is the action's build step run once for the package's tests, in a
// directory of its own: the tests set their repositories up with its
// sentinel. Each run of the whole action builds again, warm, in the
// test's own RUNNER_TEMP.
var shared struct {
	once sync.Once
	dir  string // removed by TestMain
	bin  string // "" when the build failed
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// builtOnce runs the action's build step the first time it is called,
// with env but a RUNNER_TEMP of its own, and returns the directory of the
// sentinel and sentinel-engine it made; a later call fails when that
// build did.
func builtOnce(t *testing.T, a *Action, env []string, root string) string {
	t.Helper()
	shared.once.Do(func() {
		dir, err := os.MkdirTemp("", "ghaction-build")
		if err != nil {
			t.Fatal(err)
		}
		shared.dir = dir
		runnerTemp := filepath.Join(dir, "runner-temp")
		if err := os.MkdirAll(runnerTemp, 0o755); err != nil {
			t.Fatal(err)
		}
		env = append(slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, "RUNNER_TEMP=") }),
			"RUNNER_TEMP="+runnerTemp)
		shared.bin = buildStep(t, a, env, root, dir, runnerTemp)
	})
	if shared.bin == "" {
		t.Fatal("the action's build step failed in the test that ran it first")
	}
	return shared.bin
}

// buildStep runs the action's build step alone and returns the directory
// of the sentinel and sentinel-engine it made.
func buildStep(t *testing.T, a *Action, env []string, root, tmp, runnerTemp string) string {
	t.Helper()
	var build []Step
	for _, s := range a.Steps {
		if s.ID == "build" {
			build = append(build, s)
		}
	}
	if len(build) != 1 {
		t.Fatalf("action.yml has %d steps with id build", len(build))
	}
	ws := filepath.Join(tmp, "ws-build")
	os.MkdirAll(ws, 0o755)
	res, err := (&Action{Inputs: a.Inputs, Steps: build}).Run(context.Background(), &Context{Env: env, ActionPath: root, Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	if res.Failed != nil {
		t.Fatalf("the build failed: %s%s", res.Failed.Stdout, res.Failed.Stderr)
	}
	bin := filepath.Join(runnerTemp, "sentinel-action", "bin")
	for _, b := range []string{"sentinel", "sentinel-engine"} {
		if _, err := os.Stat(filepath.Join(bin, b)); err != nil {
			t.Fatalf("the build step made no %s: %v", b, err)
		}
	}
	return bin
}

// runnerFiles writes the event and makes the files a runner hands a job,
// and returns the environment that names them and the summary's path.
func runnerFiles(t *testing.T, ws, sha string, event map[string]any) ([]string, string) {
	t.Helper()
	dir := t.TempDir()
	ev, err := json.Marshal(event)
	if err != nil {
		t.Fatal(err)
	}
	evPath := filepath.Join(dir, "event.json")
	summary := filepath.Join(dir, "step_summary.md")
	write(t, evPath, string(ev))
	write(t, summary, "")
	name := "push"
	if _, ok := event["pull_request"]; ok {
		name = "pull_request"
	}
	return []string{"GITHUB_WORKSPACE=" + ws, "GITHUB_EVENT_PATH=" + evPath, "GITHUB_EVENT_NAME=" + name,
		"GITHUB_SHA=" + sha, "GITHUB_STEP_SUMMARY=" + summary}, summary
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func stepIndex(t *testing.T, res *Result, id string) int {
	t.Helper()
	for i, s := range res.Steps {
		if s.Step.ID == id {
			return i
		}
	}
	t.Fatalf("no step with id %s ran", id)
	return -1
}
