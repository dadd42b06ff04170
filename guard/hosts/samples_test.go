package hosts

import (
	"testing"
)

// TestSampleEvents: every host has a sample shell event, which its own
// dialect reads as a shell call of the command in the directory, and which
// no other dialect takes for its own.
func TestSampleEvents(t *testing.T) {
	const cmd, cwd = `git push --force origin "main"`, "/home/u/src/p q"
	for _, name := range DialectNames() {
		event, env, ok := SampleEvent(name, cmd, cwd)
		if !ok {
			t.Errorf("%s has no sample event", name)
			continue
		}
		d := Dialects[name]
		if w, ok := d.(EnvDialect); ok {
			vars := map[string]string{}
			for _, kv := range env {
				k, v, _ := cutEnv(kv)
				vars[k] = v
			}
			d = w.WithEnv(func(k string) string { return vars[k] })
		}
		c, err := d.Parse(event)
		if err != nil {
			t.Errorf("%s: its sample does not read: %v\n%s", name, err, event)
			continue
		}
		if c.Kind != "bash" || c.Command != cmd {
			t.Errorf("%s: read as %q %q, want a shell call of %q", name, c.Kind, c.Command, cmd)
		}
		if c.Cwd != "" && c.Cwd != cwd {
			t.Errorf("%s: cwd %q, want %q", name, c.Cwd, cwd)
		}
	}
}

func cutEnv(kv string) (string, string, bool) {
	for i := 0; i < len(kv); i++ {
		if kv[i] == '=' {
			return kv[:i], kv[i+1:], true
		}
	}
	return kv, "", false
}
