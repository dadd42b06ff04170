package fakemodel

import (
	"encoding/json"
	"net/http"
	"strings"
)

// tokens is the token count of every usage the server reports.
const tokens = 10

// --- Anthropic Messages (Claude Code) ---

type anthropic struct{}

func (anthropic) tools(req map[string]any) []Tool {
	var out []Tool
	for _, t := range list(req["tools"]) {
		o := obj(t)
		if n := str(o["name"]); n != "" {
			out = append(out, Tool{Name: n, Schema: schemaOf(o["input_schema"])})
		}
	}
	return out
}

func (anthropic) result(req map[string]any, id string) (string, bool) {
	for _, msg := range list(req["messages"]) {
		for _, block := range list(obj(msg)["content"]) {
			b := obj(block)
			if str(b["type"]) == "tool_result" && str(b["tool_use_id"]) == id {
				return flatten(b["content"]), true
			}
		}
	}
	return "", false
}

func (anthropic) streams(_ *http.Request, req map[string]any) bool { return req["stream"] == true }

func (anthropic) answer(w http.ResponseWriter, req map[string]any, stream bool, call *Call, text string) {
	model := str(req["model"])
	usage := map[string]any{"input_tokens": tokens, "output_tokens": tokens}
	var block map[string]any
	stop := "end_turn"
	if call != nil {
		stop = "tool_use"
		block = map[string]any{"type": "tool_use", "id": callID, "name": call.Name, "input": json.RawMessage(argsJSON(call))}
	} else {
		block = map[string]any{"type": "text", "text": text}
	}
	msg := map[string]any{"id": "msg_fake", "type": "message", "role": "assistant", "model": model,
		"content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage}
	if !stream {
		writeJSON(w, msg)
		return
	}
	s := newSSE(w)
	start := map[string]any{"id": "msg_fake", "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": tokens, "output_tokens": 1}}
	s.event("message_start", map[string]any{"type": "message_start", "message": start})
	if call != nil {
		s.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": callID, "name": call.Name, "input": map[string]any{}}})
		s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": argsJSON(call)}})
	} else {
		s.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": text}})
	}
	s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	s.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": tokens}})
	s.event("message_stop", map[string]any{"type": "message_stop"})
}

// --- OpenAI Chat Completions (Qwen Code, OpenCode, Cline and others) ---

type chat struct{}

func (chat) tools(req map[string]any) []Tool {
	var out []Tool
	for _, t := range list(req["tools"]) {
		f := obj(obj(t)["function"])
		if n := str(f["name"]); n != "" {
			out = append(out, Tool{Name: n, Schema: schemaOf(f["parameters"])})
		}
	}
	return out
}

func (chat) result(req map[string]any, id string) (string, bool) {
	for _, msg := range list(req["messages"]) {
		m := obj(msg)
		if str(m["role"]) == "tool" && str(m["tool_call_id"]) == id {
			return flatten(m["content"]), true
		}
	}
	return "", false
}

func (chat) streams(_ *http.Request, req map[string]any) bool { return req["stream"] == true }

func (chat) answer(w http.ResponseWriter, req map[string]any, stream bool, call *Call, text string) {
	model := str(req["model"])
	usage := map[string]any{"prompt_tokens": tokens, "completion_tokens": tokens, "total_tokens": 2 * tokens}
	finish := "stop"
	msg := map[string]any{"role": "assistant", "content": text}
	if call != nil {
		finish = "tool_calls"
		msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"id": callID, "type": "function", "function": map[string]any{"name": call.Name, "arguments": argsJSON(call)}}}}
	}
	if !stream {
		writeJSON(w, map[string]any{"id": "chatcmpl-fake", "object": "chat.completion", "created": 1700000000, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	s := newSSE(w)
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1700000000, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	if call != nil {
		s.event("", chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"index": 0, "id": callID, "type": "function", "function": map[string]any{"name": call.Name, "arguments": ""}}}}, nil))
		s.event("", chunk(map[string]any{"tool_calls": []any{map[string]any{
			"index": 0, "function": map[string]any{"arguments": argsJSON(call)}}}}, nil))
	} else {
		s.event("", chunk(map[string]any{"role": "assistant", "content": text}, nil))
	}
	last := chunk(map[string]any{}, finish)
	last["usage"] = usage
	s.event("", last)
	s.event("", "[DONE]")
}

// --- OpenAI Responses (Codex) ---

type responses struct{}

func (responses) tools(req map[string]any) []Tool {
	var out []Tool
	for _, t := range list(req["tools"]) {
		o := obj(t)
		n := str(o["name"])
		if n == "" {
			n = str(o["type"]) // local_shell, web_search and the like
		}
		if n != "" {
			out = append(out, Tool{Name: n, Schema: schemaOf(o["parameters"])})
		}
	}
	return out
}

func (responses) result(req map[string]any, id string) (string, bool) {
	for _, item := range list(req["input"]) {
		o := obj(item)
		if strings.HasSuffix(str(o["type"]), "_output") && str(o["call_id"]) == id {
			return flatten(o["output"]), true
		}
	}
	return "", false
}

func (responses) streams(_ *http.Request, req map[string]any) bool { return req["stream"] == true }

func (responses) answer(w http.ResponseWriter, req map[string]any, stream bool, call *Call, text string) {
	model := str(req["model"])
	var item map[string]any
	switch {
	case call != nil && call.Input != "":
		item = map[string]any{"type": "custom_tool_call", "id": "ctc_fake", "status": "completed", "call_id": callID, "name": call.Name, "input": call.Input}
	case call != nil:
		item = map[string]any{"type": "function_call", "id": "fc_fake", "status": "completed", "call_id": callID, "name": call.Name, "arguments": argsJSON(call)}
	default:
		item = map[string]any{"type": "message", "id": "msg_fake", "status": "completed", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
	}
	usage := map[string]any{"input_tokens": tokens, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": tokens, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 2 * tokens}
	resp := map[string]any{"id": "resp_fake", "object": "response", "created_at": 1700000000, "status": "completed",
		"model": model, "output": []any{item}, "usage": usage}
	if !stream {
		writeJSON(w, resp)
		return
	}
	s := newSSE(w)
	created := map[string]any{"id": "resp_fake", "object": "response", "created_at": 1700000000, "status": "in_progress", "model": model, "output": []any{}}
	s.event("response.created", map[string]any{"type": "response.created", "sequence_number": 0, "response": created})
	s.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": item})
	if call == nil {
		s.event("response.output_text.delta", map[string]any{"type": "response.output_text.delta", "sequence_number": 2,
			"item_id": "msg_fake", "output_index": 0, "content_index": 0, "delta": text})
	}
	s.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "sequence_number": 3, "output_index": 0, "item": item})
	s.event("response.completed", map[string]any{"type": "response.completed", "sequence_number": 4, "response": resp})
}

// --- Gemini generateContent (Gemini CLI) ---

type gemini struct{}

func (gemini) tools(req map[string]any) []Tool {
	var out []Tool
	for _, t := range list(req["tools"]) {
		for _, d := range list(obj(t)["functionDeclarations"]) {
			o := obj(d)
			schema := o["parametersJsonSchema"]
			if schema == nil {
				schema = o["parameters"]
			}
			if n := str(o["name"]); n != "" {
				out = append(out, Tool{Name: n, Schema: schemaOf(schema)})
			}
		}
	}
	return out
}

// result finds the functionResponse of the call: by its id where the host
// echoes it, otherwise the first functionResponse of the call's name.
func (gemini) result(req map[string]any, id string) (string, bool) {
	for _, c := range list(req["contents"]) {
		for _, p := range list(obj(c)["parts"]) {
			fr := obj(obj(p)["functionResponse"])
			if fr == nil {
				continue
			}
			if rid := str(fr["id"]); rid == "" || rid == id {
				return flatten(fr["response"]), true
			}
		}
	}
	return "", false
}

func (gemini) streams(r *http.Request, _ map[string]any) bool {
	return strings.Contains(r.URL.Path, ":streamGenerateContent")
}

func (gemini) answer(w http.ResponseWriter, _ map[string]any, stream bool, call *Call, text string) {
	part := map[string]any{"text": text}
	if call != nil {
		part = map[string]any{"functionCall": map[string]any{"id": callID, "name": call.Name, "args": json.RawMessage(argsJSON(call))}}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP",
			"content": map[string]any{"role": "model", "parts": []any{part}}}},
		"usageMetadata": map[string]any{"promptTokenCount": tokens, "candidatesTokenCount": tokens, "totalTokenCount": 2 * tokens},
		"modelVersion":  "fake-model",
	}
	if !stream {
		writeJSON(w, resp)
		return
	}
	s := newSSE(w)
	s.event("", resp)
}
