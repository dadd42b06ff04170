package coverage

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/gitsentinel/sentinel/languages"
)

// forgeCache writes, into the cache of dir, the counts of the file at p
// with the content now staged as those of the same file at rev: a forged
// entry that says a test file which lost a test still has it.
func forgeCache(t *testing.T, dir, cacheDir, p, rev string) {
	t.Helper()
	head := count(t, Options{Dir: dir, Mode: Rev, Rev: rev, CacheDir: cacheDir})
	var was *languages.Result
	for _, f := range head.Files {
		if f.Path == p {
			was = f.Result
		}
	}
	if was == nil {
		t.Fatalf("HEAD has no counts for %s", p)
	}
	blob := strings.Fields(gitOut(t, dir, "ls-files", "-s", p))[1]
	c := openCache(head.CommonDir, cacheDir)
	c.put(countKey(languages.Go, p, blob), was)
	if err := c.save(); err != nil {
		t.Fatal(err)
	}
	if got := count(t, Options{Dir: dir, Mode: Index, CacheDir: cacheDir}); got.Total().Tests != head.Total().Tests || got.Parsed != 0 {
		t.Fatalf("the forged entry does not stand for the staged file: %+v, parsed %d", got.Total(), got.Parsed)
	}
}

// TestVerifyIgnoresForgedCounts: a count cache that says a changed test
// file still holds the test it lost must not hide the loss from a check
// that verifies (the pre-commit hook against HEAD, ci against its base),
// while a count that trusts the cache is fooled, which is what the forgery
// is for.
func TestVerifyIgnoresForgedCounts(t *testing.T) {
	dir := newRepo(t)
	cacheDir := t.TempDir()
	c := count(t, Options{Dir: dir, Mode: Index, CacheDir: cacheDir})
	write(t, dir, BaselinePath, string(NewBaseline(c).Marshal()))
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "baseline")
	base := strings.TrimSpace(gitOut(t, dir, "rev-parse", "HEAD"))

	write(t, dir, "a_test.go", "package a\nimport \"testing\"\nfunc TestA(t *testing.T) { t.Error(\"x\") }\n")
	run(t, dir, nil, "add", "a_test.go")
	forgeCache(t, dir, cacheDir, "a_test.go", base)

	drops := func(o Options) int {
		t.Helper()
		o.Dir, o.CacheDir = dir, cacheDir
		res, err := Check(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		return len(res.Drops)
	}
	if n := drops(Options{Mode: Index}); n != 0 {
		t.Fatalf("a check that trusts the cache saw %d drops: the forgery is not one", n)
	}
	if n := drops(Options{Mode: Index, Verify: "HEAD"}); n == 0 {
		t.Error("the pre-commit check against HEAD trusted a forged count of a staged file")
	}

	// The same commit, checked as ci checks a range.
	run(t, dir, nil, "commit", "-q", "--no-verify", "-m", "cut TestB")
	// The check above counted the staged file itself, and its count
	// replaced the forged one: forged again.
	forgeCache(t, dir, cacheDir, "a_test.go", base)
	if n := drops(Options{Mode: Rev, Rev: "HEAD"}); n != 0 {
		t.Fatalf("a commit check that trusts the cache saw %d drops", n)
	}
	// Each verified check counts the file itself and heals the cache, so
	// the entry is forged again before the next. A base the repository
	// does not have trusts nothing.
	for _, v := range []string{base, "-", strings.Repeat("1", 40)} {
		forgeCache(t, dir, cacheDir, "a_test.go", base)
		if n := drops(Options{Mode: Rev, Rev: "HEAD", Verify: v}); n == 0 {
			t.Errorf("the check of HEAD verified against %q trusted a forged count", v)
		}
	}
}

// gitOut runs git in dir and returns its output.
func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

// TestVerifyCountsBothSides: a test swapped for another keeps the totals
// and is a loss by name. A forged count of the old blob that already lacks
// the test would hide the loss; a verified check counts both sides of a
// changed file from their content.
func TestVerifyCountsBothSides(t *testing.T) {
	dir := newRepo(t)
	cacheDir := t.TempDir()
	c := count(t, Options{Dir: dir, Mode: Index, CacheDir: cacheDir})
	write(t, dir, BaselinePath, string(NewBaseline(c).Marshal()))
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "baseline")
	base := strings.TrimSpace(gitOut(t, dir, "rev-parse", "HEAD"))
	oldBlob := strings.Fields(gitOut(t, dir, "ls-files", "-s", "a_test.go"))[1]
	write(t, dir, "a_test.go", "package a\nimport \"testing\"\nfunc TestA(t *testing.T) { t.Error(\"x\") }\nfunc TestC(t *testing.T) { t.Log(\"c\") }\n")
	run(t, dir, nil, "commit", "-q", "-a", "--no-verify", "-m", "swap TestB for TestC")

	// The old blob's count forged to be the new one's: no test lost.
	lost := func(o Options) []string {
		t.Helper()
		head := count(t, Options{Dir: dir, Mode: Rev, Rev: "HEAD", CacheDir: cacheDir})
		var now *languages.Result
		for _, f := range head.Files {
			if f.Path == "a_test.go" {
				now = f.Result
			}
		}
		cc := openCache(head.CommonDir, cacheDir)
		cc.put(countKey(languages.Go, "a_test.go", oldBlob), now)
		if err := cc.save(); err != nil {
			t.Fatal(err)
		}
		o.Dir, o.CacheDir, o.Mode, o.Rev = dir, cacheDir, Rev, "HEAD"
		res, err := Check(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, l := range res.Losses {
			names = append(names, l.Name)
		}
		return names
	}
	if got := lost(Options{}); len(got) != 0 {
		t.Fatalf("a check that trusts the cache lost %q: the forgery is not one", got)
	}
	if got := lost(Options{Verify: base}); strings.Join(got, " ") != "TestB" {
		t.Errorf("verified against the base, the check lost %q, want TestB", got)
	}
}
