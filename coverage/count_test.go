package coverage

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/internal/gittest"
)

func run(t *testing.T, dir string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const twoTests = "package a\nimport \"testing\"\nfunc TestA(t *testing.T) { t.Error(\"x\") }\nfunc TestB(t *testing.T) {}\n"
const threeTests = twoTests + "func TestC(t *testing.T) { t.Skip() }\n"

func newRepo(t *testing.T) string {
	t.Helper()
	gittest.Isolate(t)
	dir := t.TempDir()
	run(t, dir, nil, "init", "-q")
	write(t, dir, "a_test.go", twoTests)
	write(t, dir, "b/test_b.py", "def test_b():\n    assert b() == 1\n")
	write(t, dir, "vendor/v_test.go", twoTests)
	write(t, dir, "pkg/testdata/t_test.go", twoTests)
	write(t, dir, "main.go", "package a\n")
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "init")
	return dir
}

func count(t *testing.T, o Options) *Counts {
	t.Helper()
	c, err := Count(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSnapshots(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "a_test.go", threeTests) // edited, not staged

	wt := count(t, Options{Dir: dir, Mode: WorkTree})
	if got := wt.Total(); got.Files != 2 || got.Tests != 3 || got.Skipped != 1 || got.Assertions != 2 {
		t.Errorf("work tree: %+v (vendor and testdata must be excluded)", got)
	}
	idx := count(t, Options{Dir: dir, Mode: Index})
	if got := idx.Total(); got.Tests != 3 || got.Skipped != 0 {
		t.Errorf("index: %+v", got)
	}
	rev := count(t, Options{Dir: dir, Mode: Rev, Rev: "HEAD"})
	if got := rev.Total(); got.Tests != 3 || got.Skipped != 0 {
		t.Errorf("HEAD: %+v", got)
	}
	run(t, dir, nil, "add", "a_test.go")
	if got := count(t, Options{Dir: dir, Mode: Index}).Total(); got.Tests != 3 || got.Skipped != 1 {
		t.Errorf("index after add: %+v", got)
	}

	// GIT_INDEX_FILE, as git commit -a and git commit <paths> set it.
	alt := filepath.Join(t.TempDir(), "index")
	run(t, dir, []string{"GIT_INDEX_FILE=" + alt}, "read-tree", "HEAD")
	t.Setenv("GIT_INDEX_FILE", alt)
	if got := count(t, Options{Dir: dir, Mode: Index}).Total(); got.Tests != 3 || got.Skipped != 0 {
		t.Errorf("GIT_INDEX_FILE index: %+v", got)
	}
	os.Unsetenv("GIT_INDEX_FILE")

	if got := count(t, Options{Dir: dir, Mode: WorkTree, Paths: []string{"b"}}).Total(); got.Files != 1 || got.Tests != 1 {
		t.Errorf("paths b: %+v", got)
	}
	if _, err := Count(context.Background(), Options{Dir: dir, Mode: Rev, Rev: "nosuch"}); err == nil {
		t.Error("an unknown revision counted")
	}
}

func TestCache(t *testing.T) {
	dir := newRepo(t)
	first := count(t, Options{Dir: dir, Mode: WorkTree})
	if first.Parsed != 2 || first.Cached != 0 {
		t.Fatalf("cold: parsed %d cached %d", first.Parsed, first.Cached)
	}
	// Warm: nothing is read, and the figures are the same.
	warm := count(t, Options{Dir: dir, Mode: WorkTree})
	if warm.Parsed != 0 || warm.Cached != 2 || *warm.Total() != *first.Total() {
		t.Fatalf("warm: parsed %d cached %d, %+v", warm.Parsed, warm.Cached, warm.Total())
	}
	// The committed blob is the same cache entry in every snapshot.
	if rev := count(t, Options{Dir: dir, Mode: Rev, Rev: "HEAD"}); rev.Parsed != 0 {
		t.Errorf("HEAD after a work-tree count parsed %d files", rev.Parsed)
	}
	// An edit is counted again; undoing it hits the cache again, because a
	// work-tree file is hashed as git hashes it.
	write(t, dir, "a_test.go", threeTests)
	if c := count(t, Options{Dir: dir, Mode: WorkTree}); c.Parsed != 1 || c.Total().Tests != 3 {
		t.Errorf("after an edit: parsed %d, %+v", c.Parsed, c.Total())
	}
	write(t, dir, "a_test.go", twoTests)
	if c := count(t, Options{Dir: dir, Mode: WorkTree}); c.Parsed != 0 {
		t.Errorf("after undoing the edit: parsed %d", c.Parsed)
	}

	info := filepath.Join(dir, ".git", "sentinel")
	files, _ := filepath.Glob(filepath.Join(info, "counts-v*.bin"))
	if len(files) != 1 {
		t.Fatalf("cache files: %v", files)
	}
	// A corrupt cache is an empty one, and is rewritten.
	if err := os.WriteFile(files[0], []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := count(t, Options{Dir: dir, Mode: WorkTree}); c.Parsed != 2 || *c.Total() != *first.Total() {
		t.Errorf("corrupt cache: parsed %d, %+v", c.Parsed, c.Total())
	}
	// A deleted cache loses nothing but time.
	if err := os.RemoveAll(info); err != nil {
		t.Fatal(err)
	}
	if c := count(t, Options{Dir: dir, Mode: WorkTree}); c.Parsed != 2 || *c.Total() != *first.Total() {
		t.Errorf("deleted cache: parsed %d", c.Parsed)
	}
}

func TestBadFilesAreReportedNotCounted(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "bin_test.go", "package a\x00\x01func TestX(t *testing.T) {}")
	write(t, dir, "latin1_test.go", "package a // caf\xe9\nfunc TestX(t *testing.T) {}\n")
	write(t, dir, "big_test.go", "package a\nfunc TestBig(t *testing.T) {}\n//"+strings.Repeat("x", MaxFileSize)+"\n")
	if err := os.Symlink("a_test.go", filepath.Join(dir, "link_test.go")); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "gone_test.go", twoTests)
	// tree-sitter-swift loops on this input (found by FuzzCount).
	write(t, dir, "Tests/HangTests.swift", "// XCTAssert\npu\nlic class LegacyTest extends TestCase {\n  public void testOne() { assertEqu")
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "bad files")
	os.Remove(filepath.Join(dir, "gone_test.go"))

	c := count(t, Options{Dir: dir, Mode: WorkTree, ParseTimeout: 200 * time.Millisecond})
	reasons := map[string]string{}
	for _, s := range c.Skipped {
		reasons[s.Path] = s.Reason
	}
	want := map[string]string{
		"bin_test.go":           "binary",
		"latin1_test.go":        "not valid UTF-8",
		"big_test.go":           "larger than 8 MiB",
		"link_test.go":          "symlink",
		"gone_test.go":          "missing from the work tree",
		"Tests/HangTests.swift": "the swift parser gave up on it after 200ms",
	}
	for p, r := range want {
		if reasons[p] != r {
			t.Errorf("%s: reason %q, want %q", p, reasons[p], r)
		}
	}
	if got := c.Total(); got.Files != 2 || got.Tests != 3 {
		t.Errorf("good files: %+v", got)
	}
}

func TestPlainFiles(t *testing.T) {
	gittest.Isolate(t)
	dir := t.TempDir()
	write(t, dir, "x/a_test.go", twoTests)
	write(t, dir, "x/node_modules/m.test.js", "it('x', () => {})\n")
	c, err := CountTargets(context.Background(), dir, []string{"x"}, Options{Mode: WorkTree})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Total(); got.Files != 1 || got.Tests != 2 {
		t.Errorf("plain: %+v", got)
	}
	if _, err := CountTargets(context.Background(), dir, []string{"x"}, Options{Mode: Index}); err == nil {
		t.Error("--staged outside a repository counted")
	}
}

// recorder is a Progress that remembers what it was told.
type recorder struct {
	started, steps, finished int
	total                    int
}

func (r *recorder) Start(total int) { r.started++; r.total = total }
func (r *recorder) Step()           { r.steps++ }
func (r *recorder) Finish()         { r.finished++ }

func TestProgress(t *testing.T) {
	dir := newRepo(t)
	// A scan shorter than the delay shows nothing.
	quiet := &recorder{}
	count(t, Options{Dir: dir, Mode: WorkTree, Progress: quiet, ProgressAfter: time.Hour})
	if quiet.started != 0 || quiet.steps != 0 {
		t.Errorf("a short scan showed progress: %+v", quiet)
	}
	// A scan that outlasts it is told every file, and finishes.
	os.RemoveAll(filepath.Join(dir, ".git", "sentinel"))
	p := &recorder{}
	count(t, Options{Dir: dir, Mode: WorkTree, Progress: p, ProgressAfter: time.Nanosecond, Workers: 1})
	if p.started != 1 || p.total != 2 || p.steps != 2 || p.finished != 1 {
		t.Errorf("progress: %+v", p)
	}
}

// TestDropPutsTestsDownToUncountableFiles checks that the tests of a file
// that can no longer be counted are put down to the file, with what became
// of it, and not reported missing one by one.
func TestDropPutsTestsDownToUncountableFiles(t *testing.T) {
	gittest.Isolate(t)
	dir := t.TempDir()
	run(t, dir, nil, "init", "-q")
	goTests := func(names ...string) string {
		src := "package a\nimport \"testing\"\n"
		for _, n := range names {
			src += "func " + n + "(t *testing.T) { t.Error(\"x\") }\n"
		}
		return src
	}
	files := map[string]string{
		"bin_test.go":  goTests("TestBin1", "TestBin2"),
		"enc_test.go":  goTests("TestEnc"),
		"big_test.go":  goTests("TestBig"),
		"link_test.go": goTests("TestLink"),
		"gone_test.go": goTests("TestGone"),
		"edit_test.go": goTests("TestKept", "TestCut"),
	}
	for p, src := range files {
		write(t, dir, p, src)
	}
	run(t, dir, nil, "add", "-A")
	c := count(t, Options{Dir: dir, Mode: WorkTree})
	write(t, dir, BaselinePath, string(NewBaseline(c).Marshal()))
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "tests")

	write(t, dir, "bin_test.go", files["bin_test.go"]+"\x00")
	write(t, dir, "enc_test.go", files["enc_test.go"]+"// caf\xe9\n")
	write(t, dir, "big_test.go", files["big_test.go"]+"//"+strings.Repeat("x", MaxFileSize)+"\n")
	os.Remove(filepath.Join(dir, "link_test.go"))
	if err := os.Symlink("edit_test.go", filepath.Join(dir, "link_test.go")); err != nil {
		t.Fatal(err)
	}
	run(t, dir, nil, "add", "-A")
	os.Remove(filepath.Join(dir, "gone_test.go"))
	write(t, dir, "edit_test.go", goTests("TestKept"))

	res, err := Check(context.Background(), Options{Dir: dir, Mode: WorkTree})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var missing []string
	for _, d := range res.Drops {
		for _, u := range d.Uncounted {
			got = append(got, u.Sentence()+" "+strings.Join(u.Tests, ","))
		}
		for _, m := range d.Missing {
			missing = append(missing, m.Text())
		}
	}
	want := []string{
		"big_test.go is now larger than 8 MiB, so its test is not counted TestBig",
		"bin_test.go is now binary (a NUL byte in its first 8000 bytes), so its 2 tests are not counted TestBin1,TestBin2",
		"enc_test.go is no longer valid UTF-8, so its test is not counted TestEnc",
		"gone_test.go is missing from the work tree, so its test is not counted TestGone",
		"link_test.go is now a symbolic link, so its test is not counted TestLink",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("uncounted:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(missing) != 1 || missing[0] != "missing: TestCut (edit_test.go:4)" {
		t.Errorf("missing: %q, want only TestCut", missing)
	}
	var text strings.Builder
	if err := res.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "  bin_test.go is now binary") || strings.Contains(text.String(), "missing: TestBin1") {
		t.Errorf("report:\n%s", text.String())
	}
}
