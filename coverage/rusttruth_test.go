package coverage

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// rustCrates are the crates pinned under fixtures/accuracy/rust, each with
// the list `cargo test -- --list` prints for it (doc tests left out).
var rustCrates = []string{"itoa", "httparse"}

// TestRustMatchesCargoTestList compares the tests sentinel finds in real
// crates, tests written by the crates' own macro_rules! macros included,
// with cargo's own list, name for name. When cargo is on the machine, the
// pinned list is checked against a live `cargo test -- --list` too.
func TestRustMatchesCargoTestList(t *testing.T) {
	t.Parallel()
	for _, crate := range rustCrates {
		t.Run(crate, func(t *testing.T) {
			dir := filepath.Join("..", "fixtures", "accuracy", "rust", crate)
			data, err := os.ReadFile(filepath.Join(dir, "cargo-test-list.txt"))
			if err != nil {
				t.Fatal(err)
			}
			want := cargoNames(string(data))
			if got := countedNames(t, dir, true); !reflect.DeepEqual(got, withActive(want)) {
				t.Errorf("sentinel and cargo test -- --list differ\n%s", diffNames(got, withActive(want)))
			}
			t.Logf("%d tests", len(want))

			cargo, err := exec.LookPath("cargo")
			if err != nil || testing.Short() {
				return
			}
			if live := liveCargoList(t, cargo, dir); live != nil && !reflect.DeepEqual(live, want) {
				t.Errorf("the pinned list is not cargo's\n%s", diffNames(want, live))
			}
		})
	}
}

// cargoNames reads the test names of `cargo test -- --list`, doc tests
// ("src/lib.rs - Buffer (line 52)") left out, sorted.
func cargoNames(out string) []string {
	var names []string
	for _, l := range strings.Split(out, "\n") {
		if name, ok := strings.CutSuffix(l, ": test"); ok && !strings.Contains(name, " - ") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

func withActive(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n + " active"
	}
	return out
}

// liveCargoList builds a copy of a pinned crate with cargo, offline: its
// manifest without benches and dev-dependencies, which are for benches
// only and cannot be fetched here. It returns nil when cargo cannot build
// the crate.
func liveCargoList(t *testing.T, cargo, dir string) []string {
	t.Helper()
	work := t.TempDir()
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if rel == "Cargo.toml" {
			data = []byte(stripManifest(string(data)))
		}
		dst := filepath.Join(work, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(cargo, "test", "--offline", "-q", "--", "--list")
	cmd.Dir = work
	// Newer compilers warn about cfgs an older crate does not declare;
	// its #![deny(warnings)] must not turn that into an error.
	cmd.Env = append(os.Environ(), "CARGO_TARGET_DIR="+t.TempDir(), "RUSTFLAGS=--cap-lints=warn")
	out, err := cmd.Output()
	if err != nil {
		t.Logf("cargo test cannot build %s here: %v", dir, err)
		return nil
	}
	return cargoNames(string(out))
}

// stripManifest drops a manifest's [[bench]] and [dev-dependencies]
// sections.
func stripManifest(m string) string {
	var b strings.Builder
	drop := false
	for _, line := range strings.SplitAfter(m, "\n") {
		if s := strings.TrimSpace(line); strings.HasPrefix(s, "[") {
			drop = s == "[[bench]]" || strings.HasPrefix(s, "[dev-dependencies")
		}
		if !drop {
			b.WriteString(line)
		}
	}
	return b.String()
}
