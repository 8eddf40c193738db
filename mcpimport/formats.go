package mcpimport

import (
	"encoding/json"
	"mime"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/record"
)

// inspector reads an MCP Inspector export: a JSON array whose entries are
// of its request history (a message, its response, who sent it, when, and
// how long the answer took; older versions keep request and response as
// JSON text with requestedAt and respondedAt) or of its network log (an
// HTTP exchange of the Streamable HTTP transport: the request body, the
// response's content type and body, JSON or a stream of server-sent
// events).
func (rd *reader) inspector(doc json.RawMessage) error {
	list, ok := array(doc)
	if !ok {
		return rd.fail("", "want a JSON array")
	}
	for i, raw := range list {
		ptr := "/" + strconv.Itoa(i)
		e, ok := object(raw)
		switch {
		case !ok:
			rd.warn(ptr, "an entry that is not an object: skipped")
		case has(e, "requestBody", "responseBody", "url"):
			rd.inspectorNetwork(ptr, e)
		case has(e, "message"):
			// The history: origin "server" marks what the server sent
			// (its requests and notifications); answers go the other way.
			dir := jsonrpc.ClientToServer
			if str(e["origin"]) == "server" {
				dir = jsonrpc.ServerToClient
			}
			ts := str(e["timestamp"])
			rd.add(dir, ts, e["message"])
			rts := after(ts, e["duration"])
			if rts == "" {
				rts = ts
			}
			rd.add(dir.Opposite(), rts, e["response"])
		case has(e, "request"):
			ts := str(e["requestedAt"])
			rd.add(jsonrpc.ClientToServer, ts, e["request"])
			rts := str(e["respondedAt"])
			if rts == "" {
				rts = after(ts, e["durationMs"])
			}
			rd.add(jsonrpc.ServerToClient, rts, e["response"])
		default:
			rd.warn(ptr, "an entry with no message (no \"message\", \"request\" or \"requestBody\"): skipped")
		}
	}
	return nil
}

// inspectorNetwork reads an entry of Inspector's network log.
func (rd *reader) inspectorNetwork(ptr string, e map[string]json.RawMessage) {
	ts := str(e["timestamp"])
	if body := str(e["requestBody"]); strings.TrimSpace(body) != "" {
		rd.add(jsonrpc.ClientToServer, ts, json.RawMessage(strconv.Quote(body)))
	}
	body := str(e["responseBody"])
	if strings.TrimSpace(body) == "" {
		return
	}
	rts := after(ts, e["duration"])
	if rts == "" {
		rts = ts
	}
	var headers map[string]string
	json.Unmarshal(e["responseHeaders"], &headers)
	ct := ""
	for k, v := range headers {
		if strings.EqualFold(k, "Content-Type") {
			ct = v
		}
	}
	mt, _, _ := mime.ParseMediaType(ct)
	switch {
	case mt == "text/event-stream":
		record.SSEMessages(strings.NewReader(body), func(data []byte) {
			rd.add(jsonrpc.ServerToClient, rts, json.RawMessage(strconv.Quote(string(data))))
		})
	case mt == "application/json" || strings.HasSuffix(mt, "+json") || mt == "" && json.Valid([]byte(body)):
		rd.add(jsonrpc.ServerToClient, rts, json.RawMessage(strconv.Quote(body)))
	default:
		rd.warn(ptr+"/responseBody", "a response of type %q, neither JSON nor server-sent events: skipped", mt)
	}
}

// cassette reads an mcp-recorder cassette: "interactions", each a JSON-RPC
// request (or notification) of the client and the server's response (the
// first event of an SSE response); lifecycle interactions (a GET or DELETE)
// hold no message. Cassettes record no time of their own. Its older raw
// recordings, with request_body, response_body and response_sse_events,
// are read too.
func (rd *reader) cassette(doc json.RawMessage) error {
	c, ok := object(doc)
	if !ok {
		return rd.fail("", "want a JSON object")
	}
	list, ok := array(c["interactions"])
	if !ok {
		return rd.fail("/interactions", "want an array of interactions")
	}
	for i, raw := range list {
		ptr := "/interactions/" + strconv.Itoa(i)
		it, ok := object(raw)
		if !ok {
			rd.warn(ptr, "an interaction that is not an object: skipped")
			continue
		}
		if has(it, "request_method", "request_body", "response_body") {
			ts := str(it["timestamp"])
			rd.add(jsonrpc.ClientToServer, ts, it["request_body"])
			rts := after(ts, it["latency_ms"])
			rd.add(jsonrpc.ServerToClient, rts, it["response_body"])
			events, _ := array(it["response_sse_events"])
			for _, ev := range events {
				rd.add(jsonrpc.ServerToClient, rts, ev)
			}
			continue
		}
		rd.add(jsonrpc.ClientToServer, "", it["request"])
		rd.add(jsonrpc.ServerToClient, "", it["response"])
	}
	return nil
}

// vcr reads an agent-vcr recording: the session's initialize request and
// response, then its interactions, each a request sent in its "direction"
// at its "timestamp", the notifications sent the other way while it was
// open, and the response, latency_ms later.
func (rd *reader) vcr(doc json.RawMessage) error {
	v, ok := object(doc)
	if !ok {
		return rd.fail("", "want a JSON object")
	}
	s, ok := object(v["session"])
	if !ok {
		return rd.fail("/session", "want an object with the recorded session")
	}
	rd.add(jsonrpc.ClientToServer, "", s["initialize_request"])
	rd.add(jsonrpc.ServerToClient, "", s["initialize_response"])
	list, ok := array(s["interactions"])
	if !ok && has(s, "interactions") {
		return rd.fail("/session/interactions", "want an array of interactions")
	}
	for i, raw := range list {
		ptr := "/session/interactions/" + strconv.Itoa(i)
		it, ok := object(raw)
		if !ok {
			rd.warn(ptr, "an interaction that is not an object: skipped")
			continue
		}
		dir := jsonrpc.ClientToServer
		if str(it["direction"]) == "server_to_client" {
			dir = jsonrpc.ServerToClient
		}
		ts := str(it["timestamp"])
		rd.add(dir, ts, it["request"])
		notes, _ := array(it["notifications"])
		for _, n := range notes {
			rd.add(dir.Opposite(), ts, n)
		}
		rts := after(ts, it["latency_ms"])
		if rts == "" {
			rts = ts
		}
		rd.add(dir.Opposite(), rts, it["response"])
	}
	return nil
}
