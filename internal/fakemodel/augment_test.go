package fakemodel

import (
	"encoding/json"
	"strings"
	"testing"
)

// lines decodes a body of one JSON object a line.
func lines(t *testing.T, body string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(body), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

func TestAugmentTurn(t *testing.T) {
	s := start(t)
	_, body := post(t, s.URL+"/get-models", `{}`)
	var models map[string]any
	if err := json.Unmarshal([]byte(body), &models); err != nil || models["default_model"] != "fake-model" || obj(models["feature_flags"])["enable_hooks"] != true {
		t.Fatalf("get-models: %s (%v)", body, err)
	}
	if _, body := post(t, s.URL+"/agents/list-remote-tools", `{"tool_id_list":{"tool_ids":[0]}}`); body != `{"tools":[]}` {
		t.Fatalf("list-remote-tools: %s", body)
	}
	_, body = post(t, s.URL+"/chat-stream", `{"nodes":[{"id":1,"type":0,"text_node":{"content":"go"}}],"chat_history":[],
		"tool_definitions":[{"name":"view","input_schema_json":"{}"},{"name":"Bash","input_schema_json":"{\"type\":\"object\"}","tool_safety":2}]}`)
	ls := lines(t, body)
	if len(ls) != 2 || ls[1]["stop_reason"] != float64(augmentToolUseReq) {
		t.Fatalf("the call: %s", body)
	}
	use := obj(obj(list(ls[0]["nodes"])[0])["tool_use"])
	if use["tool_name"] != "Bash" || use["tool_use_id"] != callID || use["input_json"] != `{"command":"touch ok.txt"}` {
		t.Fatalf("the call: %s", body)
	}
	_, body = post(t, s.URL+"/chat-stream", `{"nodes":[{"id":1,"type":1,"tool_result_node":{"tool_use_id":"`+callID+`","content":"refused by the hook","is_error":true}}],
		"tool_definitions":[{"name":"Bash","input_schema_json":"{}"}]}`)
	ls = lines(t, body)
	if len(ls) != 2 || ls[0]["text"] != "all done" || ls[1]["stop_reason"] != float64(augmentEndTurn) {
		t.Fatalf("the final: %s", body)
	}
	if r, ok := s.Result(); !ok || r != "refused by the hook" {
		t.Fatalf("result %q, %v", r, ok)
	}
	reqs := s.Requests()
	if len(reqs) != 4 || reqs[2].Family != "augment" || reqs[2].Answer != "call" || reqs[3].Answer != "final" || reqs[0].Answer != "side" {
		t.Fatalf("log:\n%s", s.Summary())
	}
}
