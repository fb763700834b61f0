package hosts

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// modelMock is a scripted model on 127.0.0.1, speaking Anthropic Messages
// (POST /v1/messages), OpenAI Responses (POST /v1/responses) and Chat
// Completions (POST /v1/chat/completions), streamed or not, and Gemini's
// generateContent and streamGenerateContent: every turn of the agent gets the next scripted reply, in order,
// and every request body is recorded.
// Side requests a host makes besides the agent's turns (a title, a quota
// check, a token count) get a harmless answer and consume nothing.
type modelMock struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	script []string
	// repeatLast answers every turn after the script's end with its last
	// reply (a model that never fixes its packet); otherwise a turn past the
	// end is an error of the test.
	repeatLast bool
	turns      []recordedRequest // the agent's turns, in order
	side       []recordedRequest // everything else
}

// recordedRequest is one request the host made.
type recordedRequest struct {
	Path string
	Body []byte
	// Messages is the conversation the host sent (a Messages request's
	// messages, a Responses request's input messages), each one's text
	// joined.
	Messages []mockMessage
	Reply    string
}

type mockMessage struct {
	Role string
	Text string
}

// newModelMock starts a mock serving script. httptest listens on
// 127.0.0.1 only.
func newModelMock(t *testing.T, script ...string) *modelMock {
	m := &modelMock{t: t, script: script}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	t.Cleanup(func() {
		m.srv.Close()
		for _, r := range m.Side() {
			t.Logf("model mock: side request %s", r.Path)
		}
	})
	return m
}

func (m *modelMock) URL() string { return m.srv.URL }

// RepeatLast makes every turn after the script's end get its last reply.
func (m *modelMock) RepeatLast() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.repeatLast = true
}

// Turns returns the agent's turns recorded so far.
func (m *modelMock) Turns() []recordedRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]recordedRequest(nil), m.turns...)
}

// Side returns the side requests recorded so far.
func (m *modelMock) Side() []recordedRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]recordedRequest(nil), m.side...)
}

func (m *modelMock) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		m.anthropicMessages(w, r, body)
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v1beta/models/"):
		m.gemini(w, r, body)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/responses":
		m.openaiResponses(w, r, body)
	case r.Method == http.MethodPost && (r.URL.Path == "/v1/chat/completions" || r.URL.Path == "/chat/completions"):
		m.chatCompletions(w, r, body)
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		m.record(false, recordedRequest{Path: r.Method + " " + r.URL.Path})
		writeJSON(w, map[string]any{"object": "list", "data": []any{}})
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		m.record(false, recordedRequest{Path: r.URL.Path, Body: body})
		writeJSON(w, map[string]any{"input_tokens": 100})
	default:
		// Anything else the host asks (a quota, a setting, an event sink)
		// is recorded and answered with an empty object.
		m.record(false, recordedRequest{Path: r.Method + " " + r.URL.Path, Body: body})
		writeJSON(w, map[string]any{})
	}
}

func (m *modelMock) record(turn bool, rr recordedRequest) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if turn {
		m.turns = append(m.turns, rr)
	} else {
		m.side = append(m.side, rr)
	}
}

// offersTools reports whether a request's tools (a JSON list) offer any:
// a request that does is one of the agent's turns.
func offersTools(tools json.RawMessage) bool {
	return len(tools) > 0 && string(tools) != "null" && string(tools) != "[]"
}

// reply answers a request: one offering tools is an agent's turn and gets
// the next scripted reply; any other is a side request of the host's (a
// title, a summary), recorded and answered with side.
func (m *modelMock) reply(rr recordedRequest, tools json.RawMessage, side string) string {
	if offersTools(tools) {
		return m.nextReply(rr)
	}
	rr.Reply = side
	m.record(false, rr)
	return side
}

// nextReply takes the next scripted reply for an agent turn.
func (m *modelMock) nextReply(rr recordedRequest) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := len(m.turns)
	var reply string
	switch {
	case i < len(m.script):
		reply = m.script[i]
	case m.repeatLast && len(m.script) > 0:
		reply = m.script[len(m.script)-1]
	default:
		m.t.Errorf("model mock: turn %d asked for, the script has %d", i+1, len(m.script))
		reply = "The script has no more replies."
	}
	rr.Reply = reply
	m.turns = append(m.turns, rr)
	return reply
}

// anthropicRequest is the part of a Messages request the mock reads.
type anthropicRequest struct {
	Model    string          `json:"model"`
	Stream   bool            `json:"stream"`
	Tools    json.RawMessage `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

// contentText joins the text of a message's content: a string, or blocks
// of which text and tool results count.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type    string          `json:"type"`
		Text    string          `json:"text"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var parts []string
	for _, b := range blocks {
		switch b.Type {
		case "text", "input_text", "output_text":
			parts = append(parts, b.Text)
		case "tool_result":
			parts = append(parts, contentText(b.Content))
		}
	}
	return strings.Join(parts, "\n")
}

// anthropicMessages answers POST /v1/messages. A request offering tools is
// one of the agent's turns; one without is a side request of the host's.
func (m *modelMock) anthropicMessages(w http.ResponseWriter, r *http.Request, body []byte) {
	var req anthropicRequest
	if err := json.Unmarshal(body, &req); err != nil {
		m.t.Errorf("model mock: %s: %v", r.URL.Path, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rr := recordedRequest{Path: r.URL.Path, Body: body}
	for _, msg := range req.Messages {
		rr.Messages = append(rr.Messages, mockMessage{Role: msg.Role, Text: contentText(msg.Content)})
	}
	text := m.reply(rr, req.Tools, "OK")
	model := req.Model
	if model == "" {
		model = "claude-mock"
	}
	id := fmt.Sprintf("msg_mock_%d", len(m.Turns())+len(m.Side()))
	usage := map[string]int{"input_tokens": 100, "output_tokens": 20}
	block := map[string]any{"type": "text", "text": text}
	stop := "end_turn"
	tool, input, isTool := parseToolCall(text)
	if isTool {
		block = map[string]any{"type": "tool_use", "id": "toolu_" + id, "name": tool, "input": json.RawMessage(input)}
		stop = "tool_use"
	}
	if !req.Stream {
		writeJSON(w, map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": model,
			"content":     []any{block},
			"stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	event := func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]int{"input_tokens": 100, "output_tokens": 1},
	}})
	if isTool {
		event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": "toolu_" + id, "name": tool, "input": map[string]any{}}})
		for _, part := range halves(input) {
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
		}
	} else {
		event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		for _, part := range halves(text) {
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "text_delta", "text": part}})
		}
	}
	event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": 20}})
	event("message_stop", map[string]any{"type": "message_stop"})
}

// toolPrefix starts a scripted reply that is a tool call, not text (see
// toolCall).
const toolPrefix = "\x00tool\x00"

// toolCall is a scripted reply calling the host's tool name with input (a
// JSON object): a tool_use block in Anthropic Messages, a function_call
// item in OpenAI Responses.
func toolCall(name, input string) string { return toolPrefix + name + "\x00" + input }

// parseToolCall reports whether a scripted reply is a tool call, and its
// tool and input.
func parseToolCall(reply string) (name, input string, ok bool) {
	rest, ok := strings.CutPrefix(reply, toolPrefix)
	if !ok {
		return "", "", false
	}
	name, input, _ = strings.Cut(rest, "\x00")
	return name, input, true
}

// openaiRequest is the part of a Responses request the mock reads.
type openaiRequest struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
	Input  []struct {
		Type    string          `json:"type"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
		Output  json.RawMessage `json:"output"` // a function_call_output's
	} `json:"input"`
}

// openaiResponses answers POST /v1/responses (OpenAI Responses, streamed
// as Codex asks for it): every request is one of the agent's turns.
func (m *modelMock) openaiResponses(w http.ResponseWriter, r *http.Request, body []byte) {
	var req openaiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		m.t.Errorf("model mock: %s: %v", r.URL.Path, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rr := recordedRequest{Path: r.URL.Path, Body: body}
	for _, item := range req.Input {
		switch item.Type {
		case "message":
			rr.Messages = append(rr.Messages, mockMessage{Role: item.Role, Text: contentText(item.Content)})
		case "function_call_output":
			rr.Messages = append(rr.Messages, mockMessage{Role: "tool", Text: contentText(item.Output)})
		}
	}
	text := m.nextReply(rr)
	n := len(m.Turns())
	respID, itemID := fmt.Sprintf("resp_mock_%d", n), fmt.Sprintf("msg_mock_%d", n)
	item := map[string]any{"type": "message", "id": itemID, "role": "assistant", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
	tool, input, isTool := parseToolCall(text)
	if isTool {
		item = map[string]any{"type": "function_call", "id": "fc_" + itemID, "call_id": "call_" + itemID,
			"name": tool, "arguments": input, "status": "completed"}
		// A tool of a namespace (Codex offers an MCP server's tools as one,
		// mcp__SERVER): "namespace/name".
		if ns, name, ok := strings.Cut(tool, "/"); ok {
			item["namespace"], item["name"] = ns, name
		}
	}
	usage := map[string]any{"input_tokens": 100, "input_tokens_details": map[string]int{"cached_tokens": 0},
		"output_tokens": 20, "output_tokens_details": map[string]int{"reasoning_tokens": 0}, "total_tokens": 120}
	if !req.Stream {
		writeJSON(w, map[string]any{"id": respID, "object": "response", "status": "completed",
			"model": req.Model, "output": []any{item}, "usage": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	event := func(data map[string]any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", data["type"], b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	resp := map[string]any{"id": respID, "object": "response", "status": "in_progress", "model": req.Model, "output": []any{}}
	event(map[string]any{"type": "response.created", "response": resp})
	if isTool {
		event(map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	} else {
		event(map[string]any{"type": "response.output_item.added", "output_index": 0,
			"item": map[string]any{"type": "message", "id": itemID, "role": "assistant", "status": "in_progress", "content": []any{}}})
		for _, part := range halves(text) {
			event(map[string]any{"type": "response.output_text.delta", "item_id": itemID, "output_index": 0,
				"content_index": 0, "delta": part})
		}
	}
	event(map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	done := map[string]any{"id": respID, "object": "response", "status": "completed", "model": req.Model,
		"output": []any{item}, "usage": usage}
	event(map[string]any{"type": "response.completed", "response": done})
}

// geminiRequest is the part of a generateContent request the mock reads.
type geminiRequest struct {
	Contents []struct {
		Role  string `json:"role"`
		Parts []struct {
			Text             string          `json:"text"`
			FunctionResponse json.RawMessage `json:"functionResponse"` // a tool's answer
		} `json:"parts"`
	} `json:"contents"`
	Tools json.RawMessage `json:"tools"`
}

// gemini answers Gemini's models/MODEL:streamGenerateContent (the agent's
// turns, streamed as server-sent events) and its other methods (a
// generateContent without tools, countTokens: the host's own checks).
func (m *modelMock) gemini(w http.ResponseWriter, r *http.Request, body []byte) {
	_, method, _ := strings.Cut(r.URL.Path, ":")
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		m.t.Errorf("model mock: %s: %v", r.URL.Path, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rr := recordedRequest{Path: r.URL.Path, Body: body}
	for _, c := range req.Contents {
		var parts []string
		for _, p := range c.Parts {
			if p.Text != "" {
				parts = append(parts, p.Text)
			}
			if len(p.FunctionResponse) > 0 {
				var fr struct {
					Response json.RawMessage `json:"response"`
				}
				_ = json.Unmarshal(p.FunctionResponse, &fr)
				var v any
				_ = json.Unmarshal(fr.Response, &v)
				parts = append(parts, fmt.Sprint(v))
			}
		}
		rr.Messages = append(rr.Messages, mockMessage{Role: c.Role, Text: strings.Join(parts, "\n")})
	}
	usage := map[string]int{"promptTokenCount": 100, "candidatesTokenCount": 20, "totalTokenCount": 120}
	if method == "countTokens" {
		m.record(false, rr)
		writeJSON(w, map[string]int{"totalTokens": 100})
		return
	}
	if !offersTools(req.Tools) {
		// The host's own checks (which model to route to, who speaks
		// next) ask for JSON: the person speaks next.
		rr.Reply = `{"reasoning": "scripted", "next_speaker": "user", "model_choice": "flash", "complexity_reasoning": "scripted", "complexity_score": 1}`
		m.record(false, rr)
		chunk := map[string]any{"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP",
			"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": rr.Reply}}}}},
			"usageMetadata": usage}
		if method == "streamGenerateContent" {
			w.Header().Set("Content-Type", "text/event-stream")
			b, _ := json.Marshal(chunk)
			fmt.Fprintf(w, "data: %s\n\n", b)
			return
		}
		writeJSON(w, chunk)
		return
	}
	text := m.nextReply(rr)
	part := map[string]any{"text": text}
	if tool, input, ok := parseToolCall(text); ok {
		part = map[string]any{"functionCall": map[string]any{"name": tool, "args": json.RawMessage(input)}}
	}
	chunks := []map[string]any{}
	if _, isText := part["text"]; isText {
		for i, piece := range halves(text) {
			c := map[string]any{"candidates": []any{map[string]any{"index": 0,
				"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": piece}}}}}}
			if i == 1 {
				c["candidates"].([]any)[0].(map[string]any)["finishReason"] = "STOP"
				c["usageMetadata"] = usage
			}
			chunks = append(chunks, c)
		}
	} else {
		chunks = append(chunks, map[string]any{"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP",
			"content": map[string]any{"role": "model", "parts": []any{part}}}}, "usageMetadata": usage})
	}
	if method != "streamGenerateContent" {
		writeJSON(w, map[string]any{"candidates": []any{map[string]any{"index": 0, "finishReason": "STOP",
			"content": map[string]any{"role": "model", "parts": []any{part}}}}, "usageMetadata": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	for _, c := range chunks {
		b, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
}

// halves splits text in two at a character boundary: a model streams its
// text in pieces, and the host joins them.
func halves(text string) []string {
	half := len(text) / 2
	for half > 0 && !utf8.RuneStart(text[half]) {
		half--
	}
	return []string{text[:half], text[half:]}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// chatRequest is the part of a Chat Completions request the mock reads.
type chatRequest struct {
	Model    string          `json:"model"`
	Stream   bool            `json:"stream"`
	Tools    json.RawMessage `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

// chatCompletions answers POST /v1/chat/completions (OpenAI Chat
// Completions, streamed as server-sent chunks ending in [DONE], as Copilot
// CLI's provider asks for it). A request offering tools is one of the
// agent's turns; one without is a side request (a title, a summary).
func (m *modelMock) chatCompletions(w http.ResponseWriter, r *http.Request, body []byte) {
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		m.t.Errorf("model mock: %s: %v", r.URL.Path, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rr := recordedRequest{Path: r.URL.Path, Body: body}
	for _, msg := range req.Messages {
		rr.Messages = append(rr.Messages, mockMessage{Role: msg.Role, Text: contentText(msg.Content)})
	}
	text := m.reply(rr, req.Tools, "Scripted session")
	id := fmt.Sprintf("chatcmpl-mock-%d", len(m.Turns())+len(m.Side()))
	usage := map[string]int{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
	tool, input, isTool := parseToolCall(text)
	finish := "stop"
	message := map[string]any{"role": "assistant", "content": text}
	if isTool {
		finish = "tool_calls"
		message = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"id": "call_" + id, "type": "function", "function": map[string]any{"name": tool, "arguments": input}}}}
	}
	if !req.Stream {
		writeJSON(w, map[string]any{"id": id, "object": "chat.completion", "created": 1764700000, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "message": message, "finish_reason": finish}}, "usage": usage})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	chunk := func(delta map[string]any, finish any, usage any) {
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1764700000, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if usage != nil {
			c["usage"] = usage
		}
		b, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	if isTool {
		chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"index": 0,
			"id": "call_" + id, "type": "function", "function": map[string]any{"name": tool, "arguments": ""}}}}, nil, nil)
		for _, part := range halves(input) {
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "function": map[string]any{"arguments": part}}}}, nil, nil)
		}
	} else {
		chunk(map[string]any{"role": "assistant", "content": ""}, nil, nil)
		for _, part := range halves(text) {
			chunk(map[string]any{"content": part}, nil, nil)
		}
	}
	chunk(map[string]any{}, finish, usage)
	fmt.Fprint(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}
