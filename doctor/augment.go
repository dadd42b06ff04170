package doctor

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Auggie runs hooks only when its tenant's enable_hooks feature flag is
// on: the flag comes from Augment's server (get-models) at each start, and
// with it off, or with the flags not loaded at all, Auggie skips every
// hook in silence and runs the call. Nothing on disk caches the flags; the
// one local trace is the log Auggie appends to in the temporary directory
// (augment-log.txt, unless --log-file names another), where each start
// writes the flags it runs with. A tenant that allows client overrides
// takes "featureFlagOverrides" from ~/.augment/settings.json.

// augmentLogName is the file Auggie logs to in the temporary directory.
const augmentLogName = "augment-log.txt"

// maxAugmentLog bounds the read of the log's end: the log only grows, and
// each start's flags fill a few kilobytes.
const maxAugmentLog = 16 << 20

// The log lines of Auggie's start that name the flags it runs with: loaded
// from the server, or its defaults (hooks off) when the server did not
// answer.
const (
	augmentFlagsLoaded  = "'Setup-featureFlags': Successfully loaded feature flags: "
	augmentFlagsDefault = "'Setup-featureFlags': Using default feature flags: "
)

// augmentHooks is what Auggie's log says of the hooks of its last start.
type augmentHooks struct {
	// log is the log's path.
	log string
	// found says a start's flags were logged; the rest is of the last.
	found bool
	// when is the start's time, as the log writes it.
	when string
	// defaults says the start ran on its default flags, the server's
	// not loaded.
	defaults bool
	// on is the enable_hooks flag; overridable says the tenant lets
	// settings override flags (allow_client_feature_flag_overrides).
	on, overridable bool
}

// augmentTempDir is the directory Node's os.tmpdir() names, where Auggie
// puts its log: TMPDIR, TMP or TEMP, else /tmp (on Windows TEMP or TMP,
// else the system's temp).
func augmentTempDir(getenv func(string) string) string {
	keys := []string{"TMPDIR", "TMP", "TEMP"}
	fallback := "/tmp"
	if runtime.GOOS == "windows" {
		keys = []string{"TEMP", "TMP"}
		fallback = filepath.Join(getenv("SystemRoot"), "temp")
	}
	for _, k := range keys {
		if d := getenv(k); d != "" {
			if len(d) > 1 {
				d = strings.TrimRight(d, `/\`)
			}
			return d
		}
	}
	return fallback
}

// readAugmentLog reads the flags of the last start Auggie logged in the
// temporary directory. A missing log is found false, not an error.
func readAugmentLog(getenv func(string) string) (augmentHooks, error) {
	h := augmentHooks{log: filepath.Join(augmentTempDir(getenv), augmentLogName)}
	f, err := os.Open(h.log)
	if errors.Is(err, fs.ErrNotExist) {
		return h, nil
	}
	if err != nil {
		return h, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > maxAugmentLog {
		if _, err := f.Seek(st.Size()-maxAugmentLog, io.SeekStart); err != nil {
			return h, err
		}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxAugmentLog))
	if err != nil {
		return h, err
	}
	lines := strings.Split(string(data), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		line := strings.TrimRight(lines[i], "\r")
		rest, defaults := "", false
		if _, after, ok := strings.Cut(line, augmentFlagsLoaded); ok {
			rest = after
		} else if _, after, ok := strings.Cut(line, augmentFlagsDefault); ok {
			rest, defaults = after, true
		} else {
			continue
		}
		var flags map[string]any
		if json.Unmarshal([]byte(rest), &flags) != nil {
			continue // a line cut short, or not Auggie's
		}
		h.found, h.defaults = true, defaults
		h.on = flags["enableHooks"] == true
		h.overridable = flags["allowClientFeatureFlagOverrides"] == true
		if when, _, ok := strings.Cut(line, " ["); ok {
			h.when = when
		}
		return h, nil
	}
	return h, nil
}

// augmentHooksOff reports, for an augment guard at pl, whether Auggie runs
// hooks at all, as its log shows: broken when the server's flag is off
// (with the override the tenant may allow), advice when it cannot be
// told here, ok when it is on. It returns whether the guard is off.
func (c *checker) augmentHooksOff(pl place) bool {
	subject := "guard/augment"
	h, err := readAugmentLog(c.o.Getenv)
	switch {
	case err != nil:
		c.add(Advice, subject, plain(augmentCheck),
			say("augment guard (%s): whether Augment runs hooks for this account cannot be verified here: Auggie's log %s does not read (%s); to tell: %s", path(pl.path), path(h.log), text(err.Error()), augmentCheck))
	case !h.found:
		c.add(Advice, subject, plain(augmentCheck),
			say("augment guard (%s): whether Augment runs hooks for this account cannot be verified here: its server's enable_hooks feature flag decides at each start, Auggie skips every hook when it is off, and Auggie has logged no start in %s; to tell: %s", path(pl.path), path(h.log), augmentCheck))
	case h.defaults:
		c.add(Advice, subject, plain(augmentCheck),
			say("augment guard (%s): auggie's last start (%s, in %s) could not load its feature flags from Augment and ran with hooks off, the guard's with them; a start that loads them runs hooks only if the server's enable_hooks flag is on; to tell: %s", path(pl.path), text(h.when), path(h.log), augmentCheck))
	case !h.on:
		fix := plain("ask Augment to turn on hooks (the enable_hooks feature flag) for your tenant: nothing on this machine turns them on")
		if h.overridable {
			fix = plain(`add "featureFlagOverrides": {"enableHooks": true} to ~/.augment/settings.json (your tenant allows client overrides)`)
		}
		c.add(Broken, subject, fix,
			say("augment guard (%s): Augment has hooks switched off for this account (its enable_hooks feature flag, as auggie's start at %s logged it in %s), so Auggie runs no hook, the guard's with them, and every call runs unchecked", path(pl.path), text(h.when), path(h.log)))
		return true
	default:
		c.add(OK, subject, msg{}, say("augment guard (%s): Augment runs hooks for this account (its enable_hooks feature flag, as auggie's start at %s logged it)", path(pl.path), text(h.when)))
	}
	return false
}

// augmentCheck is how a person tells whether Auggie runs hooks.
const augmentCheck = "start auggie and type /hooks: the command is there only when Augment runs hooks for your account; or run auggie once and then sentinel doctor, which reads the flags from its log"
