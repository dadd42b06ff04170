package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/pathguard"
	"github.com/gitsentinel/sentinel/guard/policy"
	"github.com/gitsentinel/sentinel/guard/verdict"
)

func TestLogPath(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		vars map[string]string
		want string
	}{
		{map[string]string{"XDG_STATE_HOME": "/s", "HOME": "/h"}, "/s/sentinel/guard.jsonl"},
		{map[string]string{"HOME": "/h"}, "/h/.local/state/sentinel/guard.jsonl"},
		// A relative XDG_STATE_HOME is invalid by the specification.
		{map[string]string{"XDG_STATE_HOME": "state", "HOME": "/h"}, "/h/.local/state/sentinel/guard.jsonl"},
		{map[string]string{"HOME": "relative"}, ""},
		{map[string]string{}, ""},
	}
	for _, tt := range tests {
		if got := pathguard.LogPath(env(tt.vars)); got != filepath.FromSlash(tt.want) {
			t.Errorf("LogPath(%v) = %q; want %q", tt.vars, got, tt.want)
		}
	}
}

func TestLogModeFromConfiguration(t *testing.T) {
	tests := []struct {
		user, project, want string
	}{
		{"", "", policy.LogRefusals},
		{"all", "", policy.LogAll},
		{"off", "", policy.LogOff},
		{"", "all", policy.LogAll},         // a project may raise the trail
		{"refusals", "all", policy.LogAll}, // even over the user's explicit default
		{"", "off", policy.LogRefusals},    // but never switch it off
		{"all", "off", policy.LogAll},
		{"off", "all", policy.LogAll}, // a project's "all" stands: it may always ask for more
	}
	for _, tt := range tests {
		dir := t.TempDir()
		userPath := filepath.Join(dir, "user.toml")
		project := filepath.Join(dir, "project")
		if tt.user != "" {
			writeFile(t, userPath, fmt.Sprintf("[guard]\nlog = %q\n", tt.user))
		}
		if tt.project != "" {
			writeFile(t, filepath.Join(project, ".sentinel", "config.toml"), fmt.Sprintf("[guard]\nlog = %q\n", tt.project))
		}
		p, err := policy.LoadPolicy(userPath, project)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.LogMode(); got != tt.want {
			t.Errorf("user %q, project %q: mode %q; want %q", tt.user, tt.project, got, tt.want)
		}
	}
	if got := (*policy.Policy)(nil).LogMode(); got != policy.LogRefusals {
		t.Errorf("a policy that did not load logs %q; want refusals", got)
	}
}

func TestRecords(t *testing.T) {
	for _, tt := range []struct {
		mode string
		v    verdict.Verdict
		want bool
	}{
		{policy.LogRefusals, verdict.Allow, false}, {policy.LogRefusals, verdict.Warn, true}, {policy.LogRefusals, verdict.Ask, true}, {policy.LogRefusals, verdict.Deny, true},
		{"", verdict.Allow, false}, {"", verdict.Deny, true},
		{policy.LogAll, verdict.Allow, true}, {policy.LogAll, verdict.Deny, true},
		{policy.LogOff, verdict.Allow, false}, {policy.LogOff, verdict.Deny, false},
	} {
		if got := Records(tt.mode, tt.v); got != tt.want {
			t.Errorf("Records(%q, %s) = %v; want %v", tt.mode, tt.v, got, tt.want)
		}
	}
}

var testNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.FixedZone("CET", 3600))

func TestNewRecordOfAShellCall(t *testing.T) {
	// The guard's decision on `git push --force origin main`.
	d := &decision{}
	d.Add(verdict.Finding{RuleID: "git.force-push", Severity: verdict.High, Verdict: verdict.Deny, Command: "git push --force origin main",
		Reason: verdict.High.Reason("git.force-push", "rewriting the remote's published history", "push without --force")})
	d.Call = &hosts.Call{Tool: "Bash", Command: "GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a git push --force origin main", Kind: "bash", Cwd: "/p"}
	r := record(testNow, "claude", d, "/elsewhere")
	want := &Record{Version: 1, Time: "2026-11-29T11:00:00.000Z", Agent: "claude", Tool: "Bash", Cwd: "/p", Verdict: "deny",
		Rules: []string{"git.force-push"}, Reason: d.Reason(), Command: "GITHUB_TOKEN=*** git push --force origin main", Paths: []string{}}
	if got, _ := json.Marshal(r); string(got) != string(mustJSON(t, want)) {
		t.Errorf("record\n got %s\nwant %s", got, mustJSON(t, want))
	}
	if _, err := time.Parse(time.RFC3339, r.Time); err != nil {
		t.Errorf("time %q is not RFC 3339: %v", r.Time, err)
	}
}

func TestNewRecordOfAFileToolHasPathsNotContents(t *testing.T) {
	d := &decision{}
	d.Add(verdict.Finding{RuleID: "path.credentials", Verdict: verdict.Deny, Reason: "a write to a credential file"})
	d.Add(verdict.Finding{RuleID: "path.credentials", Verdict: verdict.Deny, Reason: "again"})
	d.Call = &hosts.Call{Tool: "Write", Writes: []string{".env", "/tmp/TOKEN=abc"}, Reads: []string{"in.txt"}, Kind: "write"}
	r := record(testNow, "gemini", d, "/cwd")
	if r.Command != "" || strings.Join(r.Paths, "|") != ".env|/tmp/TOKEN=***|in.txt" {
		t.Errorf("command %q, paths %q", r.Command, r.Paths)
	}
	if strings.Join(r.Rules, ",") != "path.credentials" {
		t.Errorf("rules %q; want each id once", r.Rules)
	}
	if r.Cwd != "/cwd" {
		t.Errorf("cwd %q; an event without one takes the process's", r.Cwd)
	}
}

func TestNewRecordBoundsItsSize(t *testing.T) {
	d := &decision{Outcome: verdict.Outcome{Verdict: verdict.Deny}}
	long := strings.Repeat("echo aaaa; ", 10000)
	r := record(testNow, "claude", withCall(d, &hosts.Call{Tool: "Bash", Command: long}), "/")
	if len(r.Command) > MaxRecordCommand || len(r.Command) < MaxRecordCommand-100 {
		t.Errorf("command of %d bytes; want nearly %d", len(r.Command), MaxRecordCommand)
	}
	if !strings.HasSuffix(r.Command, fmt.Sprintf("…[truncated, %d bytes]", len(long))) || !strings.HasPrefix(r.Command, "echo aaaa; echo") {
		t.Errorf("command %q; want the start and a marker", r.Command)
	}
	// One huge word is cut back to where it starts: part of it could be
	// part of a secret.
	long = "echo " + strings.Repeat("a", 100<<10)
	if r = record(testNow, "claude", withCall(d, &hosts.Call{Tool: "Bash", Command: long}), "/"); r.Command != fmt.Sprintf("echo…[truncated, %d bytes]", len(long)) {
		t.Errorf("command %q", r.Command)
	}
	// A short command that masking changed is not marked as cut.
	r = record(testNow, "claude", withCall(d, &hosts.Call{Tool: "Bash", Command: "PASSWORD=averylongpasswordindeed x"}), "/")
	if r.Command != "PASSWORD=*** x" {
		t.Errorf("command %q", r.Command)
	}
	// A key that starts before the cut and runs past it is not recorded
	// in part.
	key := "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat("MIIEpAIBAAKCAQEA\n", 2000) + "-----END RSA PRIVATE KEY-----"
	r = record(testNow, "claude", withCall(d, &hosts.Call{Tool: "Bash", Command: "echo '" + key + "' > k"}), "/")
	if strings.Contains(r.Command, "MIIE") {
		t.Errorf("part of a private key was recorded: %q", r.Command)
	}
	// So is a JWT too long to keep whole.
	jwt := "eyJhbGciOiJIUzI1NiJ9.eyJ" + strings.Repeat("QUFB", 3000) + ".sig"
	r = record(testNow, "claude", withCall(d, &hosts.Call{Tool: "Bash", Command: "curl -H x:" + jwt + " https://x"}), "/")
	if strings.Contains(r.Command, "eyJhbGci") {
		t.Errorf("part of a JWT was recorded: %q", r.Command)
	}
	// So many paths that they are bounded too.
	var paths []string
	for i := range 5000 {
		paths = append(paths, fmt.Sprintf("dir/file%d.txt", i))
	}
	r = record(testNow, "claude", withCall(d, &hosts.Call{Tool: "Write", Writes: paths}), "/")
	line, _ := json.Marshal(r)
	if len(line) > 12<<10 {
		t.Errorf("a record of %d bytes", len(line))
	}
	if last := r.Paths[len(r.Paths)-1]; !strings.HasPrefix(last, "…[") {
		t.Errorf("last path %q; want a marker of those left out", last)
	}
}

func TestAuditWritesWhatTheModeRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "sentinel", "guard.jsonl")
	d := denial("checker", "refused")
	d.Call = &hosts.Call{Tool: "Bash", Command: "make deploy API_KEY=abc", Kind: "bash", Cwd: "/p"}
	if err := audit(path, policy.LogRefusals, "claude", d, "/x", testNow); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, path)
	if len(recs) != 1 || recs[0].Tool != "Bash" || recs[0].Command != "make deploy API_KEY=***" || recs[0].Cwd != "/p" || recs[0].Rules[0] != "checker" {
		t.Errorf("records %+v", recs)
	}
	// An event the guard could not read still leaves a record of the
	// denial, in the guard's own directory.
	if err := audit(path, policy.LogRefusals, "codex", denial("input.malformed", "x"), "/x", testNow); err != nil {
		t.Fatal(err)
	}
	if recs = readRecords(t, path); len(recs) != 2 || recs[1].Tool != "" || recs[1].Cwd != "/x" || recs[1].Agent != "codex" {
		t.Errorf("records %+v", recs)
	}
	// What the mode does not record is not written.
	if err := audit(path, policy.LogRefusals, "claude", &decision{Call: d.Call}, "/x", testNow); err != nil {
		t.Fatal(err)
	}
	if err := audit(path, policy.LogOff, "claude", d, "/x", testNow); err != nil {
		t.Fatal(err)
	}
	if recs = readRecords(t, path); len(recs) != 2 {
		t.Errorf("%d records; want 2", len(recs))
	}
	if err := audit(path, policy.LogAll, "claude", &decision{Call: d.Call}, "/x", testNow); err != nil {
		t.Fatal(err)
	}
	if recs = readRecords(t, path); len(recs) != 3 || recs[2].Verdict != "allow" || len(recs[2].Rules) != 0 {
		t.Errorf("records %+v", recs)
	}
	if err := audit("", policy.LogRefusals, "claude", d, "/x", testNow); err == nil || !strings.Contains(err.Error(), "export XDG_STATE_HOME") {
		t.Errorf("no place for the trail: %v", err)
	}
}

func TestAppendLogCreatesPrivateFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "sentinel")
	path := filepath.Join(dir, "guard.jsonl")
	if err := AppendLog(path, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]os.FileMode{dir: 0o700, path: 0o600, path + ".lock": 0o600} {
		st, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s: mode %v; want %v", name, st.Mode().Perm(), want)
		}
	}
}

func TestAppendLogRefusesASymlink(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "guard.jsonl")
	target := filepath.Join(dir, "target")
	writeFile(t, target, "precious\n")
	if err := os.Symlink(target, path); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	err := AppendLog(path, []byte("{}\n"))
	if err == nil || !strings.Contains(err.Error(), "is a symbolic link") || !strings.Contains(err.Error(), "rm ") {
		t.Errorf("AppendLog through a symlink: %v", err)
	}
	if data, _ := os.ReadFile(target); string(data) != "precious\n" {
		t.Errorf("the link's target was written: %q", data)
	}
	// A dangling link must not create its target either.
	os.Remove(path)
	os.Symlink(filepath.Join(dir, "created"), path)
	if err := AppendLog(path, []byte("{}\n")); err == nil {
		t.Error("a dangling link was written through")
	}
	if _, err := os.Lstat(filepath.Join(dir, "created")); err == nil {
		t.Error("a dangling link's target was created")
	}
	// Nor is the lock file followed.
	os.Remove(path)
	os.Remove(path + ".lock")
	os.Symlink(target, path+".lock")
	if err := AppendLog(path, []byte("{}\n")); err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Errorf("a symlinked lock file: %v", err)
	}
}

func TestAppendLogRotates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "guard.jsonl")
	line := func(i int) []byte {
		return fmt.Appendf(nil, `{"n":%d,"pad":%q}`+"\n", i, strings.Repeat("x", 1000))
	}
	per := MaxLogSize / len(line(0))
	n := per*(LogKeep+2) + 10 // enough to drop the oldest file twice over
	for i := range n {
		if err := AppendLog(path, line(i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(fmt.Sprintf("%s.%d", path, LogKeep+1)); err == nil {
		t.Errorf("more than %d rotated files kept", LogKeep)
	}
	// Oldest first: the numbers run on without a gap or a repeat, up to
	// the last line written.
	next := -1
	for i := LogKeep; i >= 0; i-- {
		name := path
		if i > 0 {
			name = fmt.Sprintf("%s.%d", path, i)
		}
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > MaxLogSize {
			t.Errorf("%s: %d bytes; want at most %d", name, len(data), MaxLogSize)
		}
		for _, l := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
			var v struct{ N int }
			if err := json.Unmarshal(l, &v); err != nil {
				t.Fatalf("%s: a torn line %q", name, l)
			}
			if next >= 0 && v.N != next {
				t.Fatalf("%s: line %d after %d", name, v.N, next-1)
			}
			next = v.N + 1
		}
	}
	if next != n {
		t.Errorf("the last line is %d; want %d", next-1, n-1)
	}
}

// appendMany appends count lines tagged writer/seq, each about a KiB, so
// that writers together cross the rotation size.
func appendMany(path, writer string, count int) error {
	pad := strings.Repeat("x", 900)
	for i := range count {
		line := fmt.Appendf(nil, `{"w":%q,"i":%d,"pad":%q}`+"\n", writer, i, pad)
		// On a loaded machine a writer can wait past lockWait and give the
		// record up, as a guard would; the test is of whole lines, so it
		// tries again until the lock is its.
		err := AppendLog(path, line)
		for errors.Is(err, errLockHeld) {
			err = AppendLog(path, line)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// checkAllLines reads the trail and its rotated files and wants every
// writer's lines 0..count-1 exactly once, none torn.
func checkAllLines(t *testing.T, path string, writers []string, count int) {
	t.Helper()
	seen := map[string]int{}
	for i := 0; i <= LogKeep; i++ {
		name := path
		if i > 0 {
			name = fmt.Sprintf("%s.%d", path, i)
		}
		f, err := os.Open(name)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var v struct {
				W   string
				I   int
				Pad string
			}
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil || len(v.Pad) != 900 {
				t.Fatalf("%s: a torn or interleaved line %q", name, sc.Text())
			}
			seen[v.W+"/"+strconv.Itoa(v.I)]++
		}
		f.Close()
	}
	for _, w := range writers {
		for i := range count {
			if k := w + "/" + strconv.Itoa(i); seen[k] != 1 {
				t.Errorf("line %s seen %d times; want once", k, seen[k])
			}
		}
	}
}

func TestAppendLogFromManyGoroutines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "guard.jsonl")
	// 16 × 240 lines of about a KiB, 3.6 MB: three rotations, and
	// nothing old enough to be dropped.
	const writers, count = 16, 240
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	var names []string
	for w := range writers {
		name := fmt.Sprintf("g%d", w)
		names = append(names, name)
		wg.Go(func() {
			if err := appendMany(path, name, count); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".3"); err != nil {
		t.Errorf("expected three rotations: %v", err)
	}
	checkAllLines(t, path, names, count)
}

// TestAppendLogFromManyProcesses runs this test binary as several writers
// at once: the lock is the OS's, so it must hold between processes.
func TestAppendLogFromManyProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	path := filepath.Join(t.TempDir(), "guard.jsonl")
	const writers, count = 6, 500
	var cmds []*exec.Cmd
	var names []string
	for w := range writers {
		name := fmt.Sprintf("p%d", w)
		names = append(names, name)
		cmd := exec.Command(os.Args[0], "-test.run=^TestAuditHelperProcess$")
		cmd.Env = append(os.Environ(), "SENTINEL_AUDIT_HELPER="+strings.Join([]string{path, name, strconv.Itoa(count)}, string(os.PathListSeparator)))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	checkAllLines(t, path, names, count)
}

// TestAuditHelperProcess is one writer of TestAppendLogFromManyProcesses.
func TestAuditHelperProcess(t *testing.T) {
	args := strings.Split(os.Getenv("SENTINEL_AUDIT_HELPER"), string(os.PathListSeparator))
	if len(args) != 3 {
		t.Skip("a helper for TestAppendLogFromManyProcesses")
	}
	count, _ := strconv.Atoi(args[2])
	if err := appendMany(args[0], args[1], count); err != nil {
		t.Fatal(err)
	}
}

func TestAppendLogGivesUpOnAHeldLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "guard.jsonl")
	unlock, err := lockFile(path+".lock", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	start := time.Now()
	err = AppendLog(path, []byte("{}\n"))
	if err == nil || !strings.Contains(err.Error(), "held the lock") {
		t.Errorf("AppendLog under another's lock: %v", err)
	}
	if took := time.Since(start); took > lockWait+time.Second {
		t.Errorf("waited %v for the lock; the bound is %v", took, lockWait)
	}
}

func TestReadLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "guard.jsonl")
	rec := func(at time.Time, verdict, cmd string) string {
		return string(mustJSON(t, &Record{Version: 1, Time: at.UTC().Format(timeFormat), Agent: "claude", Tool: "Bash", Verdict: verdict, Rules: []string{}, Command: cmd, Paths: []string{}})) + "\n"
	}
	t0 := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	writeFile(t, path+".2", rec(t0, "deny", "old deny"))
	writeFile(t, path+".1", rec(t0.Add(time.Hour), "allow", "old allow"))
	writeFile(t, path, rec(t0.Add(2*time.Hour), "deny", "rm -rf /")+"not json\n"+
		rec(t0.Add(3*time.Hour), "allow", "ls")+`{"version":1,"time":"yesterday","verdict":"deny"}`+"\n"+
		rec(t0.Add(4*time.Hour), "ask", "$X")+`{"version":1,"time":"2026-11-29T15:00:00Z","verd`)
	cmds := func(es []LogEntry) string {
		var out []string
		for _, e := range es {
			out = append(out, e.Command)
		}
		return strings.Join(out, "|")
	}
	es, notes := ReadLog(path, LogQuery{})
	if got := cmds(es); got != "rm -rf /|$X" {
		t.Errorf("default: %q; want the current file's refusals", got)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "skipped 3 line(s)") || !strings.Contains(notes[0], "line 2") {
		t.Errorf("notes %q", notes)
	}
	es, _ = ReadLog(path, LogQuery{All: true})
	if got := cmds(es); got != "old deny|old allow|rm -rf /|ls|$X" {
		t.Errorf("--all: %q; want everything, oldest first", got)
	}
	es, _ = ReadLog(path, LogQuery{All: true, Since: t0.Add(150 * time.Minute)})
	if got := cmds(es); got != "ls|$X" {
		t.Errorf("--all --since: %q", got)
	}
	if string(es[0].Raw) != strings.TrimSuffix(rec(t0.Add(3*time.Hour), "allow", "ls"), "\n") {
		t.Errorf("raw line %q", es[0].Raw)
	}
	es, notes = ReadLog(filepath.Join(t.TempDir(), "none.jsonl"), LogQuery{All: true})
	if len(es) != 0 || len(notes) != 0 {
		t.Errorf("a missing trail: %v, %v", es, notes)
	}
}

func TestReadLogRefusesASymlink(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "guard.jsonl")
	writeFile(t, filepath.Join(dir, "other"), "x\n")
	if err := os.Symlink(filepath.Join(dir, "other"), path); err != nil {
		t.Skip(err)
	}
	writeFile(t, path+".1", `{"version":1,"time":"2026-11-29T12:00:00Z","verdict":"deny","command":"kept"}`+"\n")
	es, notes := ReadLog(path, LogQuery{All: true})
	if len(notes) != 1 || !strings.Contains(notes[0], "guard.jsonl is a symbolic link") {
		t.Errorf("ReadLog through a symlink: notes %q", notes)
	}
	if len(es) != 1 || es[0].Command != "kept" {
		t.Errorf("the other files' records: %+v", es)
	}
}

func TestWriteLogTextEscapesAndAligns(t *testing.T) {
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	es := []LogEntry{
		{Record: Record{Agent: "claude", Verdict: "deny", Rules: []string{"git.force-push"}, Command: "git push -f\n\x1b[2Jecho\u202e"}, When: at},
		{Record: Record{Agent: "gemini", Verdict: "allow", Rules: []string{}, Tool: "write_file", Paths: []string{"a.go", "b\tc.go"}}, When: at},
		{Record: Record{Agent: "codex", Verdict: "deny", Rules: []string{"input.malformed"}}, When: at},
	}
	var b strings.Builder
	if err := WriteLogText(&b, es); err != nil {
		t.Fatal(err)
	}
	want := `time                  agent   verdict  rule             command or paths
2026-11-29T12:00:00Z  claude  deny     git.force-push   "git push -f\n\033[2Jecho\342\200\256"
2026-11-29T12:00:00Z  gemini  allow    -                write_file a.go "b\tc.go"
2026-11-29T12:00:00Z  codex   deny     input.malformed  
`
	if b.String() != want {
		t.Errorf("table\n%s\nwant\n%s", b.String(), want)
	}
}

func BenchmarkAppendLog(b *testing.B) {
	path := filepath.Join(b.TempDir(), "guard.jsonl")
	line := mustJSON(b, record(testNow, "claude", withCall(denial("git.force-push", "a force push"), &hosts.Call{Tool: "Bash", Command: "git push --force origin main"}), "/p"))
	line = append(line, '\n')
	for b.Loop() {
		if err := AppendLog(path, line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAudit is the whole cost a recorded decision adds to the guard:
// the record, its masking, and the append.
func BenchmarkAudit(b *testing.B) {
	path := filepath.Join(b.TempDir(), "guard.jsonl")
	d := denial("git.force-push", "a force push")
	d.Call = &hosts.Call{Tool: "Bash", Command: "GH_TOKEN=abc git push --force origin main", Kind: "bash", Cwd: "/p"}
	for b.Loop() {
		if err := audit(path, policy.LogRefusals, "claude", d, "/p", testNow); err != nil {
			b.Fatal(err)
		}
	}
}

// decision is what the guard hands the trail: a verdict with its findings,
// and the call it was on.
type decision struct {
	verdict.Outcome
	Call *hosts.Call
}

// denial is a decision that refuses for a reason of the guard's own.
func denial(id, reason string) *decision {
	d := &decision{}
	d.Add(verdict.Finding{RuleID: id, Verdict: verdict.Deny, Reason: verdict.Reason(id, reason, "")})
	return d
}

func audit(path, mode, agent string, d *decision, cwd string, now time.Time) error {
	return Audit(path, mode, agent, d.Outcome, d.Call, cwd, now)
}

func record(now time.Time, agent string, d *decision, cwd string) *Record {
	return NewRecord(now, agent, d.Outcome, d.Call, cwd)
}

func withCall(d *decision, c *hosts.Call) *decision {
	d.Call = c
	return d
}

func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readRecords(t *testing.T, path string) []Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []Record
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var r Record
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		out = append(out, r)
	}
	return out
}
