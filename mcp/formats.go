package mcp

import (
	"cmp"
	"encoding/json"
	"mime"
	"strconv"
	"strings"

	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/mcp/record"
)

// inspector reads an MCP Inspector export: a JSON array whose entries are
// of its request history (a message, its response, who sent it, when, and
// how long the answer took; older versions keep request and response as
// JSON text with requestedAt and respondedAt) or of its network log (an
// HTTP exchange of the Streamable HTTP transport: the request body, the
// response's content type and body, JSON or a stream of server-sent
// events).
func (rd *reader) inspector(s *scanner) error {
	return rd.entries(s, "", "want a JSON array", rd.inspectorEntry)
}

// entries reads the array of a recording's entries at ptr, which is not
// one (want says what is wanted) when it does not begin with '[', and
// reads each with entry.
func (rd *reader) entries(s *scanner, ptr, want string, entry func(ptr string, raw json.RawMessage)) error {
	if ok, err := s.open('['); err != nil || !ok {
		return cmp.Or(err, rd.fail(ptr, "%s", want))
	}
	return s.array(func(i int) error {
		raw, err := s.value()
		if err == nil {
			entry(ptr+"/"+strconv.Itoa(i), raw)
		}
		return cmp.Or(err, rd.err)
	})
}

// member reads the recording's top object, which is not one (want says
// what is wanted) when it does not begin with '{', and the value of its
// member name with read; without that member, the recording is not one
// either (want names the member).
func (rd *reader) member(s *scanner, name, want string, read func() error) error {
	if ok, err := s.open('{'); err != nil || !ok {
		return cmp.Or(err, rd.fail("", "want a JSON object"))
	}
	found := false
	err := s.object(rd, "", func(n string) error {
		if n != name {
			_, err := s.value()
			return err
		}
		found = true
		return read()
	})
	if err == nil && !found {
		err = rd.fail("/"+name, "%s", want)
	}
	return err
}

// inspectorEntry reads one entry of an Inspector export.
func (rd *reader) inspectorEntry(ptr string, raw json.RawMessage) {
	e, ok := rd.object(ptr, raw)
	switch {
	case !ok:
		rd.warn(ptr, "an entry that is not an object: skipped")
	case has(e, "requestBody", "responseBody", "url"):
		rd.begin(ptr)
		rd.inspectorNetwork(ptr, e)
	case has(e, "message", "response") && !has(e, "request"):
		// The history: origin "server" marks what the server sent (its
		// requests and notifications); answers go the other way.
		dir := jsonrpc.ClientToServer
		switch origin := rd.text(ptr, e, "origin", "an origin (a string)"); origin {
		case "server":
			dir = jsonrpc.ServerToClient
		case "client", "":
		default:
			rd.warn(ptr+"/origin", "%q is neither client nor server: taken as client", origin)
		}
		ts := rd.time(ptr, e, "timestamp")
		rd.begin(ptr)
		if !has(e, "message") {
			rd.warn(ptr, "an entry with a response and no message: the response is imported alone")
		}
		rd.add(dir, ts, e["message"])
		rts := rd.after(ptr+"/duration", ts, e["duration"])
		if rts == "" {
			rts = ts
		}
		rd.add(dir.Opposite(), rts, e["response"])
	case has(e, "request"):
		ts := rd.time(ptr, e, "requestedAt")
		rd.begin(ptr)
		rd.add(jsonrpc.ClientToServer, ts, e["request"])
		rts := rd.time(ptr, e, "respondedAt")
		if rts == "" {
			rts = rd.after(ptr+"/durationMs", ts, e["durationMs"])
		}
		rd.add(jsonrpc.ServerToClient, rts, e["response"])
	default:
		rd.warn(ptr, "an entry with no message (no \"message\", \"request\" or \"requestBody\"): skipped")
	}
}

// time returns the time m's member name holds; "" with a warning when it is
// not a string.
func (rd *reader) time(ptr string, m map[string]json.RawMessage, name string) string {
	return rd.text(ptr, m, name, "a time (a string): the message is written without one")
}

// inspectorNetwork reads an entry of Inspector's network log.
func (rd *reader) inspectorNetwork(ptr string, e map[string]json.RawMessage) {
	ts := rd.time(ptr, e, "timestamp")
	if b := body(e, "requestBody"); strings.TrimSpace(b) != "" {
		rd.add(jsonrpc.ClientToServer, ts, json.RawMessage(strconv.Quote(b)))
	}
	b := body(e, "responseBody")
	if strings.TrimSpace(b) == "" {
		return
	}
	rts := rd.after(ptr+"/duration", ts, e["duration"])
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
	case mt == "text/event-stream" || mt == "" && isSSE(b):
		rd.events(ptr+"/responseBody", rts, b)
	case mt == "application/json" || strings.HasSuffix(mt, "+json") || mt == "" && json.Valid([]byte(b)):
		rd.add(jsonrpc.ServerToClient, rts, json.RawMessage(strconv.Quote(b)))
	default:
		rd.warn(ptr+"/responseBody", "a response of type %q, neither JSON nor server-sent events: skipped", mt)
	}
}

// events adds the messages of the stream of server-sent events body, sent
// by the server at ts.
func (rd *reader) events(ptr, ts, body string) {
	err := record.SSEMessages(strings.NewReader(body), func(data []byte) {
		rd.add(jsonrpc.ServerToClient, ts, json.RawMessage(strconv.Quote(string(data))))
	})
	if err != nil {
		rd.warn(ptr, "%v", err)
	}
}

// isSSE reports whether body, which is not JSON, reads as a stream of
// server-sent events: its first line that is not blank is a field of one
// (data, event, id or retry) or a comment.
func isSSE(body string) bool {
	if json.Valid([]byte(body)) {
		return false
	}
	line := strings.TrimLeft(strings.TrimPrefix(body, "\ufeff"), "\r\n")
	if i := strings.IndexAny(line, "\r\n"); i >= 0 {
		line = line[:i]
	}
	if strings.HasPrefix(line, ":") {
		return true
	}
	field, _, ok := strings.Cut(line, ":")
	return ok && (field == "data" || field == "event" || field == "id" || field == "retry")
}

// cassette reads an mcp-recorder cassette: "interactions", each a JSON-RPC
// request (or notification) of the client and the server's response (the
// first event of an SSE response); lifecycle interactions (a GET or DELETE)
// hold no message. Cassettes record no time of their own. Its older raw
// recordings, with request_body, response_body and response_sse_events,
// are read too.
func (rd *reader) cassette(s *scanner) error {
	const want = "want an array of interactions"
	return rd.member(s, "interactions", want, func() error {
		return rd.entries(s, "/interactions", want, rd.cassetteEntry)
	})
}

// cassetteEntry reads one interaction of a cassette.
func (rd *reader) cassetteEntry(ptr string, raw json.RawMessage) {
	it, ok := rd.object(ptr, raw)
	if !ok {
		rd.warn(ptr, "an interaction that is not an object: skipped")
		return
	}
	rd.begin(ptr)
	if has(it, "request_method", "request_body", "response_body") {
		ts := rd.time(ptr, it, "timestamp")
		rd.add(jsonrpc.ClientToServer, ts, it["request_body"])
		rts := rd.after(ptr+"/latency_ms", ts, it["latency_ms"])
		if b := str(it["response_body"]); isSSE(b) {
			rd.events(ptr+"/response_body", rts, b)
		} else {
			rd.add(jsonrpc.ServerToClient, rts, it["response_body"])
		}
		for _, ev := range rd.list(ptr, it, "response_sse_events") {
			rd.add(jsonrpc.ServerToClient, rts, ev)
		}
		return
	}
	rd.add(jsonrpc.ClientToServer, "", it["request"])
	rd.add(jsonrpc.ServerToClient, "", it["response"])
}

// vcr reads an agent-vcr recording: the session's initialize request and
// response, then its interactions, each a request sent in its "direction"
// at its "timestamp", the notifications sent the other way while it was
// open, and the response, latency_ms later.
func (rd *reader) vcr(s *scanner) error {
	const want = "want an object with the recorded session"
	return rd.member(s, "session", want, func() error {
		if ok, err := s.open('{'); err != nil || !ok {
			return cmp.Or(err, rd.fail("/session", want))
		}
		return rd.session(s)
	})
}

// session reads the members of an agent-vcr session, whose '{' was just
// read. The handshake is written first when the recording has it before
// the interactions, as agent-vcr writes it; after them, where it is, with
// a warning.
func (rd *reader) session(s *scanner) error {
	var req, resp json.RawMessage
	late := false // the interactions were read: the handshake would come after them
	handshake := func() {
		if req == nil && resp == nil {
			return
		}
		if late {
			rd.warn("/session", "the initialize handshake comes after the interactions in the recording: written after them")
		}
		rd.begin("/session")
		rd.add(jsonrpc.ClientToServer, "", req)
		rd.add(jsonrpc.ServerToClient, "", resp)
		req, resp = nil, nil
	}
	err := s.object(rd, "/session", func(name string) error {
		var err error
		switch name {
		case "initialize_request":
			req, err = s.value()
		case "initialize_response":
			resp, err = s.value()
		case "interactions":
			handshake()
			late = true
			c, err := s.peek()
			if err != nil || c == 'n' {
				_, err = s.value() // null: none
				return err
			}
			return rd.entries(s, "/session/interactions", "want an array of interactions", rd.vcrEntry)
		default:
			_, err = s.value()
		}
		return err
	})
	handshake()
	return err
}

// vcrEntry reads one interaction of an agent-vcr session.
func (rd *reader) vcrEntry(ptr string, raw json.RawMessage) {
	it, ok := rd.object(ptr, raw)
	if !ok {
		rd.warn(ptr, "an interaction that is not an object: skipped")
		return
	}
	dir := jsonrpc.ClientToServer
	switch d := rd.text(ptr, it, "direction", "a direction (a string)"); d {
	case "server_to_client":
		dir = jsonrpc.ServerToClient
	case "client_to_server", "":
	default:
		rd.warn(ptr+"/direction", "%q is neither client_to_server nor server_to_client: taken as client_to_server", d)
	}
	ts := rd.time(ptr, it, "timestamp")
	rd.begin(ptr)
	rd.add(dir, ts, it["request"])
	for _, n := range rd.list(ptr, it, "notifications") {
		rd.add(dir.Opposite(), ts, n)
	}
	rts := rd.after(ptr+"/latency_ms", ts, it["latency_ms"])
	if rts == "" {
		rts = ts
	}
	rd.add(dir.Opposite(), rts, it["response"])
}
