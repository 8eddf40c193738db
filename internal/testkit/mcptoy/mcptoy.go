// Package mcptoy is a toy MCP server for tests, over stdio (Main, run by a
// test binary as a helper process) and over Streamable HTTP (Handler). It
// answers initialize with the version the client asks for (or
// JRPCLD_TOY_VERSION), ping, tools/list and tools/call of "echo" (with a
// progress notification first), and a few methods that misbehave on
// purpose: "toy/exit" (exits with params.code), "toy/die" (kills itself),
// "toy/big" (a result of params.size bytes), "toy/partial" (a last line
// without a line break, of params.size bytes of data if given, then
// exits), "toy/banner" (a line that is not JSON), "toy/latin1" (a line of
// text, then the result, in Latin-1: not UTF-8). SIGTERM makes it say so
// in a notification and exit with status 3. Send is the client side of
// Streamable HTTP the tests talk to it (or to a proxy before it) with.
package mcptoy

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Env is the environment variable that makes a test binary run Main (see
// Command).
const Env = "JRPCLD_TOY_SERVER"

// message is what the toy reads of a message.
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// reply is one line the toy sends for a message: JSON values, or text
// (Raw) sent as it is.
type reply struct {
	Value any
	Raw   string
}

// answer returns the lines the toy sends for m, and what it does then:
// "" (go on), "exit N", "die" or "partial".
func answer(m message) ([]reply, string) {
	result := func(v any) []reply {
		return []reply{{Value: map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": v}}}
	}
	var p map[string]any
	json.Unmarshal(m.Params, &p)
	switch m.Method {
	case "initialize":
		v, _ := p["protocolVersion"].(string)
		if env := os.Getenv("JRPCLD_TOY_VERSION"); env != "" {
			v = env
		}
		return result(map[string]any{"protocolVersion": v, "capabilities": map[string]any{"tools": map[string]any{}},
			"serverInfo": map[string]any{"name": "jrpcld-toy", "version": "1.0.0"}}), ""
	case "ping":
		return result(map[string]any{}), ""
	case "tools/list":
		return result(map[string]any{"tools": []any{map[string]any{"name": "echo", "description": "Echoes its message",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"message": map[string]any{"type": "string"}}, "required": []any{"message"}}}}}), ""
	case "tools/call":
		args, _ := p["arguments"].(map[string]any)
		if name, _ := p["name"].(string); name != "echo" {
			return []reply{{Value: map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32602, "message": "Unknown tool: " + name}}}}, ""
		}
		out := []reply{{Value: map[string]any{"jsonrpc": "2.0", "method": "notifications/progress", "params": map[string]any{"progressToken": 1, "progress": 1, "total": 1}}}}
		return append(out, result(map[string]any{"content": []any{map[string]any{"type": "text", "text": fmt.Sprint("Echo: ", args["message"])}}})...), ""
	case "toy/exit":
		code, _ := p["code"].(float64)
		return nil, fmt.Sprintf("exit %d", int(code))
	case "toy/die":
		return nil, "die"
	case "toy/big":
		size, _ := p["size"].(float64)
		return result(map[string]any{"text": strings.Repeat("x", int(size))}), ""
	case "toy/partial":
		words := "last words"
		if size, _ := p["size"].(float64); size > 0 {
			words = strings.Repeat("x", int(size))
		}
		return []reply{{Raw: `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + words + `"}}`}}, "partial"
	case "toy/latin1":
		// "é" in Latin-1 is byte 0xe9, which is not UTF-8.
		return []reply{{Raw: "toy: caf\xe9 au lait"}, {Raw: `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"text":"caf` + "\xe9" + `"}}`}}, ""
	case "toy/banner":
		return append([]reply{{Raw: "toy server: this line is not JSON"}}, result(map[string]any{})...), ""
	}
	if len(m.ID) == 0 {
		return nil, "" // a notification
	}
	return []reply{{Value: map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "Method not found: " + m.Method}}}}, ""
}

// text returns the JSON text of a reply.
func (r reply) text() string {
	if r.Value == nil {
		return r.Raw
	}
	b, _ := json.Marshal(r.Value)
	return string(b)
}

// Main runs the toy over standard input and output until its input ends,
// then exits: a test binary calls it from TestMain when Env is set.
func Main() {
	fmt.Fprintln(os.Stderr, "toy: ready")
	out := bufio.NewWriter(os.Stdout)
	var mu sync.Mutex
	send := func(line string, newline bool) {
		mu.Lock()
		defer mu.Unlock()
		out.WriteString(line)
		if newline {
			out.WriteByte('\n')
		}
		out.Flush()
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM)
	go func() {
		<-sigs
		send(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"terminated"}}`, true)
		os.Exit(3)
	}()
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			var m message
			if json.Unmarshal(line, &m) != nil {
				send(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, true)
				continue
			}
			replies, then := answer(m)
			for _, r := range replies {
				send(r.text(), then != "partial")
			}
			switch {
			case then == "die":
				p, _ := os.FindProcess(os.Getpid())
				p.Signal(syscall.SIGKILL)
				time.Sleep(time.Minute)
			case then == "partial":
				os.Exit(0)
			case strings.HasPrefix(then, "exit "):
				var code int
				fmt.Sscan(strings.TrimPrefix(then, "exit "), &code)
				os.Exit(code)
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "toy: input closed")
			os.Exit(0)
		}
	}
}

// Handler returns the toy as a Streamable HTTP endpoint: a POST of a
// request is answered in JSON, except tools/call, answered by an SSE
// stream (a progress notification, a comment, then the result, with CRLF
// line ends); a POST of notifications or responses gets 202 Accepted; a GET
// opens an SSE stream that sends one notifications/message and ends; a
// DELETE ends the session. A request without the session id initialize
// gave is refused with 404 (but initialize itself).
func Handler() http.Handler {
	const session = "toy-session-1"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Session-Id") != session {
			var m message
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(strings.NewReader(string(body)))
			if json.Unmarshal(body, &m) != nil || m.Method != "initialize" {
				http.Error(w, "no session", http.StatusNotFound)
				return
			}
		}
		switch r.Method {
		case http.MethodGet:
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, ": stream opened\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\n")
			w.(http.Flusher).Flush()
			io.WriteString(w, "data: \"params\":{\"level\":\"info\",\"data\":\"from the GET stream\"}}\n\n")
			return
		case http.MethodDelete:
			w.WriteHeader(http.StatusOK)
			return
		case http.MethodPost:
		default:
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		var m message
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &m); err != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)
			return
		}
		if len(m.ID) == 0 || m.Method == "" {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		replies, _ := answer(m)
		if m.Method == "initialize" {
			w.Header().Set("Mcp-Session-Id", session)
		}
		if m.Method != "tools/call" {
			w.Header().Set("Content-Type", "application/json")
			for _, rp := range replies {
				io.WriteString(w, rp.text())
			}
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for i, rp := range replies {
			fmt.Fprintf(w, "id: %d\r\nevent: message\r\ndata: %s\r\n\r\n", i, rp.text())
			w.(http.Flusher).Flush()
			if i == 0 {
				io.WriteString(w, ": working\r\n\r\n")
			}
		}
	})
}
