//go:build !sentinel_front

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/internal/gittest"
	"github.com/gitsentinel/sentinel/trailers"
)

// The sections of docs/json.md, by the start of their headings.
const (
	secAgent    = "`sentinel agent --format json`"
	secCheck    = "`sentinel check --format json`"
	secCI       = "`sentinel ci --format json`"
	secCount    = "`sentinel count --format json`"
	secDoctor   = "`sentinel doctor --format json`"
	secList     = "`sentinel count --list --format json`"
	secHistory  = "`sentinel history --format json`"
	secStatus   = "`sentinel status --format json`"
	secTrailers = "`sentinel trailers check --format json`"
	secGuardLog = "`sentinel guard log --format json`"
	secError    = "When a command fails"
	secSARIF    = "`sentinel ci --format sarif`"
)

// reports are what the commands wrote in one repository that has
// something of every kind to report: the JSON documents by the section of
// docs/json.md that documents them, and the SARIF logs by command.
type reports struct {
	json  map[string][][]byte
	sarif map[string][]byte
}

// sentinelRun is one run of sentinel, in-process.
type sentinelRun struct {
	t   *testing.T
	dir string
	env map[string]string
}

// run runs sentinel with args in the run's directory, and returns its
// stdout, its stderr and its exit status.
func (r *sentinelRun) run(stdin string, extra map[string]string, args ...string) (string, string, int) {
	r.t.Helper()
	r.t.Chdir(r.dir)
	getenv := func(k string) string {
		if v, ok := extra[k]; ok {
			return v
		}
		return r.env[k]
	}
	var out, errb bytes.Buffer
	code := exitCode(run(append([]string{"sentinel"}, args...), strings.NewReader(stdin), &out, &errb, getenv), &errb)
	return out.String(), errb.String(), code
}

// must runs sentinel and fails the test unless it exits with want.
func (r *sentinelRun) must(want int, args ...string) string {
	r.t.Helper()
	out, errs, code := r.run("", nil, args...)
	if code != want {
		r.t.Fatalf("sentinel %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, out, errs)
	}
	return out
}

// git runs git in the run's directory, with the hooks sentinel installs
// left out: they would run the test binary.
func (r *sentinelRun) git(args ...string) {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "core.hooksPath=" + os.DevNull}, args...)...)
	cmd.Dir = r.dir
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// write writes files of the run's directory.
func (r *sentinelRun) write(files ...string) {
	r.t.Helper()
	for i := 0; i+1 < len(files); i += 2 {
		if err := os.WriteFile(filepath.Join(r.dir, files[i]), []byte(files[i+1]), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

const (
	testsAll = `package a

import "testing"

func TestOne(t *testing.T) {
	if 1+1 != 2 {
		t.Fatal("sum")
	}
	if 2*2 != 4 {
		t.Fatal("product")
	}
}

func TestTwo(t *testing.T) {
	if len("ab") != 2 {
		t.Fatal("len")
	}
}

func TestThree(t *testing.T) {}

func TestFour(t *testing.T) {}
`
	// testsLost removes TestTwo, empties TestOne and switches TestThree
	// off, with no acceptance.
	testsLost = `package a

import "testing"

func TestOne(t *testing.T) {}

func TestThree(t *testing.T) { t.Skip("later") }
`
)

// testsLess lacks TestFour, which an acceptance lets go.
var testsLess = strings.Replace(testsAll, "\nfunc TestFour(t *testing.T) {}\n", "", 1)

// collectReports builds a repository with a history that gives every
// report something to say (a test removed, one switched off, one emptied,
// a peak lowered by hand, agent trailers, an acceptance an agent
// committed, a guard refusal), and runs every command that writes JSON,
// in each of its modes, and the two that write SARIF.
func collectReports(t *testing.T) *reports {
	gittest.Isolate(t)
	home := t.TempDir()
	dir := filepath.Join(t.TempDir(), "repo")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".state"))
	t.Setenv("GIT_AUTHOR_DATE", "2026-11-29T12:00:00Z")
	t.Setenv("GIT_COMMITTER_DATE", "2026-11-29T12:00:00Z")
	// The walk up the process tree stops at the test binary, which may
	// itself run under an agent.
	saved := processes
	processes = func(dir string) *trailers.Ancestry {
		a := trailers.SystemAncestry(dir)
		a.Stop = os.Getpid()
		return a
	}
	t.Cleanup(func() { processes = saved })
	env := map[string]string{}
	for _, k := range []string{"PATH", "HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "LC_ALL",
		"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"} {
		env[k] = os.Getenv(k)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := &sentinelRun{t: t, dir: dir, env: env}
	rep := &reports{json: map[string][][]byte{}, sarif: map[string][]byte{}}
	keep := func(sec, out string) { rep.json[sec] = append(rep.json[sec], []byte(out)) }

	// A repository without a baseline: a command that cannot do its job.
	r.git("init", "-q", "-b", "main", ".")
	r.write("go.mod", "module example.com/a\n", "a_test.go", testsAll, "conftest.py", "import pytest\n")
	keep(secError, r.must(exitError, "status", "--format", "json"))
	keep(secError, r.must(exitError, "ci", "--format", "json"))
	keep(secHistory, r.must(exitOK, "history", "--format", "json"))
	// Neither hooks nor a baseline yet: gaps, each with its fix.
	keep(secDoctor, r.must(exitPolicy, "doctor", "--format", "json"))

	r.git("add", "-A")
	r.must(exitOK, "init")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "Set up sentinel")
	// Healthy, with advice: Claude Code's directory without the guard.
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	keep(secDoctor, r.must(exitOK, "doctor", "--format", "json"))
	keep(secCheck, r.must(exitOK, "check", "--format", "json"))
	keep(secCount, r.must(exitOK, "count", "--format", "json"))
	keep(secList, r.must(exitOK, "count", "--list", "--format", "json"))
	keep(secStatus, r.must(exitOK, "status", "--format", "json"))
	keep(secCI, r.must(exitOK, "ci", "--format", "json"))
	rep.sarif["ci-pass"] = []byte(r.must(exitOK, "ci", "--format", "sarif"))

	// A commit an agent helped with, which credits it as a person.
	r.git("commit", "-q", "--allow-empty", "-m", "Helped", "-m",
		"Co-authored-by: Claude <noreply@anthropic.com>\nSigned-off-by: Claude <noreply@anthropic.com>")
	// An acceptance, committed by an agent.
	r.write("a_test.go", testsLess, "conftest.py", "import pytest\n\ncollect_ignore_glob = [\"*\"]\n")
	r.must(exitOK, "accept", "--reason", "TestFour moved to the integration suite")
	r.git("commit", "-q", "-a", "-m", "Drop TestFour", "-m", "Assisted-by: Claude:claude-opus-4")
	// A peak lowered by hand.
	baseline := filepath.Join(dir, ".sentinel", "baseline.json")
	data, err := os.ReadFile(baseline)
	if err != nil {
		t.Fatal(err)
	}
	r.write(".sentinel/baseline.json", strings.Replace(string(data), `"assertions": 3`, `"assertions": 2`, 1))
	r.git("commit", "-q", "-a", "-m", "Lower the peak by hand")

	// Tests lost in the work tree: check reports them.
	r.write("a_test.go", testsLost)
	keep(secCheck, r.must(exitPolicy, "check", "--format", "json"))
	keep(secStatus, r.must(exitOK, "status", "--format", "json"))
	rep.sarif["check"] = []byte(r.must(exitPolicy, "check", "--format", "sarif"))
	keep(secList, r.must(exitOK, "count", "--list", "--format", "json", "a_test.go"))

	// Plain files outside a repository: a Python test that runs only
	// where numpy imports, and a Go test built for one system.
	plain := filepath.Join(t.TempDir(), "plain")
	if err := os.MkdirAll(filepath.Join(plain, "tests"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{
		"tests/test_np.py":  "import pytest\n\nnp = pytest.importorskip(\"numpy\")\n\n\ndef test_sum():\n    assert np.sum([1, 2]) == 3\n",
		"x_windows_test.go": "package x\n\nimport \"testing\"\n\nfunc TestPaths(t *testing.T) {}\n",
	} {
		if err := os.WriteFile(filepath.Join(plain, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	keep(secList, r.must(exitOK, "count", "--list", "--format", "json", plain))

	// The same, committed past the hooks: ci reports every commit.
	r.git("commit", "-q", "-a", "-m", "Lose tests")
	keep(secCI, r.must(exitPolicy, "ci", "--format", "json"))
	rep.sarif["ci"] = []byte(r.must(exitPolicy, "ci", "--format", "sarif"))
	// The runner's report of that commit, which ran another package's
	// test only: TestOne is lost, the other is information.
	results := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(results, []byte(`{"Action":"run","Package":"example.com/other","Test":"TestElse"}
{"Action":"skip","Package":"example.com/other","Test":"TestElse"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	keep(secCI, r.must(exitPolicy, "ci", "--format", "json", "--results", results))
	rep.sarif["ci-results"] = []byte(r.must(exitPolicy, "ci", "--format", "sarif", "--results", results))
	keep(secHistory, r.must(exitOK, "history", "--format", "json"))
	keep(secTrailers, r.must(exitPolicy, "trailers", "check", "--range", "HEAD", "--format", "json"))

	// A message with an agent co-author: refused, then fixed.
	r.write("msg", "Add a test\n\nCo-authored-by: Claude <noreply@anthropic.com>\n")
	keep(secTrailers, r.must(exitPolicy, "trailers", "check", "--format", "json", "msg"))
	keep(secTrailers, r.must(exitOK, "trailers", "check", "--fix", "--format", "json", "msg"))

	// Tests above their peaks, raised.
	r.write("a_test.go", testsAll)
	keep(secCheck, r.must(exitOK, "check", "--update", "--format", "json"))

	// The agent, not detected and detected.
	keep(secAgent, r.must(exitOK, "agent", "--format", "json"))
	out, errs, code := r.run("", map[string]string{"CLAUDECODE": "1", "ANTHROPIC_MODEL": "claude-opus-4"}, "agent", "--format", "json")
	if code != exitOK {
		t.Fatalf("agent: exit %d\n%s", code, errs)
	}
	keep(secAgent, out)

	// A guard refusal, and the audit trail that records it.
	event := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force origin main"},"cwd":"` + dir + `"}`
	if out, errs, code := r.run(event, nil, "guard", "--agent", "claude"); code != exitOK || !strings.Contains(out, `"deny"`) {
		t.Fatalf("guard: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	for _, line := range strings.SplitAfter(strings.TrimSpace(r.must(exitOK, "guard", "log", "--format", "json")), "\n") {
		keep(secGuardLog, line)
	}
	return rep
}
