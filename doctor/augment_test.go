package doctor

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/guard/install"
)

// augmentFlags is the line an Auggie start logs with the flags it runs
// with (cut down to the two that matter here).
func augmentFlags(when string, loaded, hooks, overrides bool) string {
	head := augmentFlagsLoaded
	if !loaded {
		head = augmentFlagsDefault
	}
	b := map[bool]string{true: "true", false: "false"}
	return when + " [info] " + head + `{"additionalChatModels":"","enableHooks":` + b[hooks] + `,"allowClientFeatureFlagOverrides":` + b[overrides] + `,"cliEnableBashMode":false}` + "\n"
}

// augmentLog writes Auggie's log into a temporary directory and returns
// the environment that names it.
func augmentLog(t *testing.T, lines ...string) func(string) string {
	t.Helper()
	dir := t.TempDir()
	text := "2026-12-02 03:51:17.100 [info] 'main': [gRPC] in-proc transport bootstrapped\n" + strings.Join(lines, "")
	if err := os.WriteFile(filepath.Join(dir, augmentLogName), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return func(k string) string {
		if k == "TMPDIR" {
			return dir + "/"
		}
		return ""
	}
}

// TestReadAugmentLog reads the flags of the last start Auggie logged: the
// newest line wins, a line that does not read is passed over, and a start
// on default flags (the server not reached) is told apart.
func TestReadAugmentLog(t *testing.T) {
	on := augmentFlags("2026-12-01 09:00:00.000", true, true, false)
	off := augmentFlags("2026-12-02 10:00:00.000", true, false, false)
	for _, tc := range []struct {
		name  string
		lines []string
		want  augmentHooks
	}{
		{"none logged", []string{"2026-12-02 10:00:00.000 [info] 'HookConfigLoader': Loaded hooks configuration from x\n"}, augmentHooks{}},
		{"on", []string{on}, augmentHooks{found: true, when: "2026-12-01 09:00:00.000", on: true}},
		{"off after on", []string{on, off}, augmentHooks{found: true, when: "2026-12-02 10:00:00.000"}},
		{"on after off", []string{off, on}, augmentHooks{found: true, when: "2026-12-01 09:00:00.000", on: true}},
		{"off, overridable", []string{augmentFlags("2026-12-02 11:00:00.000", true, false, true)},
			augmentHooks{found: true, when: "2026-12-02 11:00:00.000", overridable: true}},
		{"defaults", []string{on, augmentFlags("2026-12-02 12:00:00.000", false, false, false)},
			augmentHooks{found: true, when: "2026-12-02 12:00:00.000", defaults: true}},
		{"cut short", []string{on, "2026-12-02 13:00:00.000 [info] " + augmentFlagsLoaded + `{"enableHooks":fal`}, augmentHooks{found: true, when: "2026-12-01 09:00:00.000", on: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			getenv := augmentLog(t, tc.lines...)
			got, err := readAugmentLog(getenv)
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(strings.TrimSuffix(getenv("TMPDIR"), "/"), augmentLogName); got.log != want {
				t.Errorf("log %s, want %s", got.log, want)
			}
			got.log = ""
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	// No log at all is nothing found, not an error; TMPDIR unset is /tmp,
	// or TMP.
	got, err := readAugmentLog(func(k string) string {
		if k == "TMP" {
			return filepath.Join(t.TempDir(), "none")
		}
		return ""
	})
	if err != nil || got.found || !strings.HasSuffix(got.log, filepath.Join("none", augmentLogName)) {
		t.Errorf("no log: %+v, %v", got, err)
	}
	// Past the bound, the log's end is read.
	big := augmentLog(t, strings.Repeat("2026-12-01 08:00:00.000 [debug] 'x': "+strings.Repeat("y", 1000)+"\n", maxAugmentLog/1000+10), off)
	if got, err := readAugmentLog(big); err != nil || !got.found || got.on {
		t.Errorf("a long log: %+v, %v", got, err)
	}
}

// TestAugmentHooksOff: an Augment guard that is installed as it should be
// is broken while Auggie's log says the server has hooks off, with the
// override as the fix where the tenant allows it; where the log says
// nothing, doctor says it cannot tell, and how a person can.
func TestAugmentHooksOff(t *testing.T) {
	for _, tc := range []struct {
		name   string
		lines  []string
		status Status
		want   string
		fix    string
	}{
		{"off", []string{augmentFlags("2026-12-02 10:00:00.000", true, false, false)}, Broken,
			"Augment has hooks switched off for this account (its enable_hooks feature flag, as auggie's start at 2026-12-02 10:00:00.000 logged it in ",
			"ask Augment to turn on hooks (the enable_hooks feature flag) for your tenant: nothing on this machine turns them on"},
		{"off, overridable", []string{augmentFlags("2026-12-02 10:00:00.000", true, false, true)}, Broken,
			"Augment has hooks switched off for this account",
			`add "featureFlagOverrides": {"enableHooks": true} to ~/.augment/settings.json (your tenant allows client overrides)`},
		{"nothing logged", nil, Advice, "whether Augment runs hooks for this account cannot be verified here", augmentCheck},
		{"defaults", []string{augmentFlags("2026-12-02 10:00:00.000", false, false, false)}, Advice,
			"auggie's last start (2026-12-02 10:00:00.000, in ", augmentCheck},
		{"on", []string{augmentFlags("2026-12-02 10:00:00.000", true, true, false)}, OK,
			"Augment runs hooks for this account (its enable_hooks feature flag, as auggie's start at 2026-12-02 10:00:00.000 logged it)", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "repo")
			tg := install.Targets["augment"]
			settings := filepath.Join(f.root, filepath.FromSlash(tg.Project))
			if _, err := install.Install(tg, f.root, settings, tg.PathHookCommand()); err != nil {
				t.Fatal(err)
			}
			f.env["TMPDIR"] = augmentLog(t, tc.lines...)("TMPDIR")
			r := f.check()
			got := find(r, "guard/augment")
			i := slices.IndexFunc(got, func(g Finding) bool { return strings.Contains(g.Message, tc.want) })
			if i < 0 || got[i].Status != tc.status || got[i].Fix != tc.fix || !strings.HasPrefix(got[i].Message, "augment guard ("+settings+"): ") {
				t.Fatalf("augment: %+v, want a finding %s with %q and the fix %q", got, tc.status, tc.want, tc.fix)
			}
			if tc.status == Broken {
				if len(got) != 1 {
					t.Errorf("more than the one finding: %+v", got)
				}
				if r.Healthy() || !slices.Contains(r.Fixes(), tc.fix) {
					t.Errorf("healthy %v, fixes %q", r.Healthy(), r.Fixes())
				}
			}
		})
	}
}
