// Package fakemodel is a model server for tests: it listens on loopback
// only and speaks enough of each model API family (Anthropic Messages,
// OpenAI Chat Completions and Responses, Gemini generateContent, Augment's
// chat-stream) for one
// scripted turn of an agent host. The first request that offers the tool
// the script wants is answered with one call of that tool; the request
// that carries the tool's result is answered with a final text; every
// other request (token counts, titles, model lists, telemetry, a second
// agent's turn) gets a short text or an empty success. Every request is
// logged, so a test can read the tool result the host sent back.
package fakemodel

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// Tool is a tool a request offers the model: its name and its parameters'
// JSON schema (nil when the request gives none).
type Tool struct {
	Name   string
	Schema json.RawMessage
}

// Call is the tool call the model makes: the tool's name and its
// arguments, a JSON object. Input, when set, is the raw input of a
// freeform tool (Codex's apply_patch) in place of Args.
type Call struct {
	Name  string
	Args  any
	Input string
}

// Script is the model's one turn.
type Script struct {
	// Pick chooses the call from the tools a request offers; false when
	// none of them is the one wanted, and the request gets a text.
	Pick func(tools []Tool) (Call, bool)
	// Final is the text that answers the tool's result ("done" when
	// empty).
	Final string
}

// Request is one logged request.
type Request struct {
	Method, Path string
	Body         []byte
	// Family is the API family the path belongs to: "anthropic",
	// "chat", "responses", "gemini", "augment" or "" for a side request.
	Family string
	// Tools are the tools the request offers.
	Tools []Tool
	// Result is the text of the scripted call's result, when the request
	// carries it; HasResult says whether it does.
	Result    string
	HasResult bool
	// Answer is what the server made of it: "call", "final" or "text".
	Answer string
}

// Server is a running fake model.
type Server struct {
	// URL is the server's base, http://127.0.0.1:PORT, without a path.
	URL string

	script Script
	srv    *http.Server
	ln     net.Listener

	mu     sync.Mutex
	called bool
	call   Call
	log    []Request
}

// callID is the id of the one call the server makes, in every family.
const callID = "call_sentinel_live_1"

// Start starts a server for the script on a free port of 127.0.0.1.
func Start(s Script) (*Server, error) {
	if s.Pick == nil {
		return nil, errors.New("fakemodel: the script has no Pick")
	}
	if s.Final == "" {
		s.Final = "done"
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	m := &Server{URL: "http://" + ln.Addr().String(), script: s, ln: ln}
	m.srv = &http.Server{Handler: m, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = m.srv.Serve(ln) }()
	return m, nil
}

// Close stops the server.
func (m *Server) Close() error { return m.srv.Close() }

// Requests returns a copy of the log so far.
func (m *Server) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Request(nil), m.log...)
}

// Called reports whether the scripted call was made, and which.
func (m *Server) Called() (Call, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.call, m.called
}

// Result returns the text of the scripted call's result, from the first
// request that carried it.
func (m *Server) Result() (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range m.log {
		if r.HasResult {
			return r.Result, true
		}
	}
	return "", false
}

// Summary describes the log, a line a request, for a failing test.
func (m *Server) Summary() string {
	var b strings.Builder
	for _, r := range m.Requests() {
		names := make([]string, len(r.Tools))
		for i, t := range r.Tools {
			names[i] = t.Name
		}
		fmt.Fprintf(&b, "%s %s family=%s tools=%d %s answer=%s", r.Method, r.Path, r.Family, len(r.Tools), abbreviate(strings.Join(names, ","), 300), r.Answer)
		if r.HasResult {
			fmt.Fprintf(&b, " result=%q", abbreviate(r.Result, 400))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func abbreviate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// loopback reports a remote address on the loopback network.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// maxBody bounds a request's body.
const maxBody = 64 << 20

func (m *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !loopback(r.RemoteAddr) {
		http.Error(w, "loopback only", http.StatusForbidden)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	body = gunzip(r.Header.Get("Content-Encoding"), body)
	req := Request{Method: r.Method, Path: r.URL.Path, Body: body, Family: family(r)}
	var f family_
	switch req.Family {
	case "anthropic":
		f = anthropic{}
	case "chat":
		f = chat{}
	case "responses":
		f = responses{}
	case "gemini":
		f = gemini{}
	case "augment":
		f = augment{}
	}
	if f == nil {
		req.Answer = "side"
		m.record(req)
		side(w, r)
		return
	}
	var parsed map[string]any
	if err := json.Unmarshal(body, &parsed); err != nil {
		req.Answer = "bad json"
		m.record(req)
		http.Error(w, "fakemodel: the body is not JSON", http.StatusBadRequest)
		return
	}
	req.Tools = f.tools(parsed)
	req.Result, req.HasResult = f.result(parsed, callID)
	stream := f.streams(r, parsed)

	m.mu.Lock()
	var call Call
	switch {
	case req.HasResult:
		req.Answer = "final"
	case !m.called && len(req.Tools) > 0:
		if c, ok := m.script.Pick(req.Tools); ok {
			m.called, m.call, call = true, c, c
			req.Answer = "call"
			break
		}
		req.Answer = "text"
	default:
		req.Answer = "text"
	}
	m.log = append(m.log, req)
	m.mu.Unlock()

	text := "ok"
	if req.Answer == "final" {
		text = m.script.Final
	}
	var c *Call
	if req.Answer == "call" {
		c = &call
	}
	f.answer(w, parsed, stream, c, text)
}

func (m *Server) record(r Request) {
	m.mu.Lock()
	m.log = append(m.log, r)
	m.mu.Unlock()
}

// family names the API family of a request's path.
func family(r *http.Request) string {
	p := r.URL.Path
	switch {
	case r.Method != http.MethodPost:
		return ""
	case strings.HasSuffix(p, "/messages") && !strings.Contains(p, "count_tokens"):
		return "anthropic"
	case strings.HasSuffix(p, "/chat/completions"):
		return "chat"
	case strings.HasSuffix(p, "/responses"):
		return "responses"
	case strings.Contains(p, ":generateContent") || strings.Contains(p, ":streamGenerateContent"):
		return "gemini"
	case strings.HasSuffix(p, "/chat-stream"):
		return "augment"
	}
	return ""
}

// side answers what is not a model turn: token counts, model lists,
// telemetry, anything else, with a success the common clients accept.
func side(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if augmentSide(w, p) {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch {
	case strings.Contains(p, "count_tokens"):
		_, _ = io.WriteString(w, `{"input_tokens":10}`)
	case strings.Contains(p, ":countTokens"):
		_, _ = io.WriteString(w, `{"totalTokens":10}`)
	case strings.HasSuffix(p, "/models") || strings.Contains(p, "/models/"):
		_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"fake-model","object":"model","created":1700000000,"owned_by":"fake","type":"model","display_name":"fake-model"}],"models":[]}`)
	default:
		_, _ = io.WriteString(w, `{}`)
	}
}

// family_ is one API family's reading of a request and writing of an
// answer.
type family_ interface {
	tools(req map[string]any) []Tool
	result(req map[string]any, id string) (string, bool)
	streams(r *http.Request, req map[string]any) bool
	answer(w http.ResponseWriter, req map[string]any, stream bool, call *Call, text string)
}

// sse writes server-sent events; event "" writes data lines alone.
type sse struct {
	w http.ResponseWriter
}

func newSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return sse{w}
}

func (s sse) event(name string, data any) {
	var b bytes.Buffer
	if name != "" {
		fmt.Fprintf(&b, "event: %s\n", name)
	}
	switch d := data.(type) {
	case string:
		fmt.Fprintf(&b, "data: %s\n\n", d)
	default:
		j, _ := json.Marshal(d)
		fmt.Fprintf(&b, "data: %s\n\n", j)
	}
	_, _ = s.w.Write(b.Bytes())
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// argsJSON is a call's arguments as JSON text.
func argsJSON(c *Call) string {
	if c.Args == nil {
		return "{}"
	}
	b, _ := json.Marshal(c.Args)
	return string(b)
}

// --- reading JSON loosely ---

func list(v any) []any         { l, _ := v.([]any); return l }
func obj(v any) map[string]any { o, _ := v.(map[string]any); return o }
func str(v any) string         { s, _ := v.(string); return s }

// schemaOf returns a tool's schema member as raw JSON.
func schemaOf(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, _ := json.Marshal(v)
	return b
}

// flatten joins every string in v, depth first: the text of a tool
// result whatever shape it has (a string, blocks, parts, an object).
func flatten(v any) string {
	var parts []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			parts = append(parts, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if !structural[k] {
					walk(x[k])
				}
			}
		}
	}
	walk(v)
	return strings.Join(parts, "\n")
}

// structural are the keys of a result's blocks that say what a block is,
// not what it says.
var structural = map[string]bool{"type": true, "id": true, "tool_use_id": true, "call_id": true,
	"name": true, "role": true, "cache_control": true, "annotations": true}

// gunzip undoes a gzip Content-Encoding; a body that does not read is
// kept as it came.
func gunzip(encoding string, body []byte) []byte {
	if encoding != "gzip" {
		return body
	}
	r, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return body
	}
	out, err := io.ReadAll(io.LimitReader(r, maxBody))
	if err != nil {
		return body
	}
	return out
}
