package chaos

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// project is the repository every probe starts from: a small Go module and
// a Python package with tests in several files, so that counts, removals
// and additions are real ones, and two languages have peaks of their own.
var project = map[string]string{
	"go.mod":         "module example.com/chaos\n\ngo 1.22\n",
	".gitattributes": "*.go text eol=lf\n",
	"calc/calc.go": `package calc

// Add returns a+b.
func Add(a, b int) int { return a + b }

// Sub returns a-b.
func Sub(a, b int) int { return a - b }
`,
	"calc/calc_test.go": calcTests(true),
	"strs/strs_test.go": `package strs

import (
	"strings"
	"testing"
)

func TestUpper(t *testing.T) {
	if strings.ToUpper("a") != "A" {
		t.Error("upper")
	}
}

func TestRepeat(t *testing.T) {
	if strings.Repeat("ab", 2) != "abab" {
		t.Errorf("repeat")
	}
	if strings.Repeat("", 3) != "" {
		t.Errorf("repeat empty")
	}
}

func TestFields(t *testing.T) {
	for _, tc := range []struct{ in string }{{"a b"}, {" a  b "}} {
		t.Run(tc.in, func(t *testing.T) {
			if len(strings.Fields(tc.in)) != 2 {
				t.Fatal("fields")
			}
		})
	}
}

func BenchmarkUpper(b *testing.B) {
	for i := 0; i < b.N; i++ {
		strings.ToUpper("abc")
	}
}
`,
	"mathx/mathx_test.go": `package mathx

import (
	"math"
	"testing"
)

func TestSqrt(t *testing.T) {
	if math.Sqrt(4) != 2 {
		t.Fatalf("sqrt")
	}
}

func TestAbs(t *testing.T) {
	if math.Abs(-1) != 1 {
		t.Errorf("abs")
	}
}

func TestMax(t *testing.T) {
	if math.Max(1, 2) != 2 {
		t.Errorf("max")
	}
}
`,
	"tests/test_util.py": pythonTests(true),
}

// calcTests is calc's test file, with or without TestSub: its removal is
// the Go loss an accept records.
func calcTests(withSub bool) string {
	s := `package calc

import "testing"

func TestAdd(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Errorf("Add")
	}
}
`
	if withSub {
		s += `
func TestSub(t *testing.T) {
	if Sub(3, 2) != 1 {
		t.Errorf("Sub")
	}
	if Sub(2, 3) != -1 {
		t.Errorf("Sub negative")
	}
}
`
	}
	return s + `
func TestAddZero(t *testing.T) {
	if Add(0, 0) != 0 {
		t.Fatal("zero")
	}
}
`
}

// pythonTests is the Python test module, with or without test_split: its
// removal is the Python loss an accept records.
func pythonTests(withSplit bool) string {
	s := `def test_upper():
    assert "a".upper() == "A"


def test_strip():
    assert " a ".strip() == "a"
`
	if withSplit {
		s += `

def test_split():
    assert "a b".split() == ["a", "b"]
    assert "".split() == []
`
	}
	return s
}

// Edits of the work tree that the scenarios stage.
var (
	removeGo = edit{"calc/calc_test.go": calcTests(false)}
	removePy = edit{"tests/test_util.py": pythonTests(false)}
	addGo    = edit{"calc/extra_test.go": `package calc

import "testing"

func TestAddMany(t *testing.T) {
	if Add(Add(1, 2), 3) != 6 {
		t.Errorf("AddMany")
	}
}

func TestSubSelf(t *testing.T) {
	if Sub(5, 5) != 0 {
		t.Errorf("SubSelf")
	}
}
`}
	// addMore is a further test, for a commit after the probe's.
	addMore = edit{"mathx/more_test.go": `package mathx

import (
	"math"
	"testing"
)

func TestMin(t *testing.T) {
	if math.Min(1, 2) != 1 {
		t.Errorf("min")
	}
}
`}
	addPy = edit{"tests/test_extra.py": `def test_join():
    assert "-".join(["a", "b"]) == "a-b"


def test_title():
    assert "ab".title() == "Ab"
`}
)

// edit is a set of files to write, by slash-separated path.
type edit map[string]string

// apply writes the files into the work tree dir.
func (e edit) apply(dir string) error {
	for rel, content := range e {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// foreignHooks are hooks another tool installed before sentinel. Each
// leaves a mark when it runs, so that the probe sees that sentinel's chain
// still runs it after an interrupted install or uninstall.
var foreignHooks = map[string]string{
	"pre-commit": "#!/bin/sh\n# a project's own pre-commit hook\necho ran >> \"$(git rev-parse --git-common-dir)/foreign-pre-commit.ran\"\n",
	"commit-msg": "#!/bin/sh\n# a project's own commit-msg hook\necho ran >> \"$(git rev-parse --git-common-dir)/foreign-commit-msg.ran\"\n",
}

// claudeSettings are a project's agent settings before the guard is
// installed: other keys and another hook that the install must keep.
const claudeSettings = `{
  "permissions": {
    "allow": ["Bash(go test:*)"]
  },
  "hooks": {
    "PostToolUse": [
      {"matcher": "Write", "hooks": [{"type": "command", "command": "gofmt -l ."}]}
    ]
  }
}
`

// baselineFile is the baseline's path in a work tree.
const baselineFile = ".sentinel/baseline.json"

// baseline is what the probe reads of a baseline.
type baseline struct {
	Version  int                       `json:"version"`
	Peaks    map[string]map[string]int `json:"peaks"`
	Accepted []struct {
		Reason  string                       `json:"reason"`
		Lowered map[string]map[string][2]int `json:"lowered"`
	} `json:"accepted"`
}

// parseBaseline reads a baseline, strictly enough that a torn one fails.
func parseBaseline(data []byte) (*baseline, error) {
	var b baseline
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, err
	}
	if b.Version != 1 || b.Peaks == nil {
		return nil, fmt.Errorf("not a version 1 baseline with peaks")
	}
	return &b, nil
}

// accepted reports whether the baseline holds an acceptance with reason.
func (b *baseline) accepted(reason string) bool {
	for _, a := range b.Accepted {
		if a.Reason == reason {
			return true
		}
	}
	return false
}

// peak returns a peak, or -1 when the row has none.
func (b *baseline) peak(row, figure string) int {
	if p, ok := b.Peaks[row][figure]; ok {
		return p
	}
	return -1
}

// stagedCounts returns the tests per language of the index in dir.
func (l *lab) stagedCounts(dir string) (map[string]int, error) {
	out, err := l.sentinel(dir, "count", "--staged", "--format", "json")
	if err != nil {
		return nil, err
	}
	var c struct {
		Languages map[string]struct {
			Tests int `json:"tests"`
		} `json:"languages"`
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		return nil, fmt.Errorf("read sentinel count's JSON: %w", err)
	}
	m := map[string]int{}
	for k, v := range c.Languages {
		m[k] = v.Tests
	}
	return m, nil
}

// templates are the prepared repositories the probes copy, by name.
type templates struct {
	// base has the project committed and the foreign hooks, no sentinel.
	base string
	// setup has sentinel set up and committed, its hooks chained in
	// front of the foreign ones.
	setup string
	// bare is setup with the hooks uninstalled again: the foreign ones
	// are back in place.
	bare string
	// guard is setup with the project's agent settings committed.
	guard string
}

// buildTemplates prepares the repositories under the lab's directory.
func (l *lab) buildTemplates() (*templates, error) {
	root := filepath.Join(l.dir, "templates")
	t := &templates{
		base:  filepath.Join(root, "base"),
		setup: filepath.Join(root, "setup"),
		bare:  filepath.Join(root, "bare"),
		guard: filepath.Join(root, "guard"),
	}
	if err := os.MkdirAll(t.base, 0o755); err != nil {
		return nil, err
	}
	if _, err := l.git(t.base, "init", "-q"); err != nil {
		return nil, err
	}
	if err := edit(project).apply(t.base); err != nil {
		return nil, err
	}
	if err := l.stageCommit(t.base, "The project and its tests"); err != nil {
		return nil, err
	}
	for name, script := range foreignHooks {
		if err := os.WriteFile(filepath.Join(t.base, ".git", "hooks", name), []byte(script), 0o755); err != nil {
			return nil, err
		}
	}
	// The samples git puts in every repository are noise in a snapshot.
	samples, _ := filepath.Glob(filepath.Join(t.base, ".git", "hooks", "*.sample"))
	for _, s := range samples {
		os.Remove(s)
	}

	if err := copyTree(t.base, t.setup); err != nil {
		return nil, err
	}
	if _, err := l.sentinel(t.setup, "init"); err != nil {
		return nil, err
	}
	if err := l.stageCommit(t.setup, "Set up sentinel"); err != nil {
		return nil, err
	}

	if err := copyTree(t.setup, t.bare); err != nil {
		return nil, err
	}
	if _, err := l.sentinel(t.bare, "uninstall"); err != nil {
		return nil, err
	}

	if err := copyTree(t.setup, t.guard); err != nil {
		return nil, err
	}
	if err := (edit{".claude/settings.json": claudeSettings}).apply(t.guard); err != nil {
		return nil, err
	}
	if err := l.stageCommit(t.guard, "The project's agent settings"); err != nil {
		return nil, err
	}
	return t, nil
}

// stageCommit stages every change in dir and commits it, hooks and all.
func (l *lab) stageCommit(dir, msg string) error {
	if _, err := l.git(dir, "add", "-A"); err != nil {
		return err
	}
	_, err := l.git(dir, "commit", "-q", "-m", msg)
	return err
}

// derive copies the template from to a new one, applies the edit and
// stages it.
func (l *lab) derive(from, name string, e edit) (string, error) {
	dir := filepath.Join(l.dir, "templates", name)
	if err := copyTree(from, dir); err != nil {
		return "", err
	}
	if err := e.apply(dir); err != nil {
		return "", err
	}
	if len(e) > 0 {
		if _, err := l.git(dir, append([]string{"add", "--"}, keys(e)...)...); err != nil {
			return "", err
		}
	}
	return dir, nil
}

func keys(e edit) []string {
	var ks []string
	for k := range e {
		ks = append(ks, k)
	}
	return ks
}

// readBaselines reads the baseline of the work tree dir and the one in its
// index; a problem names what is wrong with either.
func (l *lab) readBaselines(dir string) (wt, staged *baseline, problems []string) {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(baselineFile)))
	if err == nil {
		wt, err = parseBaseline(data)
	}
	if err != nil {
		problems = append(problems, "work-tree baseline: "+err.Error())
	}
	r := l.run(dir, time.Minute, nil, "git", "cat-file", "blob", ":"+baselineFile)
	if r.exit == 0 {
		staged, err = parseBaseline([]byte(r.stdout))
		if err != nil {
			problems = append(problems, "staged baseline: "+err.Error())
		}
	} else {
		problems = append(problems, "staged baseline: "+strings.TrimSpace(r.stderr))
	}
	return wt, staged, problems
}
