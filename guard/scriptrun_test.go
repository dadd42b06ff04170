package guard

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/guard/internal/guardtest"
	"github.com/gitsentinel/sentinel/guard/verdict"
	"github.com/gitsentinel/sentinel/internal/gittest"
)

// TestScriptsAreReadAsTheirCommands: a script file a command runs is read
// from disk and its commands decided on as if they were written out, so
// that moving `rm -rf .git/hooks` into x.sh, x.py or x.js and running it
// does not pass. What the guard cannot compute in a script is a question
// unless git tracks the script unchanged; a script kept from the guard
// (too large, a link out of the project, written by the same line with
// text it cannot compute) is a question; a missing file, a binary and an
// ordinary build script are let be.
func TestScriptsAreReadAsTheirCommands(t *testing.T) {
	gittest.Isolate(t)
	e := guardtest.Env(t)
	dir := e.Project
	git := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("evil.sh", "#!/bin/sh\necho building\nrm -rf .git/hooks\n")
	write("noshebang", "git commit --no-verify -m x\n")
	write("hook.sh", "#!/usr/bin/env bash\nset -e\nprintf 'exit 0\\n' > .git/hooks/pre-commit\n")
	write("evil.py", "import shutil\nprint('x')\nshutil.rmtree('.git/hooks')\n")
	write("evil.js", "const fs = require('fs')\nfs.writeFileSync('.sentinel/config.toml', '')\n")
	write("bin/deploy", "#!/usr/bin/env python3\nimport os\nos.system('git push --force origin main')\n")
	write("nested.sh", "#!/bin/sh\n./evil.sh\n")
	write("commit.sh", "#!/bin/sh\ngit add -A\ngit commit -m wip\n")
	write("self.sh", "#!/bin/sh\necho again\n./self.sh\n")
	write("rmarg.sh", "#!/bin/sh\nrm -rf \"$1\"\n")
	write("build.sh", "#!/bin/bash\nset -euo pipefail\ncd \"$(dirname \"$0\")\"\ngo build ./...\ngo test ./...\nmkdir -p dist && cp bin/* dist/\n")
	write("build.py", "import subprocess\nsubprocess.run(['go', 'build', './...'], check=True)\nprint('done')\n")
	write("dyn.sh", "#!/bin/bash\n\"$TOOL\" ./...\nrm -rf \"$OUT\"\n")
	write("big.sh", "#!/bin/sh\n"+strings.Repeat("# padding to hide what follows\n", 20000)+"rm -rf .git/hooks\n")
	if err := os.WriteFile(filepath.Join(dir, "prog"), append([]byte("\x7fELF\x02\x01\x01\x00"), make([]byte, 64)...), 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(e.Temp[0], "outside.sh")
	os.MkdirAll(e.Temp[0], 0o755)
	os.WriteFile(outside, []byte("echo hi\n"), 0o755)
	os.Symlink(outside, filepath.Join(dir, "link.sh"))
	// The front binary hands Python to the engine.
	engine := !EvaluateCommand("python3 build.py", e, nil).NeedsEngine
	check := func(cases []struct {
		cmd  string
		want verdict.Verdict
	}) {
		t.Helper()
		for _, tc := range cases {
			if d := EvaluateCommand(tc.cmd, e, nil); d.Verdict != tc.want {
				t.Errorf("%q: %s, want %s (%s)", tc.cmd, d.Verdict, tc.want, d.Reason())
			}
		}
	}
	type cases = []struct {
		cmd  string
		want verdict.Verdict
	}
	check(cases{
		{"bash evil.sh", verdict.Deny},
		{"sh ./evil.sh", verdict.Deny},
		{"./evil.sh", verdict.Deny},
		{"bash -e evil.sh", verdict.Deny},
		{"source evil.sh", verdict.Deny},
		{". ./evil.sh", verdict.Deny},
		{"sudo ./evil.sh", verdict.Deny},
		{"cd bin && ../evil.sh", verdict.Deny},
		{"./noshebang", verdict.Deny},
		{"./hook.sh", verdict.Deny},
		{"python3 evil.py", verdict.Deny},
		{"node evil.js", verdict.Deny},
		{"bin/deploy", verdict.Deny},
		{"./nested.sh", verdict.Deny},
		{"bash rmarg.sh .git", verdict.Deny},
		{"PATH=/tmp/fk:$PATH ./commit.sh", verdict.Deny},
		{"export SENTINEL_BIN=/bin/true; sh commit.sh", verdict.Deny},
		{"cat > x.sh <<'EOF'\nrm -rf .git/hooks\nEOF\nsh x.sh", verdict.Deny},
		{"printf 'git commit --no-verify -m x\\n' > x.sh && bash x.sh", verdict.Deny},
		{"cat > x.py <<'EOF'\nimport shutil\nshutil.rmtree('.git')\nEOF\npython3 x.py", verdict.Deny},
		// What the guard cannot see into is a question.
		{"./dyn.sh", verdict.Ask},
		{"./big.sh", verdict.Ask},
		{"./link.sh", verdict.Ask},
		{"cp /srv/incoming/x.sh got.sh; bash got.sh", verdict.Ask},
		// What runs nothing the guard refuses.
		{"./build.sh", verdict.Allow},
		{"bash build.sh", verdict.Allow},
		{"bash rmarg.sh build", verdict.Allow},
		{"./self.sh", verdict.Allow},
		{"./commit.sh", verdict.Allow},
		{"./prog", verdict.Allow},
		{"./missing.sh", verdict.Allow},
		{"bash -n evil.sh", verdict.Allow},
		{"cat evil.sh", verdict.Allow},
	})
	if engine {
		check(cases{{"python3 build.py", verdict.Allow}})
	}

	// Committed, the scripts are the project's: what they state still
	// decides, what they compute is not asked about.
	git("add", "-A")
	git("-c", "core.hooksPath=/dev/null", "commit", "-qm", "scripts")
	old := time.Now().Add(-time.Hour)
	for _, name := range []string{"dyn.sh", "big.sh", "evil.sh"} {
		os.Chtimes(filepath.Join(dir, name), old, old)
	}
	git("update-index", "--refresh")
	check(cases{
		{"./dyn.sh", verdict.Allow},
		{"./big.sh", verdict.Allow},
		{"./evil.sh", verdict.Deny},
	})
	// Changed since, they may be the agent's again.
	write("dyn.sh", "#!/bin/bash\n\"$TOOL\" ./...\nrm -rf \"$OUT\" # edited\n")
	check(cases{{"./dyn.sh", verdict.Ask}})
}
