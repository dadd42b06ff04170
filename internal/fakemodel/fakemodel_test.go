package fakemodel

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func bashPick(tools []Tool) (Call, bool) {
	for _, t := range tools {
		if t.Name == "Bash" {
			return Call{Name: "Bash", Args: map[string]any{"command": "touch ok.txt"}}, true
		}
	}
	return Call{}, false
}

func start(t *testing.T) *Server {
	t.Helper()
	s, err := Start(Script{Pick: bashPick, Final: "all done"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if !strings.HasPrefix(s.URL, "http://127.0.0.1:") {
		t.Fatalf("URL %q is not on loopback", s.URL)
	}
	return s
}

func post(t *testing.T, url, body string) (string, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("POST %s: %s: %s", url, resp.Status, b)
	}
	return resp.Header.Get("Content-Type"), string(b)
}

// events returns the data lines of an SSE body, decoded.
func events(t *testing.T, body string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || line == "[DONE]" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("event %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func TestAnthropicTurn(t *testing.T) {
	s := start(t)
	// A side request without tools (a title) is a text, not the call.
	_, body := post(t, s.URL+"/v1/messages", `{"model":"m","stream":true,"messages":[{"role":"user","content":"title?"}]}`)
	if !strings.Contains(body, `"text_delta"`) || strings.Contains(body, "tool_use") {
		t.Fatalf("side request answered with %s", body)
	}
	ct, body := post(t, s.URL+"/v1/messages?beta=true", `{"model":"m","stream":true,"tools":[{"name":"Read","input_schema":{}},{"name":"Bash","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"go"}]}`)
	if ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	ev := events(t, body)
	if len(ev) != 6 || ev[0]["type"] != "message_start" || ev[5]["type"] != "message_stop" {
		t.Fatalf("events %v", ev)
	}
	block := ev[1]["content_block"].(map[string]any)
	if block["type"] != "tool_use" || block["name"] != "Bash" || block["id"] != callID {
		t.Fatalf("block %v", block)
	}
	delta := ev[2]["delta"].(map[string]any)
	if delta["partial_json"] != `{"command":"touch ok.txt"}` {
		t.Fatalf("delta %v", delta)
	}
	if ev[4]["delta"].(map[string]any)["stop_reason"] != "tool_use" {
		t.Fatalf("message_delta %v", ev[4])
	}
	if _, ok := s.Result(); ok {
		t.Fatal("a result before the host sent one")
	}
	_, body = post(t, s.URL+"/v1/messages", `{"model":"m","tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"go"},
		{"role":"assistant","content":[{"type":"tool_use","id":"`+callID+`","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"`+callID+`","is_error":true,"content":[{"type":"text","text":"denied by sentinel"}]}]}]}`)
	var msg map[string]any
	if err := json.Unmarshal([]byte(body), &msg); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	if msg["stop_reason"] != "end_turn" || !strings.Contains(body, "all done") {
		t.Fatalf("final %s", body)
	}
	if r, ok := s.Result(); !ok || r != "denied by sentinel" {
		t.Fatalf("result %q %v", r, ok)
	}
	if c, ok := s.Called(); !ok || c.Name != "Bash" {
		t.Fatalf("called %v %v", c, ok)
	}
	// Only one call is ever made: a later request offering the tool gets text.
	_, body = post(t, s.URL+"/v1/messages", `{"model":"m","tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"again"}]}`)
	if strings.Contains(body, "tool_use") {
		t.Fatalf("a second call: %s", body)
	}
	if n := len(s.Requests()); n != 4 {
		t.Fatalf("%d requests logged:\n%s", n, s.Summary())
	}
}

func TestChatTurn(t *testing.T) {
	s := start(t)
	tools := `"tools":[{"type":"function","function":{"name":"Bash","parameters":{"type":"object"}}}]`
	_, body := post(t, s.URL+"/v1/chat/completions", `{"model":"m","stream":true,`+tools+`,"messages":[{"role":"user","content":"go"}]}`)
	if !strings.HasSuffix(strings.TrimSpace(body), "data: [DONE]") {
		t.Fatalf("stream does not end with [DONE]: %s", body)
	}
	ev := events(t, body)
	first := ev[0]["choices"].([]any)[0].(map[string]any)["delta"].(map[string]any)
	call := first["tool_calls"].([]any)[0].(map[string]any)
	if call["id"] != callID || call["function"].(map[string]any)["name"] != "Bash" {
		t.Fatalf("first chunk %v", first)
	}
	last := ev[len(ev)-1]["choices"].([]any)[0].(map[string]any)
	if last["finish_reason"] != "tool_calls" {
		t.Fatalf("last chunk %v", last)
	}
	_, body = post(t, s.URL+"/v1/chat/completions", `{"model":"m",`+tools+`,"messages":[{"role":"user","content":"go"},
		{"role":"tool","tool_call_id":"`+callID+`","content":"refused: no"}]}`)
	if !strings.Contains(body, `"content":"all done"`) || !strings.Contains(body, `"finish_reason":"stop"`) {
		t.Fatalf("final %s", body)
	}
	if r, _ := s.Result(); r != "refused: no" {
		t.Fatalf("result %q", r)
	}
}

func TestResponsesTurn(t *testing.T) {
	s, err := Start(Script{Pick: func(tools []Tool) (Call, bool) {
		for _, t := range tools {
			if t.Name == "apply_patch" {
				return Call{Name: t.Name, Input: "*** Begin Patch\n*** End Patch\n"}, true
			}
		}
		return Call{}, false
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, body := post(t, s.URL+"/v1/responses", `{"model":"m","stream":true,"tools":[{"type":"custom","name":"apply_patch"},{"type":"function","name":"shell"}],"input":[]}`)
	ev := events(t, body)
	if ev[len(ev)-1]["type"] != "response.completed" {
		t.Fatalf("events %v", ev)
	}
	item := ev[1]["item"].(map[string]any)
	if item["type"] != "custom_tool_call" || item["input"] != "*** Begin Patch\n*** End Patch\n" {
		t.Fatalf("item %v", item)
	}
	_, body = post(t, s.URL+"/v1/responses", `{"model":"m","stream":true,"tools":[],"input":[{"type":"custom_tool_call_output","call_id":"`+callID+`","output":"blocked"}]}`)
	if !strings.Contains(body, `"output_text"`) || !strings.Contains(body, "done") {
		t.Fatalf("final %s", body)
	}
	if r, _ := s.Result(); r != "blocked" {
		t.Fatalf("result %q", r)
	}
}

func TestGeminiTurn(t *testing.T) {
	s, err := Start(Script{Pick: func(tools []Tool) (Call, bool) {
		return Call{Name: tools[0].Name, Args: map[string]any{"command": "ls"}}, true
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tools := `"tools":[{"functionDeclarations":[{"name":"run_shell_command","parametersJsonSchema":{"type":"object"}}]}]`
	_, body := post(t, s.URL+"/v1beta/models/m:streamGenerateContent?alt=sse", `{`+tools+`,"contents":[{"role":"user","parts":[{"text":"go"}]}]}`)
	ev := events(t, body)
	part := ev[0]["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"].([]any)[0].(map[string]any)
	if part["functionCall"].(map[string]any)["name"] != "run_shell_command" {
		t.Fatalf("part %v", part)
	}
	_, body = post(t, s.URL+"/v1beta/models/m:generateContent", `{`+tools+`,"contents":[{"role":"user","parts":[{"functionResponse":{"id":"`+callID+`","name":"run_shell_command","response":{"error":"denied"}}}]}]}`)
	if !strings.Contains(body, `"text":"done"`) {
		t.Fatalf("final %s", body)
	}
	if r, _ := s.Result(); r != "denied" {
		t.Fatalf("result %q", r)
	}
	_, body = post(t, s.URL+"/v1beta/models/m:countTokens", `{}`)
	if !strings.Contains(body, "totalTokens") {
		t.Fatalf("countTokens %s", body)
	}
}

func TestSideRequests(t *testing.T) {
	s := start(t)
	for _, p := range []string{"/v1/models", "/v1/messages/count_tokens", "/api/event_logging/batch"} {
		resp, err := http.Get(s.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !json.Valid(b) {
			t.Fatalf("GET %s: %s %s", p, resp.Status, b)
		}
	}
	_, body := post(t, s.URL+"/v1/messages/count_tokens", `{"messages":[]}`)
	if !strings.Contains(body, "input_tokens") {
		t.Fatalf("count_tokens %s", body)
	}
	if _, ok := s.Called(); ok {
		t.Fatal("a side request made the call")
	}
}

func TestLoopbackOnly(t *testing.T) {
	s := start(t)
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/v1/messages", strings.NewReader(`{}`))
	req.RemoteAddr = "192.0.2.7:4000"
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("a request from %s got %d", req.RemoteAddr, rec.Code)
	}
	if _, err := Start(Script{}); err == nil {
		t.Fatal("a script without Pick started")
	}
}
