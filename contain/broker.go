package contain

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gitsentinel/sentinel/guard"
	"github.com/gitsentinel/sentinel/guard/hosts"
)

// The broker does sentinel's own writes that the sandbox forbids its
// hooks: the pre-commit hook raising a peak in .sentinel/baseline.json and
// staging it. sentinel run stays outside as the sandbox's parent and
// listens on a socket bound into the sandbox at agentmark.Socket.
//
// It takes no figures from its caller. A request names an operation and
// nothing the operation could trust: "pre-commit" runs sentinel's own
// pre-commit hook, outside, in the repository sentinel run was started in,
// with sentinel's own binary, which counts the staged index itself and
// raises only the peaks that index earns, under the hook's own locks and
// atomic writes. The one thing a caller may name is which index git is
// committing (git commit -a and git commit PATHS stage into an index file
// of their own), and only as a regular file in the repository's git dir,
// which the agent can write anyway. So a process that talks to the socket
// directly can make the broker do only what a git commit's hook would do.

//
// "guard" records a guard decision in the audit trail, which is read-only
// inside. It takes the event the host sent, never a verdict or a record:
// the broker runs sentinel's own guard outside on that event, which
// decides it afresh, under the user's own configuration, and appends its
// own record; its answer is thrown away (the guard inside has answered the
// host). So a caller can only make the trail hold the decision sentinel
// makes of an event it names, which it could have had anyway by sending
// the host that call.

// The broker's operations.
const (
	// OpPreCommit runs the pre-commit hook outside.
	OpPreCommit = "pre-commit"
	// OpGuard decides a guard event again outside and records it.
	OpGuard = "guard"
)

// Request is one call to the broker: one JSON object on one line.
type Request struct {
	// Op is the operation: OpPreCommit or OpGuard.
	Op string `json:"op"`
	// Index is GIT_INDEX_FILE as the hook inside saw it, or "" (for
	// OpPreCommit only).
	Index string `json:"index,omitempty"`
	// Agent is the guard's dialect, or "" to recognise it from the
	// event; Event the event as the host sent it (for OpGuard only).
	Agent string `json:"agent,omitempty"`
	Event string `json:"event,omitempty"`
}

// Response is the broker's answer: the hook's exit status and what it
// said on stderr and stdout.
type Response struct {
	// Code is the exit status.
	Code int `json:"code"`
	// Stdout and Stderr are what the hook printed.
	Stdout string `json:"stdout,omitempty"`
	Stderr string `json:"stderr,omitempty"`
}

// maxRequest bounds a request: a guard event (guard.MaxInput, 1 MiB), as
// a JSON string, with room for its escapes.
const maxRequest = 3 << 20

// broker is the server for one sandbox.
type broker struct {
	socket string
	// empty is the empty file hidden files are bound to.
	empty string
	dir   string
	ln    net.Listener
	p     *Policy
	self  string
	env   []string
	// mu runs one operation at a time: the hook's own locks hold
	// against other writers; this keeps the broker's answers in order.
	mu sync.Mutex
	wg sync.WaitGroup
}

// startBroker listens on a fresh socket in a private directory outside
// the sandbox.
func startBroker(ctx context.Context, p *Policy, getenv func(string) string) (*broker, error) {
	self := p.Self
	if self == "" {
		return nil, errors.New("the broker needs sentinel's own binary, and none was found")
	}
	base := getenv("XDG_RUNTIME_DIR")
	if !filepath.IsAbs(base) {
		base = ""
	}
	dir, err := os.MkdirTemp(base, "sentinel-run-")
	if err != nil {
		return nil, fmt.Errorf("the broker's directory: %w", err)
	}
	b := &broker{socket: filepath.Join(dir, "broker.sock"), empty: filepath.Join(dir, "empty"), dir: dir, p: p, self: self, env: os.Environ()}
	if err := os.WriteFile(b.empty, nil, 0o444); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("the broker's directory: %w", err)
	}
	b.ln, err = net.Listen("unix", b.socket)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("the broker's socket: %w", err)
	}
	b.wg.Add(1)
	go b.serve(ctx)
	return b, nil
}

// Close stops the broker and removes its socket.
func (b *broker) Close() {
	b.ln.Close()
	b.wg.Wait()
	os.RemoveAll(b.dir)
}

func (b *broker) serve(ctx context.Context) {
	defer b.wg.Done()
	for {
		c, err := b.ln.Accept()
		if err != nil {
			return
		}
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			defer c.Close()
			b.handle(ctx, c)
		}()
	}
}

// handle answers one connection: one request, one response.
func (b *broker) handle(ctx context.Context, c net.Conn) {
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReaderSize(c, maxRequest).ReadSlice('\n')
	var resp Response
	if err != nil && !(errors.Is(err, bufio.ErrBufferFull) && len(line) > 0) {
		resp = refusal("the request must be one JSON object on one line")
	} else {
		resp = b.answer(ctx, line)
	}
	_ = c.SetWriteDeadline(time.Now().Add(10 * time.Second))
	_ = json.NewEncoder(c).Encode(resp)
}

// refusal is the answer to a request the broker does not carry out: exit
// status 2, as sentinel's own could-not-do-its-job.
func refusal(why string) Response {
	return Response{Code: 2, Stderr: "sentinel run's broker: " + why + "\n"}
}

// answer decodes a request strictly (an unknown field is refused, so no
// figure can ride along unread) and carries it out.
func (b *broker) answer(ctx context.Context, line []byte) Response {
	var req Request
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return refusal(fmt.Sprintf("a request it cannot read (%v): it takes {\"op\":\"pre-commit\"} with an index path, or {\"op\":\"guard\"} with the host's event and its dialect, nothing else", err))
	}
	switch req.Op {
	case OpPreCommit:
		if req.Agent != "" || req.Event != "" {
			return refusal("pre-commit takes an index path, nothing else")
		}
		index, err := b.index(req.Index)
		if err != nil {
			return refusal(err.Error())
		}
		return b.preCommit(ctx, index)
	case OpGuard:
		if req.Index != "" {
			return refusal("guard takes the host's event and its dialect, nothing else")
		}
		if _, ok := hosts.Dialects[req.Agent]; req.Agent != "" && !ok {
			return refusal(fmt.Sprintf("no guard dialect %q", req.Agent))
		}
		if len(req.Event) > guard.MaxInput {
			return refusal("the event is larger than the guard reads")
		}
		return b.guardAudit(ctx, req.Agent, req.Event)
	}
	return refusal(fmt.Sprintf("no operation %q: the broker does only sentinel's own pre-commit hook and the guard's audit trail", req.Op))
}

// index checks the index a caller names: "" (git's own), or a regular
// file, not a link, in the work tree's git dir or the common one.
func (b *broker) index(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(b.p.Layout.Top, p)
	}
	p = filepath.Clean(p)
	lay := b.p.Layout
	if !strings.HasPrefix(p, lay.GitDir+"/") && !strings.HasPrefix(p, lay.CommonDir+"/") {
		return "", fmt.Errorf("the index %s is not in the repository's git dir", p)
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return "", fmt.Errorf("the index: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("the index %s is not a regular file", p)
	}
	if r, err := filepath.EvalSymlinks(filepath.Dir(p)); err != nil || r != filepath.Dir(p) {
		return "", fmt.Errorf("the index %s is reached through a symbolic link", p)
	}
	return p, nil
}

// guardTimeout bounds the guard's run outside: its own decision is bound
// by guard.Deadline, and the user's checker by its own timeout.
const guardTimeout = 15 * time.Second

// guardAudit runs sentinel's own guard outside the sandbox on the event,
// with the environment sentinel run started with, in the work tree: it
// decides the event itself and appends its own record to the audit trail.
// Its answer to the host is dropped; a note that the trail was not written
// is passed back as a failure.
func (b *broker) guardAudit(ctx context.Context, agent, event string) Response {
	ctx, cancel := context.WithTimeout(ctx, guardTimeout)
	defer cancel()
	args := []string{"guard"}
	if agent != "" {
		args = append(args, "--agent", agent)
	}
	cmd := exec.CommandContext(ctx, b.self, args...)
	cmd.Dir = b.p.Layout.Top
	cmd.Env = b.env
	cmd.Stdin = strings.NewReader(event)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return refusal(fmt.Sprintf("run the guard: %v", err))
	}
	// The guard's exit status is its answer to the host (2 refuses on some
	// hosts), not whether it recorded the decision.
	if i := strings.Index(stderr.String(), guard.AuditUnwritten); i >= 0 {
		return refusal(strings.TrimSpace(stderr.String()[i:]))
	}
	return Response{}
}

// preCommit runs sentinel's own pre-commit hook outside the sandbox, in
// the work tree sentinel run started in, with the environment sentinel
// run started with (so no variable the agent set inside reaches it), and
// the index named.
func (b *broker) preCommit(ctx context.Context, index string) Response {
	b.mu.Lock()
	defer b.mu.Unlock()
	cmd := exec.CommandContext(ctx, b.self, "hook", "pre-commit")
	cmd.Dir = b.p.Layout.Top
	env := make([]string, 0, len(b.env)+1)
	for _, kv := range b.env {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	if index != "" {
		env = append(env, "GIT_INDEX_FILE="+index)
	}
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	resp := Response{Stdout: stdout.String(), Stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		resp.Code = ee.ExitCode()
		if resp.Code < 0 {
			resp.Code = 2
		}
	case err != nil:
		return refusal(fmt.Sprintf("run the pre-commit hook: %v", err))
	}
	return resp
}

// Ask sends one request to the broker at socket and returns its answer.
func Ask(ctx context.Context, socket string, req Request) (Response, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return Response{}, fmt.Errorf("reach sentinel run's broker at %s: %w", socket, err)
	}
	defer c.Close()
	line, err := json.Marshal(req)
	if err != nil {
		return Response{}, err
	}
	if _, err := c.Write(append(line, '\n')); err != nil {
		return Response{}, fmt.Errorf("write to sentinel run's broker: %w", err)
	}
	var resp Response
	dec := json.NewDecoder(io.LimitReader(c, maxResponse))
	if err := dec.Decode(&resp); err != nil {
		return Response{}, fmt.Errorf("read sentinel run's broker's answer: %w", err)
	}
	return resp, nil
}

// maxResponse bounds an answer: a hook's report.
const maxResponse = 16 << 20
