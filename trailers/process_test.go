package trailers

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// proc is one process of a fake /proc.
type proc struct {
	pid, ppid int
	comm, exe string
	args, env []string
	cwd       string
}

// fakeProc writes processes as Linux shows them under /proc/PID: stat,
// the exe and cwd links, cmdline and environ.
func fakeProc(t *testing.T, procs ...proc) string {
	t.Helper()
	return fakeProcIn(t.TempDir(), t, procs...)
}

// fakeProcIn writes the processes under root.
func fakeProcIn(root string, t testing.TB, procs ...proc) string {
	for _, p := range procs {
		dir := filepath.Join(root, fmt.Sprint(p.pid))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		stat := fmt.Sprintf("%d (%s) S %d %d %d 0 -1 4194560 100 0 0 0 0 0 0 0 20 0 1 0 100 0 0\n", p.pid, p.comm, p.ppid, p.pid, p.pid)
		write := func(name string, data string) {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write("stat", stat)
		write("cmdline", nulJoin(p.args))
		if p.env != nil {
			write("environ", nulJoin(p.env))
		}
		if p.exe != "" {
			if err := os.Symlink(p.exe, filepath.Join(dir, "exe")); err != nil {
				t.Fatal(err)
			}
		}
		if p.cwd != "" {
			if err := os.Symlink(p.cwd, filepath.Join(dir, "cwd")); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

func nulJoin(ss []string) string {
	var b strings.Builder
	for _, s := range ss {
		b.WriteString(s)
		b.WriteByte(0)
	}
	return b.String()
}

// under is the usual chain between sentinel and an agent: the hook's shell
// (pid 100), git (90) and the agent's shell (80), whose parent is top.
func under(top int, procs ...proc) []proc {
	return append([]proc{
		{pid: 100, ppid: 90, comm: "sh", exe: "/usr/bin/dash", args: []string{"/bin/sh", ".git/hooks/commit-msg", ".git/COMMIT_EDITMSG"}, env: []string{"PATH=/usr/bin"}},
		{pid: 90, ppid: 80, comm: "git", exe: "/usr/bin/git", args: []string{"git", "commit", "-m", "x"}, env: []string{"PATH=/usr/bin"}},
		{pid: 80, ppid: top, comm: "bash", exe: "/usr/bin/bash", args: []string{"/bin/bash", "-c", "git commit -m x"}, env: []string{"PATH=/usr/bin"}},
	}, procs...)
}

func init1() proc {
	return proc{pid: 1, ppid: 0, comm: "systemd", exe: "/usr/lib/systemd/systemd", args: []string{"/sbin/init"}}
}

func TestDetectProcess(t *testing.T) {
	for _, tc := range []struct {
		name   string
		procs  []proc
		env    Getenv
		stop   int
		want   string // the Assisted-by value, "" for none
		source string
	}{
		{"no agent", under(1, init1()), envOf(), 0, "", ""},
		{"claude native, versioned file", under(70,
			proc{pid: 70, ppid: 1, comm: "claude", exe: "/home/u/.local/share/claude/versions/2.1.3", args: []string{"claude", "--model", "claude-opus-4-5"}},
			init1()), envOf(), 0, "Claude:claude-opus-4-5", "process 70 (claude)"},
		{"claude by its install path alone", under(70,
			proc{pid: 70, ppid: 1, comm: "2.1.3", exe: "/home/u/.local/share/claude/versions/2.1.3", args: []string{"/home/u/.local/share/claude/versions/2.1.3"}},
			init1()), envOf(), 0, "Claude:unknown", "process 70 (2.1.3)"},
		{"claude under node", under(70,
			proc{pid: 70, ppid: 1, comm: "node", exe: "/usr/bin/node", args: []string{"node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js", "--model=claude-sonnet-4-5"}},
			init1()), envOf(), 0, "Claude:claude-sonnet-4-5", "process 70 (node)"},
		{"claude's bin link under node", under(70,
			proc{pid: 70, ppid: 1, comm: "node", exe: "/usr/bin/node", args: []string{"node", "/home/u/.npm-global/bin/claude", "-p", "fix it"}},
			init1()), envOf(), 0, "Claude:unknown", "process 70 (node)"},
		{"claude's process title", under(70,
			proc{pid: 70, ppid: 1, comm: "claude", exe: "/usr/bin/node", args: []string{"claude"}},
			init1()), envOf(), 0, "Claude:unknown", "process 70 (claude)"},
		{"gemini with node options", under(70,
			proc{pid: 70, ppid: 1, comm: "node", exe: "/usr/bin/node", args: []string{"/usr/bin/node", "--no-warnings=DEP0040", "-r", "/tmp/x.js", "/usr/lib/node_modules/@google/gemini-cli/dist/index.js", "-m", "gemini-2.5-pro"}},
			init1()), envOf(), 0, "Gemini:gemini-2.5-pro", "process 70 (node)"},
		{"codex -c model", under(70,
			proc{pid: 70, ppid: 1, comm: "codex", exe: "/usr/lib/node_modules/@openai/codex/vendor/x86_64-unknown-linux-musl/codex/codex", args: []string{"codex", "-c", `model="o3"`, "exec", "do it"}},
			init1()), envOf(), 0, "Codex:o3", "process 70 (codex)"},
		{"aider as a module", under(70,
			proc{pid: 70, ppid: 1, comm: "python3", exe: "/usr/bin/python3.12", args: []string{"python3", "-m", "aider", "--model", "sonnet", "-m", "a message"}},
			init1()), envOf(), 0, "Aider:sonnet", "process 70 (python3)"},
		{"aider as a script", under(70,
			proc{pid: 70, ppid: 1, comm: "aider", exe: "/usr/bin/python3.12", args: []string{"/usr/bin/python3", "/home/u/.local/bin/aider", "--model", "gpt-4o"}},
			init1()), envOf(), 0, "Aider:gpt-4o", "process 70 (aider)"},
		{"cursor-agent's bundled node", under(70,
			proc{pid: 70, ppid: 1, comm: "node", exe: "/home/u/.local/share/cursor-agent/versions/2025.09.18/node", args: []string{"/home/u/.local/share/cursor-agent/versions/2025.09.18/node", "--use-system-ca", "/home/u/.local/share/cursor-agent/versions/2025.09.18/index.js", "--model", "gpt-5"}},
			init1()), envOf(), 0, "Cursor:gpt-5", "process 70 (node)"},
		{"copilot", under(70,
			proc{pid: 70, ppid: 1, comm: "node", exe: "/usr/bin/node", args: []string{"node", "/usr/lib/node_modules/@github/copilot/index.js", "--model", "claude-sonnet-4.5"}},
			init1()), envOf(), 0, "Copilot:claude-sonnet-4.5", "process 70 (node)"},
		{"bun runs opencode", under(70,
			proc{pid: 70, ppid: 1, comm: "bun", exe: "/home/u/.bun/bin/bun", args: []string{"bun", "run", "/home/u/.bun/install/global/node_modules/opencode-ai/bin/opencode", "-m", "anthropic/claude-sonnet-4-5"}},
			init1()), envOf(), 0, "OpenCode:anthropic/claude-sonnet-4-5", "process 70 (bun)"},
		{"a script's argument named claude is not claude", under(70,
			proc{pid: 70, ppid: 1, comm: "node", exe: "/usr/bin/node", args: []string{"node", "server.js", "claude"}},
			init1()), envOf(), 0, "", ""},
		{"inline code is no script", under(70,
			proc{pid: 70, ppid: 1, comm: "python3", exe: "/usr/bin/python3", args: []string{"python3", "-c", "import os", "aider"}},
			init1()), envOf(), 0, "", ""},
		{"the nearest agent wins", under(70,
			proc{pid: 70, ppid: 60, comm: "codex", exe: "/usr/local/bin/codex", args: []string{"codex", "-m", "gpt-5-codex"}},
			proc{pid: 60, ppid: 1, comm: "claude", exe: "/usr/local/bin/claude", args: []string{"claude"}},
			init1()), envOf("CLAUDECODE", "1"), 0, "Codex:gpt-5-codex", "process 70 (codex)"},
		{"markers unset, program found", under(70,
			proc{pid: 70, ppid: 1, comm: "claude", exe: "/usr/local/bin/claude", args: []string{"claude", "--model", "claude-opus-4-5"}},
			init1()), envOf("ANTHROPIC_MODEL", "other"), 0, "Claude:claude-opus-4-5", "process 70 (claude)"},
		{"SENTINEL_AGENT cannot rename a running agent", under(70,
			proc{pid: 70, ppid: 1, comm: "claude", exe: "/usr/local/bin/claude", args: []string{"claude"}},
			init1()), envOf("SENTINEL_AGENT", "Kiro:k1"), 0, "Claude:unknown", "process 70 (claude)"},
		{"SENTINEL_AGENT names the running agent's model", under(70,
			proc{pid: 70, ppid: 1, comm: "claude", exe: "/usr/local/bin/claude", args: []string{"claude", "--model", "m1"}},
			init1()), envOf("SENTINEL_AGENT", "claude:m2"), 0, "Claude:m2", "SENTINEL_AGENT"},
		{"the walk stops where told", under(70,
			proc{pid: 70, ppid: 1, comm: "claude", exe: "/usr/local/bin/claude", args: []string{"claude"}},
			init1()), envOf(), 70, "", ""},
		{"an unreadable parent ends the walk", under(70,
			proc{pid: 60, ppid: 1, comm: "claude", exe: "/usr/local/bin/claude", args: []string{"claude"}}),
			envOf(), 0, "", ""},
		{"the agent as pid 1 of a container", []proc{
			{pid: 100, ppid: 90, comm: "sh", args: []string{"sh"}},
			{pid: 90, ppid: 1, comm: "git", args: []string{"git", "commit"}},
			{pid: 1, ppid: 0, comm: "claude", exe: "/usr/local/bin/claude", args: []string{"claude", "--model", "claude-opus-4-5"}},
		}, envOf(), 0, "Claude:claude-opus-4-5", "process 1 (claude)"},
		{"a loop of parents ends", []proc{
			{pid: 100, ppid: 90, comm: "sh", args: []string{"sh"}},
			{pid: 90, ppid: 100, comm: "git", args: []string{"git"}},
		}, envOf(), 0, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			anc := &Ancestry{Table: ProcFS{Root: fakeProc(t, tc.procs...)}, Start: 100, Stop: tc.stop}
			d := Detect(Env{Getenv: tc.env, Processes: anc}, nil)
			if tc.want == "" {
				if d != nil {
					t.Fatalf("detected %+v, want none", d)
				}
				return
			}
			if d == nil {
				t.Fatal("detected nothing")
			}
			if got := d.Value("", nil); got != tc.want {
				t.Errorf("value %q, want %q", got, tc.want)
			}
			if d.Source != tc.source {
				t.Errorf("source %q, want %q", d.Source, tc.source)
			}
		})
	}
}

// TestDetectInheritedMarker finds an agent whose marker a parent process
// started with, after the command under it unset the marker.
func TestDetectInheritedMarker(t *testing.T) {
	procs := under(1, init1())
	procs[2].env = []string{"PATH=/usr/bin", "CLAUDECODE=1", "ANTHROPIC_MODEL=claude-opus-4-5"}
	anc := &Ancestry{Table: ProcFS{Root: fakeProc(t, procs...)}, Start: 100}
	d := Detect(Env{Getenv: envOf(), Processes: anc}, nil)
	if d == nil {
		t.Fatal("detected nothing")
	}
	if got, want := d.Value("", nil), "Claude:claude-opus-4-5"; got != want {
		t.Errorf("value %q, want %q", got, want)
	}
	if want := "CLAUDECODE=1 in the environment of process 80 (bash)"; d.Source != want {
		t.Errorf("source %q, want %q", d.Source, want)
	}
	if want := "ANTHROPIC_MODEL in the environment of process 80"; d.ModelSource != want {
		t.Errorf("model source %q, want %q", d.ModelSource, want)
	}
	// This environment's own known marker is enough: the parents'
	// environments are not read.
	d = Detect(Env{Getenv: envOf("CURSOR_AGENT", "1"), Processes: anc}, nil)
	if d == nil || d.Name != "Cursor" || d.Source != "CURSOR_AGENT=1" {
		t.Errorf("own marker: %+v", d)
	}
}

// TestWalkDepth bounds the walk at MaxDepth processes.
func TestWalkDepth(t *testing.T) {
	var procs []proc
	for pid := 200; pid > 100; pid-- {
		procs = append(procs, proc{pid: pid, ppid: pid - 1, comm: "sh", args: []string{"sh"}})
	}
	procs = append(procs, proc{pid: 100, ppid: 1, comm: "claude", args: []string{"claude"}})
	root := fakeProc(t, procs...)
	if d := Detect(Env{Getenv: envOf(), Processes: &Ancestry{Table: ProcFS{Root: root}, Start: 200}}, nil); d != nil {
		t.Errorf("found %+v past %d processes", d, MaxDepth)
	}
	if d := Detect(Env{Getenv: envOf(), Processes: &Ancestry{Table: ProcFS{Root: root}, Start: 150}}, nil); d == nil || d.Name != "Claude" {
		t.Errorf("within the bound: %+v", d)
	}
}

func TestProcFSStat(t *testing.T) {
	root := fakeProc(t, proc{pid: 42, ppid: 7, comm: "a) (b c", exe: "/opt/node (deleted)", args: []string{"x", "y z"}},
		proc{pid: 7, ppid: 1, comm: "git", exe: "/usr/bin/git", args: []string{"git", "commit"}})
	p, err := ProcFS{Root: root}.Process(42)
	if err != nil {
		t.Fatal(err)
	}
	if p.PID != 42 || p.PPID != 7 || p.Comm != "a) (b c" || p.Exe != "/opt/node" || !slices.Equal(p.Args, []string{"x", "y z"}) {
		t.Errorf("got %+v", p)
	}
	// Neither an interpreter nor an agent: its command line is not read.
	if p, err := (ProcFS{Root: root}).Process(7); err != nil || p.Args != nil || !p.IsGit() {
		t.Errorf("git: %+v, %v", p, err)
	}
	if _, err := (ProcFS{Root: root}).Process(43); err == nil {
		t.Error("a missing process read")
	}
	if got := (&Process{Comm: "evil\x1b[31m"}).Name(); got != `"evil\033[31m"` {
		t.Errorf("Name() = %q", got)
	}
}

func TestProcessScript(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		script string
		rest   []string
	}{
		{[]string{"node", "cli.js", "a"}, "cli.js", []string{"a"}},
		{[]string{"node", "--inspect", "-r", "ts-node/register", "cli.ts"}, "cli.ts", []string{}},
		{[]string{"node", "-e", "x", "cli.js"}, "", nil},
		{[]string{"node", "--", "cli.js", "--model", "m"}, "cli.js", []string{"--model", "m"}},
		{[]string{"python3", "-W", "ignore", "-u", "aider.py"}, "aider.py", []string{}},
		{[]string{"python3", "-maider.main", "x"}, "aider", []string{"x"}},
		{[]string{"sh", "-e", "./claude", "x"}, "./claude", []string{"x"}},
		{[]string{"sh", "-c", "claude"}, "", nil},
		{[]string{"deno", "run", "-A", "main.ts"}, "main.ts", []string{}},
		{[]string{"node"}, "", nil},
	} {
		p := &Process{Args: tc.args, Comm: tc.args[0]}
		script, rest, ok := p.script(p.interpreter())
		if script != tc.script || ok != (tc.script != "") || tc.rest != nil && !slices.Equal(rest, tc.rest) {
			t.Errorf("%q: script %q rest %q ok %v, want %q %q", tc.args, script, rest, ok, tc.script, tc.rest)
		}
	}
}

func TestParseProcArgs(t *testing.T) {
	raw := binary.LittleEndian.AppendUint32(nil, 3)
	raw = append(raw, "/usr/local/bin/claude\x00\x00\x00\x00claude\x00--model\x00claude-opus-4-5\x00HOME=/Users/u\x00CLAUDECODE=1\x00\x00\x00junk"...)
	exe, args, env, ok := parseProcArgs(raw)
	if !ok || exe != "/usr/local/bin/claude" || !slices.Equal(args, []string{"claude", "--model", "claude-opus-4-5"}) || !slices.Equal(env, []string{"HOME=/Users/u", "CLAUDECODE=1"}) {
		t.Errorf("got %q %q %q %v", exe, args, env, ok)
	}
	if _, _, _, ok := parseProcArgs([]byte{1, 0}); ok {
		t.Error("a short buffer parsed")
	}
	short := binary.LittleEndian.AppendUint32(nil, 5)
	short = append(short, "/bin/x\x00a\x00"...)
	if _, _, _, ok := parseProcArgs(short); ok {
		t.Error("missing arguments parsed")
	}
}

// TestModelFromSettings reads the model from each agent's settings files,
// the project's before the user's, when the command line names none.
func TestModelFromSettings(t *testing.T) {
	home, project, other := t.TempDir(), t.TempDir(), t.TempDir()
	write := func(dir, rel, data string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(home, ".claude/settings.json", `{"model": "claude-sonnet-4-5"}`)
	write(project, ".claude/settings.local.json", `{"permissions": {}}`)
	write(home, ".gemini/settings.json", `{"model": {"name": "gemini-2.5-pro"}}`)
	write(home, ".qwen/settings.json", `{"model": "qwen3-coder-plus"}`)
	write(home, ".codex/config.toml", "model = \"gpt-5\"\nprofile = \"deep\"\n[profiles.deep]\nmodel = \"gpt-5-pro\"\n[profiles.fast]\nmodel = \"gpt-5-mini\"\n")
	write(home, ".cursor/cli-config.json", `{"version": 1, "model": {"modelId": "sonnet-4.5", "displayName": "Sonnet"}}`)
	write(home, ".config/opencode/opencode.jsonc", "{\n  // the default\n  \"model\": \"anthropic/claude-opus-4-5\", /* or \"x\" */\n  \"theme\": \"a//b\"\n}\n")
	write(home, ".config/goose/config.yaml", "GOOSE_PROVIDER: anthropic\nGOOSE_MODEL: claude-sonnet-4-5 # picked in configure\n")
	write(project, ".aider.conf.yml", "model: 'o3-mini'\nmodels: x\n")
	write(other, "settings.json", `{"model": "from-config-dir"}`)
	write(home, ".factory/settings.json", `{"model": "bad\u001b[31m"}`)
	write(home, ".copilot/config.json", `{"model": 5}`)

	agent := func(comm string, args ...string) *Ancestry {
		root := fakeProc(t, proc{pid: 100, ppid: 70, comm: "sh", args: []string{"sh"}},
			proc{pid: 70, ppid: 1, comm: comm, args: append([]string{comm}, args...), cwd: project, env: []string{"CLAUDE_CONFIG_DIR=" + other}})
		return &Ancestry{Table: ProcFS{Root: root}, Start: 100, Home: home, ReadFile: readSettings}
	}
	for _, tc := range []struct {
		name  string
		anc   *Ancestry
		env   Getenv
		want  string
		where string
	}{
		{"claude's config dir from its environment", agent("claude"), envOf(), "Claude:from-config-dir", filepath.Join(other, "settings.json")},
		{"gemini's nested model", agent("gemini"), envOf(), "Gemini:gemini-2.5-pro", "~/.gemini/settings.json"},
		{"qwen's flat model", agent("qwen"), envOf(), "Qwen:qwen3-coder-plus", "~/.qwen/settings.json"},
		{"codex's default profile", agent("codex"), envOf(), "Codex:gpt-5-pro", "~/.codex/config.toml"},
		{"codex's chosen profile", agent("codex", "--profile", "fast"), envOf(), "Codex:gpt-5-mini", "~/.codex/config.toml"},
		{"the command line beats the file", agent("codex", "--profile", "fast", "-m", "o3"), envOf(), "Codex:o3", "-m in the command line of process 70"},
		{"cursor's model object", agent("cursor-agent"), envOf(), "Cursor:sonnet-4.5", "~/.cursor/cli-config.json"},
		{"opencode's JSON with comments", agent("opencode"), envOf(), "OpenCode:anthropic/claude-opus-4-5", "~/.config/opencode/opencode.jsonc"},
		{"goose's YAML", agent("goose"), envOf(), "Goose:claude-sonnet-4-5", "~/.config/goose/config.yaml"},
		{"aider's project file", agent("aider"), envOf(), "Aider:o3-mini", ".aider.conf.yml in " + project},
		{"this environment beats the file", agent("goose"), envOf("GOOSE_MODEL", "gpt-4o"), "Goose:gpt-4o", "GOOSE_MODEL"},
		{"a control character is no model", agent("droid"), envOf(), "Droid:unknown", ""},
		{"a number is no model", agent("copilot"), envOf(), "Copilot:unknown", ""},
		{"no home, no user files", &Ancestry{Table: agent("gemini").Table, Start: 100, ReadFile: readSettings}, envOf(), "Gemini:unknown", ""},
		{"the environment's agent, its settings", &Ancestry{Home: home, ReadFile: readSettings}, envOf("GEMINI_CLI", "1"), "Gemini:gemini-2.5-pro", "~/.gemini/settings.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Detect(Env{Getenv: tc.env, Processes: tc.anc}, nil)
			if d == nil {
				t.Fatal("detected nothing")
			}
			if got := d.Value("", nil); got != tc.want {
				t.Errorf("value %q, want %q", got, tc.want)
			}
			if d.ModelSource != tc.where {
				t.Errorf("model source %q, want %q", d.ModelSource, tc.where)
			}
		})
	}

	// A project's settings are read without following links: a repository
	// could point one at any file.
	if err := os.Symlink(filepath.Join(other, "settings.json"), filepath.Join(project, ".claude", "settings.json")); err != nil {
		t.Fatal(err)
	}
	root := fakeProc(t, proc{pid: 100, ppid: 70, comm: "sh", args: []string{"sh"}}, proc{pid: 70, ppid: 1, comm: "claude", args: []string{"claude"}, cwd: project})
	d := Detect(Env{Getenv: envOf(), Processes: &Ancestry{Table: ProcFS{Root: root}, Start: 100, Home: home, ReadFile: readSettings}}, nil)
	if d == nil || d.Model != "claude-sonnet-4-5" || d.ModelSource != "~/.claude/settings.json" {
		t.Errorf("through a link in the project: %+v", d)
	}
	// The configuration comes last.
	d = Detect(Env{Getenv: envOf(), Processes: &Ancestry{Table: ProcFS{Root: root}, Start: 100}}, map[string]string{"claude": "claude-haiku-4-5"})
	if d == nil || d.Model != "claude-haiku-4-5" {
		t.Errorf("config: %+v", d)
	}
}
