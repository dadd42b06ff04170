package guard

import (
	"path/filepath"
	"testing"

	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

// TestExpandsTheGuardsOwnVariables: a variable the guard's own environment
// sets, which locates sentinel's files, is read with the guard's value, so
// that a write through "$XDG_CONFIG_HOME" meets the protection of the file
// it names, and is not read as a path under /.
func TestExpandsTheGuardsOwnVariables(t *testing.T) {
	home := t.TempDir()
	vars := map[string]string{
		"HOME":            home,
		"XDG_CONFIG_HOME": filepath.Join(home, "cfg"),
		"XDG_STATE_HOME":  filepath.Join(home, "state"),
	}
	e := pathguard.NewEnv(filepath.Join(home, "src"), func(k string) string { return vars[k] })
	for _, cmd := range []string{
		`echo x > "$XDG_CONFIG_HOME/sentinel/config.toml"`,
		`rm -f ${XDG_CONFIG_HOME}/sentinel/config.toml`,
		`cp /dev/null "$XDG_STATE_HOME/sentinel/guard.jsonl"`,
		`echo x > "$XDG_CONFIG_HOME/git/config"`,
	} {
		if d := EvaluateCommand(cmd, e, nil); d.Verdict != verdict.Deny {
			t.Errorf("%s: %s (%s)", cmd, d.Verdict, d.Reason())
		}
	}
	if d := EvaluateCommand(`echo x > "$XDG_CONFIG_HOME/myapp/settings.ini"`, e, nil); d.Verdict != verdict.Allow {
		t.Errorf("a write to another program's configuration: %s (%s)", d.Verdict, d.Reason())
	}
}
