// Package audit keeps the guard's audit trail: one JSON record per
// decision (never a tool's output), secrets masked, appended under a lock
// to a log bounded by size and rotated, and read back for `sentinel guard
// log`. A failure to write it never changes a verdict.
package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/gitsentinel/sentinel/guard/hosts"
	"github.com/gitsentinel/sentinel/guard/policy"
	"github.com/gitsentinel/sentinel/guard/verdict"
	"github.com/gitsentinel/sentinel/internal/quote"
)

// AuditVersion is the version of the audit trail's record format; a
// reader skips nothing for a higher one, it reads the fields it knows.
const AuditVersion = 1

// Bounds of the trail. A record stays a few KiB whatever the agent sends,
// and the files together stay a few MiB.
const (
	// MaxLogSize is the size past which the trail is rotated.
	MaxLogSize = 1 << 20
	// LogKeep is how many rotated files are kept (guard.jsonl.1 … .3).
	LogKeep = 3
	// MaxRecordCommand bounds a record's command, masked, in bytes.
	MaxRecordCommand = 4 << 10
	maxRecordPaths   = 4 << 10
	maxRecordPath    = 1 << 10
	maxRecordField   = 1 << 10
	// maxLogRead bounds what `sentinel guard log` reads of one file: the
	// trail rotates at 1 MiB, so more is a file something else wrote.
	maxLogRead = 8 << 20
	// lockWait bounds how long a guard waits for another's lock: the
	// trail must never make an agent's tool call wait.
	lockWait = 200 * time.Millisecond
	// timeFormat is RFC 3339 in UTC with milliseconds, fixed width so the
	// trail's lines align.
	timeFormat = "2006-01-02T15:04:05.000Z07:00"
)

// Record is one line of the audit trail: a decision and what it was
// about, with secrets masked. It never holds a tool's output or a file's
// contents.
type Record struct {
	// Version is AuditVersion.
	Version int `json:"version"`
	// Time is when the decision was made, RFC 3339 in UTC.
	Time string `json:"time"`
	// Agent is the hook dialect (claude, codex, gemini, cursor, copilot).
	Agent string `json:"agent"`
	// Tool is the host's tool name, or "" when the event was unreadable.
	Tool string `json:"tool"`
	// Cwd is the call's working directory.
	Cwd string `json:"cwd"`
	// Verdict is allow, warn, ask or deny.
	Verdict string `json:"verdict"`
	// Rules are the ids of the rules that fired, in order, each once.
	Rules []string `json:"rules"`
	// Reason is the one-line reason the host was given.
	Reason string `json:"reason"`
	// Command is a shell call's command, masked and bounded.
	Command string `json:"command"`
	// Paths are the paths a file tool writes, then those it reads, masked
	// and bounded.
	Paths []string `json:"paths"`
}

// Records reports whether the trail records a decision with verdict v
// under mode.
func Records(mode string, v verdict.Verdict) bool {
	switch mode {
	case policy.LogOff:
		return false
	case policy.LogAll:
		return true
	}
	return v != verdict.Allow
}

// Audit appends the final decision d on call (nil for an event the guard
// could not read) that agent's hook event got to the trail at path, if mode
// records it. cwd stands in for an event without
// one (an event the guard could not read). Audit never panics; its error
// is for one line on stderr, and never changes the verdict.
func Audit(path, mode, agent string, d verdict.Outcome, call *hosts.Call, cwd string, now time.Time) (err error) {
	if !Records(mode, d.Verdict) {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	if path == "" {
		return errors.New("neither XDG_STATE_HOME nor HOME is an absolute directory; run `export XDG_STATE_HOME=$HOME/.local/state`")
	}
	line, err := json.Marshal(NewRecord(now, agent, d, call, cwd))
	if err != nil {
		return err
	}
	return AppendLog(path, append(line, '\n'))
}

// NewRecord is the record of decision d on its call (none for an event
// the guard could not read), with every string from the event masked and
// bounded.
func NewRecord(now time.Time, agent string, d verdict.Outcome, call *hosts.Call, cwd string) *Record {
	r := &Record{
		Version: AuditVersion,
		Time:    now.UTC().Format(timeFormat),
		Agent:   agent,
		Verdict: d.Verdict.String(),
		Rules:   []string{},
		Reason:  bound(Mask(d.Reason()), maxRecordField),
		Paths:   []string{},
	}
	seen := map[string]bool{}
	for _, f := range d.Findings {
		if f.Verdict != verdict.Allow && !seen[f.RuleID] {
			seen[f.RuleID] = true
			r.Rules = append(r.Rules, f.RuleID)
		}
	}
	if call != nil {
		r.Tool = bound(call.Tool, 128)
		if call.Cwd != "" {
			cwd = call.Cwd
		}
		r.Command = maskBounded(call.Command, MaxRecordCommand)
		total := 0
		paths := append(call.Writes[:len(call.Writes):len(call.Writes)], call.Reads...)
		for i, p := range paths {
			p = maskBounded(p, maxRecordPath)
			if total += len(p); total > maxRecordPaths {
				r.Paths = append(r.Paths, fmt.Sprintf("…[%d more paths]", len(paths)-i))
				break
			}
			r.Paths = append(r.Paths, p)
		}
	}
	r.Cwd = maskBounded(cwd, maxRecordField)
	return r
}

// maskBounded masks s and bounds it to n bytes. A huge input is first cut
// to twice n, back to the last word boundary, so masking stays cheap (a
// few milliseconds at worst) and no secret is left cut in half where its
// pattern would no longer know it: a JWT cut before its signature is no
// JWT.
func maskBounded(s string, n int) string {
	orig, precut := len(s), false
	if len(s) > 2*n {
		s, precut = s[:2*n], true
		if i := strings.LastIndexAny(s, " \t\n'\""); i >= 0 {
			s = s[:i]
		}
	}
	s = Mask(s)
	if len(s) <= n && !precut {
		return s
	}
	return cut(s, n, orig)
}

// bound cuts s to n bytes, with a marker.
func bound(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return cut(s, n, len(s))
}

// cut ends s within n bytes, on a character boundary, with a marker that
// gives the original size.
func cut(s string, n, orig int) string {
	marker := fmt.Sprintf("…[truncated, %d bytes]", orig)
	end := max(min(len(s), n-len(marker)), 0)
	for end > 0 && end < len(s) && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + marker
}

// AppendLog appends one line (a whole record and its newline) to the trail
// at path, rotating first when the line would take the file past
// MaxLogSize. It holds an OS lock on path+".lock" throughout, so guards
// running at once never lose, tear or interleave a line; the lock dies
// with its holder. The line goes in one write on a descriptor opened with
// O_APPEND. The directory is created 0700 and the file 0600, and a
// symbolic link or anything but a regular file at path is an error, never
// followed.
func AppendLog(path string, line []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	unlock, err := lockFile(path+".lock", lockWait)
	if err != nil {
		return err
	}
	defer unlock()
	f, size, err := openLog(path)
	if err != nil {
		return err
	}
	if size > 0 && size+int64(len(line)) > MaxLogSize {
		f.Close()
		if err := rotate(path); err != nil {
			return err
		}
		if f, size, err = openLog(path); err != nil {
			return err
		}
	}
	if _, err := f.Write(line); err != nil {
		// A short write (a full disk) would leave half a line for the
		// next record to run into; the lock is ours, so take it back.
		f.Truncate(size)
		f.Close()
		return err
	}
	return f.Close()
}

// openLog opens the trail for appending, creating it 0600, without
// following a symbolic link and without blocking on a FIFO, and returns
// its size.
func openLog(path string) (*os.File, int64, error) {
	if err := refuseLink(path); err != nil {
		return nil, 0, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|noFollow, 0o600)
	if err != nil {
		return nil, 0, explainOpen(path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("%s is not a regular file; the guard writes its trail only to one: run `rm %s`", path, pasteQuote(path))
	}
	return f, st.Size(), nil
}

// explainOpen turns the errors an attacker's plant gives into advice.
func explainOpen(path string, err error) error {
	if isLinkError(err) {
		return fmt.Errorf("%s is a symbolic link; the guard's trail is never written or read through one: run `rm %s`", path, pasteQuote(path))
	}
	if isFIFOError(err) {
		return fmt.Errorf("%s is not a regular file; the guard writes its trail only to one: run `rm %s`", path, pasteQuote(path))
	}
	return err
}

// rotate shifts path.2 to path.3 (dropping the old .3), path.1 to .2 and
// path to .1. The caller holds the lock.
func rotate(path string) error {
	for i := LogKeep; i > 1; i-- {
		err := os.Rename(fmt.Sprintf("%s.%d", path, i-1), fmt.Sprintf("%s.%d", path, i))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return os.Rename(path, path+".1")
}

// lockFile takes an exclusive flock on path, creating it, and returns its
// release. It waits at most wait for another holder, polling, since a
// blocking flock cannot be abandoned.
func lockFile(path string, wait time.Duration) (func(), error) {
	if err := refuseLink(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|noFollow, 0o600)
	if err != nil {
		return nil, explainOpen(path, err)
	}
	deadline := time.Now().Add(wait)
	pause := 50 * time.Microsecond
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if ok {
			return func() { f.Close() }, nil // closing releases the lock
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("%s: %w for over %v", path, errLockHeld, wait)
		}
		time.Sleep(pause)
		pause = min(2*pause, 2*time.Millisecond)
	}
}

// errLockHeld is a lock another process held past the wait: the record is
// given up, and the caller may try again.
var errLockHeld = errors.New("another process has held the lock")

// pasteQuote quotes a path for a command the user can paste.
func pasteQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// LogEntry is one record read back from the trail, with its line as
// written.
type LogEntry struct {
	Record
	// Raw is the line, without its newline.
	Raw []byte `json:"-"`
	// When is Time, parsed.
	When time.Time `json:"-"`
}

// LogQuery selects what ReadLog returns.
type LogQuery struct {
	// All includes allow records and the rotated files.
	All bool
	// Since drops records older than it, when it is not zero.
	Since time.Time
	// Within, when set, keeps only the calls made in that directory or
	// below it: one project's, where the trail holds every project's.
	Within string
	// Last, when above zero, keeps only the newest Last records.
	Last int
}

// ReadLog reads the trail at path, oldest first: the rotated files too
// with q.All. A missing file is no error. Lines that are not records (a
// torn write, an edit) are skipped, and so is a file that cannot be read
// (a symbolic link planted in its place); notes says which, one line per
// file.
func ReadLog(path string, q LogQuery) (entries []LogEntry, notes []string) {
	files := []string{path}
	if q.All {
		files = nil
		for i := LogKeep; i >= 1; i-- {
			files = append(files, fmt.Sprintf("%s.%d", path, i))
		}
		files = append(files, path)
	}
	for _, name := range files {
		data, note, err := readBounded(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			notes = append(notes, err.Error())
			continue
		}
		if note != "" {
			notes = append(notes, note)
		}
		bad, first := 0, 0
		for i, line := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			var e LogEntry
			if json.Unmarshal(line, &e.Record) != nil || e.Version < 1 || e.Verdict == "" {
				if bad++; bad == 1 {
					first = i + 1
				}
				continue
			}
			t, terr := time.Parse(time.RFC3339Nano, e.Time)
			if terr != nil {
				if bad++; bad == 1 {
					first = i + 1
				}
				continue
			}
			e.When, e.Raw = t, line
			if (!q.All && e.Verdict == verdict.Allow.String()) || (!q.Since.IsZero() && t.Before(q.Since)) || !within(e.Cwd, q.Within) {
				continue
			}
			entries = append(entries, e)
		}
		if bad > 0 {
			notes = append(notes, fmt.Sprintf("%s: skipped %d line(s) that are not records, the first at line %d", name, bad, first))
		}
	}
	if q.Last > 0 && len(entries) > q.Last {
		entries = entries[len(entries)-q.Last:]
	}
	return entries, notes
}

// within reports whether the directory cwd is dir or below it; any is
// within "".
func within(cwd, dir string) bool {
	if dir == "" {
		return true
	}
	dir = strings.TrimSuffix(filepath.Clean(dir), string(filepath.Separator))
	cwd = filepath.Clean(cwd)
	return cwd == dir || strings.HasPrefix(cwd, dir+string(filepath.Separator))
}

// readBounded reads a trail file, never through a symbolic link, and at
// most its last maxLogRead bytes from a whole line on.
func readBounded(name string) ([]byte, string, error) {
	if err := refuseLink(name); err != nil {
		return nil, "", err
	}
	f, err := os.OpenFile(name, os.O_RDONLY|noFollow, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, "", err
		}
		return nil, "", explainOpen(name, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, "", err
	}
	if !st.Mode().IsRegular() {
		return nil, "", fmt.Errorf("%s is not a regular file; run `rm %s`", name, pasteQuote(name))
	}
	note := ""
	if st.Size() > maxLogRead {
		if _, err := f.Seek(st.Size()-maxLogRead, io.SeekStart); err != nil {
			return nil, "", err
		}
		note = fmt.Sprintf("%s: larger than %d MiB; only its last %d MiB read", name, maxLogRead>>20, maxLogRead>>20)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxLogRead))
	if err != nil {
		return nil, "", err
	}
	if note != "" {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:] // the first line is a piece of one
		}
	}
	return data, note, nil
}

// WriteLogText prints entries as an aligned table for people, with the
// control characters in every cell escaped: a record holds what an agent
// sent, and must not drive the terminal.
func WriteLogText(w io.Writer, entries []LogEntry) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "time\tagent\tverdict\trule\tcommand or paths")
	for _, e := range entries {
		what := quote.Name(e.Command)
		if what == "" && len(e.Paths) > 0 {
			paths := make([]string, len(e.Paths))
			for i, p := range e.Paths {
				paths[i] = quote.Path(p)
			}
			what = quote.Name(e.Tool) + " " + strings.Join(paths, " ")
		}
		if what == "" {
			what = quote.Name(e.Tool)
		}
		rule := strings.Join(e.Rules, ",")
		if rule == "" {
			rule = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.When.UTC().Format(time.RFC3339), quote.Name(e.Agent), quote.Name(e.Verdict), quote.Name(rule), what)
	}
	return tw.Flush()
}
