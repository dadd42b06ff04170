package githooks

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/trailers"
)

// table is a process table in memory.
type table map[int]*trailers.Process

func (t table) Process(pid int) (*trailers.Process, error) {
	if p, ok := t[pid]; ok {
		return p, nil
	}
	return nil, os.ErrNotExist
}
func (table) Environ(int) []string { return nil }
func (table) Dir(int) string       { return "" }

func TestCheckMergeDriver(t *testing.T) {
	dir := repo(t)
	temps := []string{".merge_file_aB3dE9", ".merge_file_000000", ".merge_file_zzzzzz"}
	for _, f := range temps {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(".merge_file_aB3dE9", filepath.Join(dir, ".merge_file_link00")); err != nil {
		t.Fatal(err)
	}
	underGit := table{
		10: {PID: 10, PPID: 9, Comm: "sh", Args: []string{"/bin/sh", "-c", "sentinel merge-baseline"}},
		9:  {PID: 9, PPID: 8, Comm: "git", Exe: "/usr/bin/git", Args: []string{"git", "merge", "topic"}},
		8:  {PID: 8, PPID: 1, Comm: "bash", Args: []string{"bash"}},
	}
	byHand := table{
		10: {PID: 10, PPID: 8, Comm: "sh", Args: []string{"sh"}},
		8:  {PID: 8, PPID: 7, Comm: "bash", Args: []string{"bash"}},
		7:  {PID: 7, PPID: 1, Comm: "tmux: server", Args: []string{"tmux"}},
	}
	gitTooFar := table{
		10: {PID: 10, PPID: 8, Comm: "sh", Args: []string{"sh"}},
		8:  {PID: 8, PPID: 7, Comm: "bash", Args: []string{"bash"}},
		7:  {PID: 7, PPID: 6, Comm: "bash", Args: []string{"bash"}},
		6:  {PID: 6, PPID: 1, Comm: "git", Args: []string{"git", "x"}},
	}
	agent := table{
		10: {PID: 10, PPID: 9, Comm: "sh", Args: []string{"sh"}},
		9:  {PID: 9, PPID: 8, Comm: "git", Args: []string{"git", "merge"}},
		8:  {PID: 8, PPID: 1, Comm: "claude", Args: []string{"claude"}},
	}
	none := func(string) string { return "" }
	procs := func(t table) *trailers.Ancestry { return &trailers.Ancestry{Table: t, Start: 10} }
	for _, tc := range []struct {
		name   string
		files  []string
		env    trailers.Env
		refuse string // a part of the refusal, "" for none
	}{
		{"under git merge", temps, trailers.Env{Getenv: none, Processes: procs(underGit)}, ""},
		{"by hand", temps, trailers.Env{Getenv: none, Processes: procs(byHand)}, "no git process runs this merge driver (its parents: 10 (sh), 8 (bash), 7 (tmux: server))"},
		{"git too far above", temps, trailers.Env{Getenv: none, Processes: procs(gitTooFar)}, "no git process runs"},
		{"an agent above git", temps, trailers.Env{Getenv: none, Processes: procs(agent)}, "an AI agent is running (Claude, from process 8 (claude))"},
		{"an agent by its marker", temps, trailers.Env{Getenv: env("CODEX_THREAD_ID", "t").Getenv, Processes: procs(underGit)}, "an AI agent is running (Codex, from CODEX_THREAD_ID)"},
		{"the baseline itself", []string{temps[0], ".sentinel/baseline.json", temps[2]}, trailers.Env{Getenv: none, Processes: procs(underGit)}, ".sentinel/baseline.json is not a file git wrote for a merge"},
		{"a name of git's form elsewhere", []string{temps[0], "sub/.merge_file_aaaaaa", temps[2]}, trailers.Env{Getenv: none, Processes: procs(underGit)}, "is not a file git wrote"},
		{"a missing file", []string{temps[0], ".merge_file_gone00", temps[2]}, trailers.Env{Getenv: none, Processes: procs(underGit)}, "is not a regular file"},
		{"a link", []string{temps[0], ".merge_file_link00", temps[2]}, trailers.Env{Getenv: none, Processes: procs(underGit)}, "is not a regular file"},
		{"no process table, no merge under way", temps, trailers.Env{Getenv: none}, "no git operation that merges is under way"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckMergeDriver(context.Background(), dir, tc.files, tc.env)
			var r *DriverRefusal
			switch {
			case tc.refuse == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.refuse != "" && !errors.As(err, &r):
				t.Fatalf("got %v, want a refusal", err)
			case tc.refuse != "" && !strings.Contains(r.Reason, tc.refuse):
				t.Errorf("refusal %q, want %q in it", r.Reason, tc.refuse)
			}
		})
	}

	// Where the process tree cannot be read, git's own state shows the
	// operation: the index lock it holds while merging, or a rebase's
	// directory.
	for _, state := range []string{"index.lock", "rebase-merge"} {
		p := filepath.Join(dir, ".git", state)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := CheckMergeDriver(context.Background(), dir, temps, trailers.Env{Getenv: none}); err != nil {
			t.Errorf("with %s: %v", state, err)
		}
		os.Remove(p)
	}
}

func TestIsMergeTemp(t *testing.T) {
	for name, want := range map[string]bool{
		".merge_file_aB3dE9":  true,
		".merge_file_000000":  true,
		".merge_file_abc12":   false,
		".merge_file_abc1234": false,
		".merge_file_abc-12":  false,
		"merge_file_abcdef":   false,
		"./.merge_file_abcde": false,
		".merge_link_abcdef":  false,
	} {
		if got := isMergeTemp(name); got != want {
			t.Errorf("isMergeTemp(%q) = %v, want %v", name, got, want)
		}
	}
}
