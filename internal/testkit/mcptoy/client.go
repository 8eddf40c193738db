package mcptoy

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// Exchange is one HTTP request of a Streamable HTTP client.
type Exchange struct {
	Method, URL, Body string
	Session           string // the Mcp-Session-Id to send; "" for none
	Version           string // the MCP-Protocol-Version to send; "" for none
}

// Send makes the request x as an MCP client does (a JSON body, accepting
// JSON and SSE) and returns the status, the response's session id and its
// body; a request that cannot be made ends the test.
func Send(t testing.TB, x Exchange) (code int, session, body string) {
	t.Helper()
	var rd io.Reader
	if x.Body != "" {
		rd = strings.NewReader(x.Body)
	}
	req, err := http.NewRequest(x.Method, x.URL, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	if x.Session != "" {
		req.Header.Set("Mcp-Session-Id", x.Session)
	}
	if x.Version != "" {
		req.Header.Set("MCP-Protocol-Version", x.Version)
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
