package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/mcptoy"
	"github.com/jrpcld/jrpcld/jsonrpc"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
)

// exchange is one HTTP request of a client.
type exchange struct {
	method, path, body string
}

// do sends x to base with the MCP session id sid, and returns the status,
// the response's session id and body.
func do(t *testing.T, base string, x exchange, sid string) (int, string, string) {
	t.Helper()
	return mcptoy.Send(t, mcptoy.Exchange{Method: x.method, URL: base + x.path, Body: x.body, Session: sid})
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
	// Every line names the session the server gave, the initialize
	// request that had none yet too.
	for i, s := range sessionsOf(t, logBuf.Bytes()) {
		if s != sidProxy {
			t.Errorf("log line %d: session %q, want %q", i+1, s, sidProxy)
		}
	}
	if len(warns) > 0 {
		t.Errorf("warnings: %q", warns)
	}
}

// sessionsOf returns the "session" of each line of a log.
func sessionsOf(t *testing.T, log []byte) []string {
	t.Helper()
	r, err := rpclog.NewReader(bytes.NewReader(log), "log", rpclog.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil || rec.Err != nil || len(rec.Problems) > 0 {
			t.Fatalf("log line %d: %v %v %v", rec.Line, err, rec.Err, rec.Problems)
		}
		out = append(out, rec.Session)
	}
}

// TestProxySessions: two sessions through the proxy at once, each with
// its own Mcp-Session-Id and ids from 0: each message is logged with the
// session its request or response names (the initialize request with the
// one its answer gives), and the DELETE that ends a session, answered with
// a body of text, is no warning.
func TestProxySessions(t *testing.T) {
	var mu sync.Mutex
	n := 0
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method == http.MethodDelete {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "session ended")
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(body, &m)
		if m.Method == "initialize" {
			mu.Lock()
			n++
			w.Header().Set(SessionHeader, "s"+strconv.Itoa(n))
			mu.Unlock()
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`, m.ID)
	}))
	defer upstream.Close()
	u, _ := url.Parse(upstream.URL + "/mcp")
	var logBuf bytes.Buffer
	var warns []string
	proxy := httptest.NewServer(&Proxy{Upstream: u, Log: NewLog(&logBuf), Warn: func(m string) { warns = append(warns, m) }})
	defer proxy.Close()

	const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`
	const ping = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	_, a, _ := do(t, proxy.URL, exchange{"POST", "/mcp", initialize}, "")
	_, b, _ := do(t, proxy.URL, exchange{"POST", "/mcp", initialize}, "")
	if a != "s1" || b != "s2" {
		t.Fatalf("sessions %q and %q, want s1 and s2", a, b)
	}
	do(t, proxy.URL, exchange{"POST", "/mcp", ping}, b)
	do(t, proxy.URL, exchange{"POST", "/mcp", ping}, a)
	if code, _, body := do(t, proxy.URL, exchange{"DELETE", "/mcp", ""}, a); code != 200 || body != "session ended" {
		t.Errorf("DELETE: %d %q", code, body)
	}
	want := []string{"s1", "s1", "s2", "s2", "s2", "s2", "s1", "s1"}
	if got := sessionsOf(t, logBuf.Bytes()); !reflect.DeepEqual(got, want) {
		t.Errorf("sessions %q, want %q\n%s", got, want, logBuf.String())
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

// TestProxySSEAsDelivered: the proxy logs the events of an SSE answer that
// a client following the HTML standard dispatches, and only those, while
// the client gets the upstream's bytes unchanged: a leading byte order
// mark is stripped (one only); an event the upstream's stream ends in,
// without the blank line that dispatches it (a whole line, or a cut one),
// is not a message the client saw.
func TestProxySSEAsDelivered(t *testing.T) {
	const a, b = `{"jsonrpc":"2.0","method":"a"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`
	for _, c := range []struct {
		name, body string
		want       []string // the messages logged, by hand
	}{
		{"byte order mark", "\xEF\xBB\xBFdata: " + a + "\n\n", []string{a}},
		{"byte order mark, CRLF", "\xEF\xBB\xBFevent: message\r\ndata: " + a + "\r\n\r\n", []string{a}},
		{"two byte order marks", "\xEF\xBB\xBF\xEF\xBB\xBFdata: " + a + "\n\ndata: " + b + "\n\n", []string{b}},
		{"cut data line", "data: " + a + "\n\ndata: " + b[:10], []string{a}},
		{"no blank line at the end", "data: " + a + "\n\ndata: " + b + "\n", []string{a}},
		{"no line end at the end", "data: " + a + "\n\ndata: " + b, []string{a}},
		{"CR ends the last line only", "data: " + a + "\r\rdata: " + b + "\r", []string{a}},
	} {
		t.Run(c.name, func(t *testing.T) {
			upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, c.body)
			}))
			defer upstream.Close()
			u, _ := url.Parse(upstream.URL + "/mcp")
			var logBuf bytes.Buffer
			proxy := httptest.NewServer(&Proxy{Upstream: u, Log: NewLog(&logBuf), Warn: func(string) {}})
			defer proxy.Close()
			req := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
			code, _, body := do(t, proxy.URL, exchange{"POST", "/mcp", req}, "")
			if code != 200 || body != c.body {
				t.Fatalf("the client got %d %q, want %q", code, body, c.body)
			}
			got := readLog(t, logBuf.Bytes())
			if len(got) != 1+len(c.want) {
				t.Fatalf("%d log lines, want %d:\n%s", len(got), 1+len(c.want), logBuf.String())
			}
			for i, w := range c.want {
				if g := got[1+i]; g.dir != jsonrpc.ServerToClient || !reflect.DeepEqual(g.msg, decode(t, w)) {
					t.Errorf("log line %d: %v %v, want s2c %s", 2+i, g.dir, g.msg, w)
				}
			}
		})
	}
}

// TestProxyLongMessages: with a small limit (Log.Max), a request body, a
// JSON response and an SSE event longer than it pass unchanged, byte for
// byte, and are logged cut, with their length, in order (a request before
// its response); shorter ones around them are logged whole.
func TestProxyLongMessages(t *testing.T) {
	const max = 4096
	pad := strings.Repeat("é", 10000)
	big := `{"jsonrpc":"2.0","id":1,"result":{"pad":"` + pad + `"}}`
	small := `{"jsonrpc":"2.0","method":"n"}`
	var mu sync.Mutex
	var received []string // the request bodies the upstream got
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		received = append(received, string(body))
		mu.Unlock()
		switch r.URL.Path {
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, big)
		case "/sse":
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: "+small+"\n\n")
			w.(http.Flusher).Flush()
			io.WriteString(w, "data: "+big[:5000])
			w.(http.Flusher).Flush()
			io.WriteString(w, big[5000:]+"\r\n\r\ndata: "+small+"\n\n")
		}
	}))
	defer upstream.Close()
	u, _ := url.Parse(upstream.URL + "/json")
	var logBuf bytes.Buffer
	log := NewLog(&logBuf)
	log.Max = max
	var warns []string
	log.Warn = func(m string) { mu.Lock(); warns = append(warns, m); mu.Unlock() }
	proxy := httptest.NewServer(&Proxy{Upstream: u, Log: log, Warn: func(m string) { t.Errorf("warning: %s", m) }})
	defer proxy.Close()

	bigReq := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"pad":"` + pad + `"}}`
	if code, _, body := do(t, proxy.URL, exchange{"POST", "/json", bigReq}, ""); code != 200 || body != big {
		t.Errorf("/json: %d, %d bytes", code, len(body))
	}
	wantSSE := "data: " + small + "\n\ndata: " + big + "\r\n\r\ndata: " + small + "\n\n"
	if code, _, body := do(t, proxy.URL, exchange{"POST", "/sse", small}, ""); code != 200 || body != wantSSE {
		t.Errorf("/sse: %d, %q", code, body)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(received) != 2 || received[0] != bigReq || received[1] != small {
		t.Errorf("the upstream got %d requests, not those sent", len(received))
	}
	// The log, by hand: the length of each message cut.
	want := []struct {
		dir jsonrpc.Direction
		msg string // a message logged whole
		cut int    // or the length of one cut
	}{
		{jsonrpc.ClientToServer, "", len(bigReq)},
		{jsonrpc.ServerToClient, "", len(big)},
		{jsonrpc.ClientToServer, small, 0},
		{jsonrpc.ServerToClient, small, 0},
		{jsonrpc.ServerToClient, "", len(big)},
		{jsonrpc.ServerToClient, small, 0},
	}
	r, _ := rpclog.NewReader(bytes.NewReader(logBuf.Bytes()), "log", rpclog.ReaderOptions{})
	for i := 0; ; i++ {
		rec, err := r.Next()
		if err == io.EOF {
			if i != len(want) {
				t.Errorf("%d log lines, want %d", i, len(want))
			}
			break
		}
		if err != nil || rec.Err != nil || i >= len(want) {
			t.Fatalf("log line %d: %v %v", i+1, err, rec.Err)
		}
		w := want[i]
		switch {
		case rec.Dir != w.dir:
			t.Errorf("log line %d: %v, want %v", i+1, rec.Dir, w.dir)
		case w.cut == 0 && (len(rec.Problems) > 0 || !reflect.DeepEqual(plain(t, rec.Value), decode(t, w.msg))):
			t.Errorf("log line %d: %s %v, want %s", i+1, rec.Raw, rec.Problems, w.msg)
		case w.cut > 0 && (len(rec.Problems) != 1 || !strings.Contains(rec.Problems[0].Message, "a message of "+strconv.Itoa(w.cut)+" bytes")):
			t.Errorf("log line %d: %s %v, want a message of %d bytes cut", i+1, rec.Raw, rec.Problems, w.cut)
		}
	}
	for i, l := range lines(logBuf.String()) {
		if len(l) > max {
			t.Errorf("log line %d: %d bytes, over the limit", i+1, len(l))
		}
	}
	if len(warns) != 3 {
		t.Errorf("warnings %q", warns)
	}
}

// TestProxyConcurrent: many clients at once, each sending requests
// answered in JSON or in SSE streams (a notification, then the response,
// in several pieces): every message delivered is logged exactly once, on a
// line of its own, each request before its response and each
// notification before the response after it in its stream.
func TestProxyConcurrent(t *testing.T) {
	const clients, each = 24, 8
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct {
			ID     int    `json:"id"`
			Method string `json:"method"`
		}
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		resp := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"echo":%q}}`, m.ID, strings.Repeat("r", m.ID%700))
		if m.Method == "json" {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, resp)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		f := w.(http.Flusher)
		fmt.Fprintf(w, ": hi\r\nid: %d-0\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\r\ndata: \"params\":{\"progressToken\":%d}}\r\n\r\n", m.ID, m.ID)
		f.Flush()
		io.WriteString(w, "data: "+resp[:len(resp)/2])
		f.Flush()
		io.WriteString(w, resp[len(resp)/2:]+"\n\n")
	}))
	defer upstream.Close()
	u, _ := url.Parse(upstream.URL + "/mcp")
	var logBuf bytes.Buffer
	proxy := httptest.NewServer(&Proxy{Upstream: u, Log: NewLog(&logBuf), Warn: func(m string) { t.Errorf("warning: %s", m) }})
	defer proxy.Close()

	var wg sync.WaitGroup
	errs := make(chan error, clients*each)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				id := c*100 + i
				method := []string{"json", "sse"}[(c+i)%2]
				req, _ := http.NewRequest("POST", proxy.URL+"/mcp", strings.NewReader(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q}`, id, method)))
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					errs <- err
					return
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || !strings.Contains(string(body), fmt.Sprintf(`"id":%d,"result"`, id)) {
					errs <- fmt.Errorf("request %d: %v %q", id, err, body)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	// Where each message is in the log.
	type key struct {
		dir  jsonrpc.Direction
		kind string // request, progress, response
		id   int
	}
	at := map[key][]int{}
	r, _ := rpclog.NewReader(bytes.NewReader(logBuf.Bytes()), "log", rpclog.ReaderOptions{})
	n := 0
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil || rec.Err != nil {
			t.Fatalf("log line %d: %v %v", n+1, err, rec.Err)
		}
		n++
		m, _ := plain(t, rec.Value).(map[string]any)
		k := key{dir: rec.Dir}
		switch {
		case m["method"] == "notifications/progress":
			k.kind = "progress"
			p, _ := m["params"].(map[string]any)
			id, _ := p["progressToken"].(float64)
			k.id = int(id)
		case m["method"] != nil:
			k.kind = "request"
			id, _ := m["id"].(float64)
			k.id = int(id)
		default:
			k.kind = "response"
			id, _ := m["id"].(float64)
			k.id = int(id)
		}
		at[k] = append(at[k], n)
	}
	if lines := strings.Count(logBuf.String(), "\n"); lines != n {
		t.Errorf("%d lines for %d messages", lines, n)
	}
	want := 0
	for c := range clients {
		for i := range each {
			id := c*100 + i
			req, resp := at[key{jsonrpc.ClientToServer, "request", id}], at[key{jsonrpc.ServerToClient, "response", id}]
			want += 2
			if len(req) != 1 || len(resp) != 1 || req[0] > resp[0] {
				t.Errorf("id %d: request on lines %v, response on lines %v", id, req, resp)
				continue
			}
			if (c+i)%2 == 1 {
				want++
				if p := at[key{jsonrpc.ServerToClient, "progress", id}]; len(p) != 1 || p[0] > resp[0] || p[0] < req[0] {
					t.Errorf("id %d: progress on lines %v, request %v, response %v", id, p, req, resp)
				}
			}
		}
	}
	if n != want {
		t.Errorf("%d messages logged, want %d", n, want)
	}
}
