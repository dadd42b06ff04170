package guard

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/policy"
)

// TestLiveHostEvents feeds the events the real hosts sent to sentinel's
// hook in the live tests (live/), fixtures/guard/events/live/
// <agent>-<version>-<verdict>-<what>.json, to the guard: each must be
// recognised as its agent's from its shape alone, read by the agent's
// dialect as --agent names it, and answered with the exact bytes
// recorded beside it (-update rewrites them).
func TestLiveHostEvents(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "fixtures", "guard", "events", "live", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("%d live events recorded; want at least 10", len(files))
	}
	for _, f := range files {
		base := strings.TrimSuffix(f, ".json")
		parts := strings.SplitN(filepath.Base(base), "-", 4)
		if len(parts) != 4 {
			t.Errorf("%s: not named <agent>-<version>-<verdict>-<what>.json", f)
			continue
		}
		agent, verdict := parts[0], parts[2]
		d := hosts.Dialects[agent]
		if d == nil {
			t.Errorf("%s: no dialect %q", f, agent)
			continue
		}
		input, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := hosts.Detect(input).Name(); got != agent {
			t.Errorf("%s: recognised as %s", filepath.Base(f), got)
		}
		call, err := d.Parse(input)
		if err != nil {
			t.Errorf("%s: the %s dialect cannot read it: %v", filepath.Base(f), agent, err)
			continue
		}
		dec, dialect, _ := Run(context.Background(), Request{
			Input:   func() ([]byte, error) { return input, nil },
			Dialect: d,
			NewEnv: func(cwd string) *pathguard.Env {
				e := guardtest.CorpusEnv()
				if cwd == "" {
					cwd = call.Cwd
				}
				if cwd != "" {
					e.Cwd, e.Project = cwd, cwd
				}
				return e
			},
			Policy: func() (*policy.Policy, error) { return nil, nil },
		})
		if got := dec.Outcome.Verdict.String(); got != verdict {
			t.Errorf("%s: %s, want %s (%s)", filepath.Base(f), got, verdict, dec.Outcome.Reason())
		}
		a := dialect.Answer(dec.Outcome, dec.Call)
		if *update {
			os.WriteFile(base+".stdout", a.Stdout, 0o644)
			os.Remove(base + ".stderr")
			os.Remove(base + ".exit")
			if a.Stderr != "" {
				os.WriteFile(base+".stderr", []byte(a.Stderr), 0o644)
			}
			if a.Exit != 0 {
				os.WriteFile(base+".exit", []byte(strconv.Itoa(a.Exit)+"\n"), 0o644)
			}
			continue
		}
		want, _ := os.ReadFile(base + ".stdout")
		if !bytes.Equal(a.Stdout, want) {
			t.Errorf("%s stdout:\n got %q\nwant %q", filepath.Base(f), a.Stdout, want)
		}
		wantErr, _ := os.ReadFile(base + ".stderr")
		if a.Stderr != string(wantErr) {
			t.Errorf("%s stderr:\n got %q\nwant %q", filepath.Base(f), a.Stderr, wantErr)
		}
		wantExit := 0
		if b, err := os.ReadFile(base + ".exit"); err == nil {
			wantExit, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		if a.Exit != wantExit {
			t.Errorf("%s exit %d, want %d", filepath.Base(f), a.Exit, wantExit)
		}
	}
}
