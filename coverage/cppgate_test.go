package coverage

import "testing"

// TestCPPGateCache checks that the same C++ content is counted under a test
// name and filtered out elsewhere, in either order and from a warm cache:
// the gated path's count is cached apart from the other.
func TestCPPGateCache(t *testing.T) {
	const noInclude = "TEST(Math, Adds) { EXPECT_EQ(2, add(1, 1)); }\n"
	const withInclude = "#include <gtest/gtest.h>\n" + noInclude
	dir := newRepo(t)
	write(t, dir, "src/math.cc", noInclude)
	write(t, dir, "tests/math.cc", noInclude)
	write(t, dir, "src/checks.cc", withInclude)
	run(t, dir, nil, "add", "-A")
	run(t, dir, nil, "commit", "-q", "-m", "cpp")
	for _, round := range []string{"cold", "warm"} {
		c := count(t, Options{Dir: dir, Mode: Rev, Rev: "HEAD"})
		var got []string
		for _, f := range c.Files {
			if f.Language == "cpp" {
				got = append(got, f.Path)
			}
		}
		if len(got) != 2 || got[0] != "src/checks.cc" || got[1] != "tests/math.cc" {
			t.Errorf("%s: counted %q, want src/checks.cc and tests/math.cc", round, got)
		}
		if round == "warm" && c.Parsed != 0 {
			t.Errorf("warm: %d files parsed, want none", c.Parsed)
		}
	}
}
