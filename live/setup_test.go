package live_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// liveVar switches the live tests on.
const liveVar = "SENTINEL_LIVE"

var (
	// binDir holds the sentinel binaries built for this run.
	binDir   string
	buildErr error
	build    sync.Once

	hostsDir   string
	hostsErr   error
	hostsSetup sync.Once
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(filepath.Dir(binDir))
	}
	os.Exit(code)
}

// need skips the test unless the live tests are on, and returns the
// directory of the installed hosts' node_modules and of sentinel's built
// binaries.
func need(t *testing.T) (modules, bins string) {
	t.Helper()
	if os.Getenv(liveVar) != "1" {
		t.Skipf("the live tests run the real agent hosts: set %s=1 (make live does)", liveVar)
	}
	if testing.Short() {
		t.Skip("the live tests run the real agent hosts, which -short leaves out")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	hostsSetup.Do(func() { hostsDir, hostsErr = installHosts() })
	if hostsErr != nil {
		t.Skipf("the pinned hosts cannot be installed: %v", hostsErr)
	}
	build.Do(func() { binDir, buildErr = buildSentinel() })
	if buildErr != nil {
		t.Fatalf("build sentinel: %v", buildErr)
	}
	return filepath.Join(hostsDir, "node_modules"), binDir
}

// lockFile is the hosts' pin, beside package.json.
var lockFile = filepath.Join("npm", "package-lock.json")

// cacheRoot is where the installed hosts are kept: SENTINEL_LIVE_CACHE,
// else $XDG_CACHE_HOME (or the OS's cache directory)/sentinel-live.
func cacheRoot() (string, error) {
	if d := os.Getenv("SENTINEL_LIVE_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "sentinel-live"), nil
}

// installHosts installs the pinned hosts once, into a directory named by
// the hash of the lock file, and returns it; a later run with the same
// lock reuses it.
func installHosts() (string, error) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", errors.New("npm is not installed")
	}
	lock, err := os.ReadFile(lockFile)
	if err != nil {
		return "", err
	}
	manifest, err := os.ReadFile(filepath.Join("npm", "package.json"))
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(append(append([]byte{}, manifest...), lock...))
	root, err := cacheRoot()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, hex.EncodeToString(sum[:8]))
	if _, err := os.Stat(filepath.Join(dir, ".complete")); err == nil {
		return dir, pinned(dir, manifest)
	}
	if os.Getenv("SENTINEL_LIVE_OFFLINE") != "" {
		return "", fmt.Errorf("npm or its registry cannot be had, and %s holds no install of this lock", root)
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(root, "install-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	for name, data := range map[string][]byte{"package.json": manifest, "package-lock.json": lock} {
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
			return "", err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	out, err := npmRun(ctx, npm, tmp, "ci")
	if err != nil && strings.Contains(out, "Missing:") && strings.Contains(out, "from lock file") {
		// A registry that lacks other platforms' optional packages (the
		// hosts' binaries for macOS and Windows) makes npm leave them out
		// of the lock it writes, and npm ci then refuses that lock. npm
		// install keeps every version the lock pins and only looks for
		// the missing optional packages again.
		out, err = npmRun(ctx, npm, tmp, "install")
	}
	if err != nil {
		return "", fmt.Errorf("npm: %v\n%s", err, tail(out, 20))
	}
	if err := pinned(tmp, manifest); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, ".complete"), nil, 0o644); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, ".complete")); serr != nil {
			return "", err
		}
		// Another run installed it first.
	}
	return dir, nil
}

func npmRun(ctx context.Context, npm, dir, verb string) (string, error) {
	cmd := exec.CommandContext(ctx, npm, verb, "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "npm_config_update_notifier=false")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// pinned checks that every host installed is at the version package.json
// pins.
func pinned(dir string, manifest []byte) error {
	var m struct{ Dependencies map[string]string }
	if err := json.Unmarshal(manifest, &m); err != nil {
		return err
	}
	for name, want := range m.Dependencies {
		got, err := installedVersion(filepath.Join(dir, "node_modules"), name)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("%s is installed at %s, not the pinned %s", name, got, want)
		}
	}
	return nil
}

func installedVersion(modules, pkg string) (string, error) {
	b, err := os.ReadFile(filepath.Join(modules, pkg, "package.json"))
	if err != nil {
		return "", err
	}
	var p struct{ Version string }
	return p.Version, json.Unmarshal(b, &p)
}

// buildSentinel builds both binaries as make does, side by side in a
// temporary directory: the front (no cgo) and the engine.
func buildSentinel() (string, error) {
	tmp, err := os.MkdirTemp("", "sentinel-live-bin-")
	if err != nil {
		return "", err
	}
	dir := filepath.Join(tmp, "bin")
	ld := "-X main.version=live-test"
	front := exec.Command("go", "build", "-trimpath", "-tags", "urfave_cli_no_docs sentinel_front", "-ldflags", ld,
		"-o", filepath.Join(dir, "sentinel"), "../cmd/sentinel")
	front.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := front.CombinedOutput(); err != nil {
		return "", fmt.Errorf("the front: %v\n%s", err, out)
	}
	engine := exec.Command("go", "build", "-trimpath", "-tags", "urfave_cli_no_docs", "-ldflags", ld,
		"-o", filepath.Join(dir, "sentinel-engine"), "../cmd/sentinel")
	if out, err := engine.CombinedOutput(); err != nil {
		return "", fmt.Errorf("the engine: %v\n%s", err, out)
	}
	return dir, nil
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// copyFile copies a regular file, keeping its mode.
func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	st, err := os.Stat(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, st.Mode().Perm())
}

// run runs a command in dir with env, within timeout, and returns its
// combined output.
func run(dir string, env []string, timeout time.Duration, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}
