package record

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/jrpcld/jrpcld/internal/mcptoy"
	"github.com/jrpcld/jrpcld/jsonrpc"
)

// exchange is one HTTP request of a client.
type exchange struct {
	method, path, body string
}

// do sends x to base with the MCP session id sid, and returns the status,
// the response's session id and body.
func do(t *testing.T, base string, x exchange, sid string) (int, string, string) {
	t.Helper()
	var body io.Reader
	if x.body != "" {
		body = strings.NewReader(x.body)
	}
	req, err := http.NewRequest(x.method, base+x.path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), string(data)
}

// TestProxy: a session through the proxy gets from the server exactly what
// it gets without it, and the log holds each message: request bodies,
// JSON responses, the events of SSE responses to a POST (CRLF lines,
// comments and ids around them) and of the stream a GET opens (data on two
// lines, sent in two pieces); a 202 and a DELETE add nothing.
func TestProxy(t *testing.T) {
	upstream := httptest.NewServer(mcptoy.Handler())
	defer upstream.Close()
	var logBuf bytes.Buffer
	u, _ := url.Parse(upstream.URL + "/mcp")
	var warns []string
	p := &Proxy{Upstream: u, Log: NewLog(&logBuf), Warn: func(m string) { warns = append(warns, m) }}
	proxy := httptest.NewServer(p)
	defer proxy.Close()

	session := []exchange{
		{"POST", "/mcp", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`},
		{"POST", "/mcp", `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{"POST", "/mcp", "{\n  \"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\",\n  \"params\": {\"name\": \"echo\", \"arguments\": {\"message\": \"hi\"}}\n}"},
		{"GET", "/mcp", ""},
		{"DELETE", "/mcp", ""},
	}
	var sidUp, sidProxy string
	for i, x := range session {
		codeUp, s1, direct := do(t, upstream.URL, x, sidUp)
		codeProxy, s2, proxied := do(t, proxy.URL, x, sidProxy)
		if i == 0 {
			sidUp, sidProxy = s1, s2
		}
		if codeUp != codeProxy || direct != proxied || s1 != s2 {
			t.Errorf("%s %s: through the proxy %d %q %q, directly %d %q %q", x.method, x.path, codeProxy, s2, proxied, codeUp, s1, direct)
		}
	}
	if sidProxy == "" {
		t.Fatal("no session id came through")
	}
	want := []struct {
		dir jsonrpc.Direction
		msg string
	}{
		{jsonrpc.ClientToServer, session[0].body},
		{jsonrpc.ServerToClient, `{"id":0,"jsonrpc":"2.0","result":{"capabilities":{"tools":{}},"protocolVersion":"2025-11-25","serverInfo":{"name":"jrpcld-toy","version":"1.0.0"}}}`},
		{jsonrpc.ClientToServer, session[1].body},
		{jsonrpc.ClientToServer, session[2].body},
		{jsonrpc.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"progressToken":1,"total":1}}`},
		{jsonrpc.ServerToClient, `{"id":1,"jsonrpc":"2.0","result":{"content":[{"text":"Echo: hi","type":"text"}]}}`},
		{jsonrpc.ServerToClient, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"from the GET stream"}}`},
	}
	got := readLog(t, logBuf.Bytes())
	if len(got) != len(want) {
		t.Fatalf("%d log lines, want %d:\n%s", len(got), len(want), logBuf.String())
	}
	for i, w := range want {
		if got[i].dir != w.dir || !reflect.DeepEqual(got[i].msg, decode(t, w.msg)) {
			t.Errorf("log line %d: %v %v, want %v %s", i+1, got[i].dir, got[i].msg, w.dir, w.msg)
		}
	}
	if strings.Count(logBuf.String(), "\n") != len(want) {
		t.Errorf("a log entry spans several lines:\n%s", logBuf.String())
	}
	if len(warns) > 0 {
		t.Errorf("warnings: %q", warns)
	}
}

// TestProxyPaths: "/" and the upstream's path go to the upstream URL, with
// the query; other paths go to the upstream's host; a response that is
// neither JSON nor SSE passes unrecorded, with a warning; an upstream that
// does not answer is a 502 and a warning.
func TestProxyPaths(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.RequestURI())
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<p>not here</p>")
	}))
	defer upstream.Close()
	u, _ := url.Parse(upstream.URL + "/v1/mcp?key=k")
	var logBuf bytes.Buffer
	var warns []string
	proxy := httptest.NewServer(&Proxy{Upstream: u, Log: NewLog(&logBuf), Warn: func(m string) { warns = append(warns, m) }})
	defer proxy.Close()
	for _, path := range []string{"/", "/v1/mcp", "/?x=1", "/.well-known/oauth-protected-resource"} {
		if code, _, body := do(t, proxy.URL, exchange{"GET", path, ""}, ""); code != 200 || body != "<p>not here</p>" {
			t.Errorf("GET %s: %d %q", path, code, body)
		}
	}
	want := []string{"/v1/mcp?key=k", "/v1/mcp?key=k", "/v1/mcp?key=k&x=1", "/.well-known/oauth-protected-resource?key=k"}
	if !reflect.DeepEqual(seen, want) {
		t.Errorf("upstream saw %q, want %q", seen, want)
	}
	if logBuf.Len() != 0 || len(warns) != 4 || !strings.Contains(warns[0], `"text/html"`) {
		t.Errorf("log %q, warnings %q", logBuf.String(), warns)
	}

	upstream.Close()
	warns = nil
	if code, _, _ := do(t, proxy.URL, exchange{"POST", "/", `{"jsonrpc":"2.0","id":1,"method":"ping"}`}, ""); code != http.StatusBadGateway {
		t.Errorf("a closed upstream: %d, want 502", code)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "upstream") {
		t.Errorf("warnings %q", warns)
	}
	if got := readLog(t, logBuf.Bytes()); len(got) != 1 || got[0].dir != jsonrpc.ClientToServer {
		t.Errorf("the request to a closed upstream is not logged: %s", logBuf.String())
	}
}

// TestSSEParser: events in pieces of any size, every line end, comments,
// other fields and types, multi-line data and a last event without a blank
// line.
func TestSSEParser(t *testing.T) {
	stream := ": hi\r\nretry: 10\r\nid: 1\r\ndata: {\"a\":\r\ndata:1}\r\n\r\nevent: endpoint\ndata: /messages?s=1\n\nevent: message\rdata: [1]\r\revent: message\ndata:2\n\ndata: 3"
	want := []string{"{\"a\":\n1}", "[1]", "2", "3"}
	for _, size := range []int{1, 2, 3, 7, len(stream)} {
		var got []string
		p := &sseParser{emit: func(d []byte) { got = append(got, string(d)) }}
		for i := 0; i < len(stream); i += size {
			p.Write([]byte(stream[i:min(i+size, len(stream))]))
		}
		p.Close()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("pieces of %d: %q, want %q", size, got, want)
		}
	}
}
