package guard

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/policy"
	"github.com/gitsentinel/sentinel/guard/shell"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// decideAs runs one event through the guard as the named dialect (or
// recognised, for "") and returns the verdict.
func decideAs(t *testing.T, dialect, event string) *Decision {
	t.Helper()
	var d hosts.Dialect
	if dialect != "" {
		d = hosts.Dialects[dialect]
	}
	dec, _, _ := Run(context.Background(), Request{
		Input:   func() ([]byte, error) { return []byte(event), nil },
		Dialect: d,
		NewEnv:  func(cwd string) *pathguard.Env { e := guardtest.CorpusEnv(); e.Cwd = cwd; return e },
		Policy:  func() (*policy.Policy, error) { return &policy.Policy{}, nil },
	})
	return dec
}

// TestMalformedEventsDeny is every event shape that once reached the allow
// path: a call the guard cannot fully read is a denial, in every dialect.
func TestMalformedEventsDeny(t *testing.T) {
	cases := map[string][]string{
		"claude": {
			`{"tool_name":"Bash"}`,
			`{"tool_name":"Bash","tool_input":{}}`,
			`{"tool_name":"Bash","tool_input":null}`,
			`{"tool_name":"Bash","tool_input":{"command":null}}`,
			`{"tool_name":"Bash","tool_input":{"command":42}}`,
			`{"tool_name":"Bash","tool_input":{"command":["rm","-rf","/"]}}`,
			`{"tool_name":"Bash","tool_input":{"command":""}}`,
			`{}`, `null`, `[]`, `"Bash"`, ``,
			`{"tool_name":"Write","tool_input":{}}`,
			`{"tool_name":"Write","tool_input":{"file_path":""}}`,
			`{"tool_name":"Edit","tool_input":{"file_path":null}}`,
			`{"tool_name":"NotebookEdit","tool_input":{"file_path":".git/hooks/pre-commit"}}`,
			`{"tool_name":"Read","tool_input":{}}`,
			// Keys differing only in case, and duplicates, at any depth.
			`{"tool_name":"Bash","tool_input":{"command":"rm -rf ~","Command":"ls"}}`,
			`{"tool_name":"Bash","tool_input":{"command":"ls","command":"rm -rf ~"}}`,
			`{"tool_name":"Bash","Tool_Name":"Read","tool_input":{"command":"rm -rf ~"}}`,
			`{"tool_name":"Bash","tool_input":{"command":"ls"}} {"x":1}`,
			// Another agent's marks make the shape ambiguous.
			`{"tool_name":"Bash","tool_input":{"command":"rm -rf ~"},"toolName":"view","toolArgs":"{}"}`,
		},
		"codex": {
			`{"tool_name":"Bash","turn_id":"t","tool_input":{}}`,
			`{"tool_name":"Bash","turn_id":"t","tool_input":{"command":7}}`,
			`{"tool_name":"Bash","turn_id":"t","tool_input":{"command":{"argv":["rm","-rf","/"]}}}`,
			`{"tool_name":"Bash","turn_id":"t","tool_input":{"command":true}}`,
			`{"tool_name":"Bash","turn_id":"t","tool_input":{"command":[]}}`,
			`{"tool_name":"Bash","turn_id":"t","tool_input":{"command":[1,2]}}`,
			`{"tool_name":"Bash","turn_id":"t","tool_input":{"command":null}}`,
			`{"tool_name":"apply_patch","turn_id":"t","tool_input":{"input":"no patch here"}}`,
		},
		"gemini": {
			`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{}}`,
			`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command"}`,
			`{"hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":""}}`,
			`{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{}}`,
		},
		"cursor": {
			`{"hook_event_name":"beforeShellExecution"}`,
			`{"hook_event_name":"beforeShellExecution","command":null}`,
			`{"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":5}}`,
			`{"hook_event_name":"beforeReadFile","file_path":""}`,
		},
		"copilot": {
			`{"toolName":"bash","toolArgs":"null"}`,
			`{"toolName":"bash","toolArgs":"{}"}`,
			`{"toolName":"bash","toolArgs":null}`,
			`{"toolName":"bash","toolArgs":"{\"command\":\"rm -rf ~\",\"Command\":\"ls\"}"}`,
			`{"toolName":"bash"}`,
			`{"toolName":"edit","toolArgs":"{\"path\":\"\"}"}`,
			`{"toolName":"bash","toolArgs":"{\"command\":\"ls\"}","tool_name":"Read"}`,
		},
	}
	for dialect, events := range hostMalformed {
		cases[dialect] = append(cases[dialect], events...)
	}
	for dialect, events := range cases {
		for _, ev := range events {
			if d := decideAs(t, dialect, ev); d.Verdict != verdict.Deny {
				t.Errorf("%s: %s: %s, want deny", dialect, ev, d.Verdict)
			}
			if d := decideAs(t, "", ev); d.Verdict != verdict.Deny {
				t.Errorf("recognised: %s: %s, want deny", ev, d.Verdict)
			}
		}
	}
}

// TestWellFormedEventsAllow keeps the strict reading honest: the events
// the hosts send for harmless calls still pass.
func TestWellFormedEventsAllow(t *testing.T) {
	for dialect, ev := range map[string]string{
		"claude":  `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./...","description":"run tests"},"cwd":"/home/agent-test/src/project"}`,
		"codex":   `{"turn_id":"t","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":["bash","-lc","ls -la"]},"cwd":"/home/agent-test/src/project"}`,
		"gemini":  `{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"absolute_path":"/home/agent-test/src/project/main.go"}}`,
		"cursor":  `{"hook_event_name":"beforeShellExecution","command":"npm test","cwd":"/home/agent-test/src/project"}`,
		"copilot": `{"toolName":"bash","toolArgs":"{\"command\":\"git status\"}","cwd":"/home/agent-test/src/project"}`,
	} {
		if d := decideAs(t, dialect, ev); d.Verdict != verdict.Allow {
			t.Errorf("%s: %s (%s)", dialect, d.Verdict, d.Reason())
		}
		if d := decideAs(t, "", ev); d.Verdict != verdict.Allow {
			t.Errorf("recognised %s: %s (%s)", dialect, d.Verdict, d.Reason())
		}
	}
}

// TestRelativeCwd: "." once skipped every protected-path check.
func TestRelativeCwd(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, cwd := range []string{".", "./", "sub/.."} {
		for _, ev := range []string{
			`{"tool_name":"Write","tool_input":{"file_path":".git/hooks/pre-commit"},"cwd":"` + cwd + `"}`,
			`{"tool_name":"Bash","tool_input":{"command":"echo exit 0 > .git/hooks/pre-commit"},"cwd":"` + cwd + `"}`,
		} {
			d, _, _ := Run(context.Background(), Request{
				Input:  func() ([]byte, error) { return []byte(ev), nil },
				NewEnv: func(c string) *pathguard.Env { return pathguard.NewEnv(c, func(string) string { return "" }) },
				Policy: func() (*policy.Policy, error) { return &policy.Policy{}, nil },
			})
			if d.Verdict != verdict.Deny {
				t.Errorf("cwd %q: %s: %s", cwd, ev, d.Verdict)
			}
		}
	}
}

// TestStalledInputDenies: a host that never closes stdin, or a
// configuration that never ends, meets the deadline, not a hang.
func TestStalledInputDenies(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	start := time.Now()
	d, _, _ := Run(context.Background(), Request{
		Input:  func() ([]byte, error) { <-block; return nil, nil },
		NewEnv: func(c string) *pathguard.Env { return guardtest.CorpusEnv() },
		Policy: func() (*policy.Policy, error) { return &policy.Policy{}, nil },
	})
	if d.Verdict != verdict.Deny || !strings.Contains(d.Reason(), "deadline") {
		t.Errorf("stalled stdin: %s %s", d.Verdict, d.Reason())
	}
	if took := time.Since(start); took > 2*Deadline {
		t.Errorf("took %v", took)
	}
}

// TestConfigSymlinkOut: a committed .sentinel/config.toml that points at
// /dev/zero, or out of the project, is refused quickly, not read.
func TestConfigSymlinkOut(t *testing.T) {
	for _, target := range []string{"/dev/zero", "/etc/hostname"} {
		root := t.TempDir()
		os.MkdirAll(filepath.Join(root, ".sentinel"), 0o755)
		if err := os.Symlink(target, filepath.Join(root, ".sentinel", "config.toml")); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err := policy.LoadPolicy("", root)
		if err == nil || !strings.Contains(err.Error(), "symlink out of the project") {
			t.Errorf("%s: %v", target, err)
		}
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s: took %v", target, took)
		}
	}
	// The whole .sentinel directory as a symlink elsewhere.
	root, elsewhere := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(elsewhere, "config.toml"), []byte("[guard]\n"), 0o644)
	os.Symlink(elsewhere, filepath.Join(root, ".sentinel"))
	if _, err := policy.LoadPolicy("", root); err == nil {
		t.Errorf("a .sentinel symlinked out of the project was read")
	}
	// A FIFO inside the project is not a regular file.
	root = t.TempDir()
	os.MkdirAll(filepath.Join(root, ".sentinel"), 0o755)
	if err := mkfifo(filepath.Join(root, ".sentinel", "config.toml")); err == nil {
		if _, err := policy.LoadPolicy("", root); err == nil {
			t.Errorf("a FIFO was read as the configuration")
		}
	}
}

// TestManyRules: 5,000 configured rules are read and matched within the
// deadline, many times over.
func TestManyRules(t *testing.T) {
	root := manyRules(t, 5000)
	start := time.Now()
	p, err := policy.LoadPolicy("", root)
	if err != nil {
		t.Fatal(err)
	}
	d := EvaluateCommand("ls -la && go test ./...", guardtest.CorpusEnv(), p)
	if d.Verdict != verdict.Allow {
		t.Errorf("%s", d.Verdict)
	}
	// The bound is BenchmarkManyRules's; this margin only catches a
	// blow-up, such as a rule scan gone quadratic, on any machine's load.
	if took := time.Since(start); took > 20*Deadline {
		t.Errorf("5,000 rules took %v, past twenty times the deadline %v", took, Deadline)
	}
}

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

// TestAuditTrailProtected: the agent must not erase the record of what it
// was refused, nor guard install's record of where the guard is (which
// doctor reads to tell a guard that is gone).
func TestAuditTrailProtected(t *testing.T) {
	e := guardtest.CorpusEnv()
	e.StateDir = "/home/agent-test/.local/state/sentinel"
	for _, cmd := range []string{"rm ~/.local/state/sentinel/guard.jsonl", "echo > ~/.local/state/sentinel/guard.jsonl", "ln -sf /dev/null ~/.local/state/sentinel/guard.jsonl", "rm -rf ~/.local/state/sentinel",
		"echo '{}' > ~/.local/state/sentinel/guard-installs.json", "rm ~/.local/state/sentinel/guard-installs.json"} {
		if d := EvaluateCommand(cmd, e, nil); d.Verdict != verdict.Deny {
			t.Errorf("%s: %s", cmd, d.Verdict)
		}
	}
}

// TestSentinelBinaryProtected: replacing the binary switches every check
// off, however it is named.
func TestSentinelBinaryProtected(t *testing.T) {
	e := guardtest.CorpusEnv()
	e.Self = "/home/agent-test/go/bin/sentinel"
	e.Path = []string{"/usr/local/bin", "/home/agent-test/go/bin", "/usr/bin"}
	dir := t.TempDir()
	bin := filepath.Join(dir, "sentinel")
	os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755)
	e.Path = append(e.Path, dir)
	for _, cmd := range []string{
		"cp /bin/true /home/agent-test/go/bin/sentinel",
		"cp /bin/true $(command -v sentinel)",
		"cp /bin/true \"$(which sentinel)\"",
		"go install ./cmd/sentinel",
		"go install github.com/gitsentinel/sentinel/cmd/sentinel@latest",
		"go build -o /usr/local/bin/sentinel ./cmd/x",
		"ln -sf /bin/true /usr/local/bin/sentinel",
		"printf '#!/bin/sh\\nexit 0\\n' > ~/go/bin/sentinel",
		// Not on this PATH yet, but on the next login shell's.
		"cp /tmp/x ~/.local/bin/sentinel",
		"install -m755 /tmp/x $HOME/bin/sentinel-engine",
	} {
		if d := EvaluateCommand(cmd, e, nil); d.Verdict != verdict.Deny {
			t.Errorf("%s: %s", cmd, d.Verdict)
		}
	}
	for _, cmd := range []string{"go build -o bin/sentinel ./cmd/sentinel", "go install ./cmd/other", "sentinel check"} {
		if d := EvaluateCommand(cmd, e, nil); d.Verdict != verdict.Allow {
			t.Errorf("%s: %s (%s)", cmd, d.Verdict, d.Reason())
		}
	}
}

// TestRenamedSentinel: a copy of the binary under another name is still
// sentinel, known by the module it was built from.
func TestRenamedSentinel(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	copyPath := filepath.Join(dir, "helper-tool")
	if err := os.WriteFile(copyPath, data, 0o755); err != nil {
		t.Fatal(err)
	}
	e := guardtest.CorpusEnv()
	for _, cmd := range []string{copyPath + " accept --reason x", copyPath + " guard uninstall --agent claude", copyPath + " merge-baseline a b c"} {
		if d := EvaluateCommand(cmd, e, nil); d.Verdict != verdict.Deny {
			t.Errorf("%s: %s", cmd, d.Verdict)
		}
	}
	for _, cmd := range []string{"cp " + self + " /tmp/x", "cp " + copyPath + " ./again"} {
		e.Self = self
		if d := EvaluateCommand(cmd, e, nil); d.Verdict != verdict.Deny {
			t.Errorf("%s: %s", cmd, d.Verdict)
		}
	}
	if d := EvaluateCommand(copyPath+" check", e, nil); d.Verdict != verdict.Allow {
		t.Errorf("check through a copy: %s", d.Verdict)
	}
}

// TestLinksAndCase: a protected file reached through a symlink, a hard
// link or another case is still protected.
func TestLinksAndCase(t *testing.T) {
	root := t.TempDir()
	hooks := filepath.Join(root, ".git", "hooks")
	os.MkdirAll(hooks, 0o755)
	hook := filepath.Join(hooks, "pre-commit")
	os.WriteFile(hook, []byte("#!/bin/sh\n"), 0o755)
	os.Symlink(hooks, filepath.Join(root, "h"))
	if err := os.Link(hook, filepath.Join(root, "innocent.txt")); err != nil {
		t.Skip(err)
	}
	e := &pathguard.Env{Env: shell.Env{Cwd: root, Home: "/home/agent-test", Project: root, Temp: []string{"/nonexistent-tmp"}}}
	for _, cmd := range []string{
		"echo x > h/pre-commit", "echo x > innocent.txt", "ln .git/hooks/pre-commit other", "ln -f .git/hooks/pre-commit other",
		"echo x > .GIT/hooks/pre-commit", "echo x > .Git/Hooks/pre-commit", "cp x .git//hooks/./pre-commit", "echo x > src/../.git/hooks/pre-commit",
	} {
		if d := EvaluateCommand(cmd, e, nil); d.Verdict != verdict.Deny {
			t.Errorf("%s: %s", cmd, d.Verdict)
		}
	}
	for _, p := range []string{"h/pre-commit", "innocent.txt", ".GIT/hooks/pre-push", filepath.Join(root, ".git", "hooks", "..", "hooks", "x")} {
		if d := EvaluateWrite("write", p, e, nil); d.Verdict != verdict.Deny {
			t.Errorf("Write %s: %s", p, d.Verdict)
		}
	}
	if d := EvaluateCommand("ln -s ../README.md docs/readme", e, nil); d.Verdict != verdict.Allow {
		t.Errorf("a symlink to a plain file: %s", d.Verdict)
	}
}
