package guard

import (
	"bytes"
	"context"
	"flag"
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

var update = flag.Bool("update", false, "rewrite fixtures/guard/events/*.stdout and *.stderr (review the diff!)")

// TestEvents feeds each agent's recorded events to the guard, with the
// agent recognised from the event's shape, and compares the exact bytes
// the host acts on.
func TestEvents(t *testing.T) {
	dir := filepath.Join("..", "fixtures", "guard", "events")
	newEnv := func(cwd string) *pathguard.Env {
		e := guardtest.CorpusEnv()
		if cwd != "" {
			e.Cwd, e.Project = cwd, cwd
		}
		return e
	}
	for name := range hosts.Dialects {
		for _, verdict := range []string{"allow", "ask", "deny"} {
			base := filepath.Join(dir, name+"-"+verdict)
			input, err := os.ReadFile(base + ".json")
			if err != nil {
				t.Fatal(err)
			}
			// <agent>-<verdict>.env holds the hook's environment, where a
			// host puts part of the event (Amp names the tool there).
			env := map[string]string{}
			if b, err := os.ReadFile(base + ".env"); err == nil {
				for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
					if k, v, ok := strings.Cut(line, "="); ok {
						env[k] = v
					}
				}
			}
			getenv := func(k string) string { return env[k] }
			d := hosts.DetectIn(input, getenv)
			if d.Name() != name {
				t.Errorf("%s-%s: recognised as %s", name, verdict, d.Name())
			}
			dec, dialect, _ := Run(context.Background(), Request{
				Input:   func() ([]byte, error) { return input, nil },
				Dialect: d,
				NewEnv:  newEnv,
				Policy:  func() (*policy.Policy, error) { return nil, nil },
				Getenv:  getenv,
			})
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
				t.Errorf("%s-%s stdout:\n got %q\nwant %q", name, verdict, a.Stdout, want)
			}
			wantErr, _ := os.ReadFile(base + ".stderr")
			if a.Stderr != string(wantErr) {
				t.Errorf("%s-%s stderr:\n got %q\nwant %q", name, verdict, a.Stderr, wantErr)
			}
			wantExit := 0
			if b, err := os.ReadFile(base + ".exit"); err == nil {
				wantExit, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			}
			if a.Exit != wantExit {
				t.Errorf("%s-%s exit %d, want %d", name, verdict, a.Exit, wantExit)
			}
			if verdict == "allow" && strings.Contains(string(a.Stdout), "deny") {
				t.Errorf("%s-allow denies", name)
			}
		}
	}
}
