// Package everything finds and starts the reference MCP server,
// @modelcontextprotocol/server-everything, for the tests that record its
// traffic (cmd/jrpcld's record tests) or run the official conformance
// suite against it (mcp/rules): one way to find it where .ci/run installs
// it, and one way to start its Streamable HTTP transport on a port of its
// own, so that the two do not drift apart. Without it a test is skipped,
// or fails when JRPCLD_SHARED is set, as in CI, where it must run.
package everything

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/internal/testkit/nodetest"
)

// Name is the server's program, as npm installs it in node_modules/.bin.
const Name = "mcp-server-everything"

// Dirs returns the folders the server is looked for in: NODE_PATH's, then
// the one .ci/run installs npm packages in (the user's cache folder).
func Dirs() []string {
	var dirs []string
	if p := os.Getenv("NODE_PATH"); p != "" {
		dirs = append(dirs, filepath.SplitList(p)...)
	}
	if cache, err := os.UserCacheDir(); err == nil {
		dirs = append(dirs, filepath.Join(cache, "jrpcld", "npm", "node_modules"))
	}
	return dirs
}

// Find returns the server's command, and false where it or node is not
// installed.
func Find() (string, bool) {
	if _, err := exec.LookPath("node"); err != nil {
		return "", false
	}
	for _, d := range Dirs() {
		p := filepath.Join(d, ".bin", Name)
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
	}
	return "", false
}

// Bin returns the server's command; it skips t without it, or fails it
// when JRPCLD_SHARED is set.
func Bin(t testing.TB) string {
	t.Helper()
	p, ok := Find()
	if !ok {
		nodetest.Require(t, "%s (or node) is not installed (in %q); .ci/run installs it", Name, Dirs())
	}
	return p
}

// tries is how many ports StartHTTP tries; wait how long it waits for the
// server on each.
const (
	tries = 5
	wait  = time.Minute
)

// StartHTTP starts the server's Streamable HTTP transport and returns its
// /mcp URL once the server itself answers there; the server is stopped
// when t ends. Its port is chosen free, but another process may take it
// before the server binds it (and the server listens on every address, so
// a listener on 127.0.0.1 alone would even win the connections): the
// server is known to be the one answering by its own line saying it
// listens on the port and an initialize answered with its serverInfo, and
// a port lost that way is tried again with another, up to 5 times.
func StartHTTP(t testing.TB) *url.URL {
	t.Helper()
	bin := Bin(t)
	var last string
	for range tries {
		port := freePort(t)
		ctx, cancel := context.WithCancel(context.Background())
		srv := exec.CommandContext(ctx, bin, "streamableHttp")
		srv.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
		out := &lockedBuffer{}
		srv.Stdout, srv.Stderr = out, out
		if err := srv.Start(); err != nil {
			cancel()
			t.Fatal(err)
		}
		stop := func() { cancel(); srv.Wait() }
		u := &url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", port), Path: "/mcp"}
		if answers(u, port, out) {
			t.Cleanup(stop)
			return u
		}
		stop()
		last = out.String()
	}
	t.Fatalf("the reference server does not answer on a port of its own after %d tries; its last output:\n%s", tries, last)
	return nil
}

// freePort returns a TCP port of 127.0.0.1 nobody listens on now.
func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// answers waits for the server's line saying it listens on port, then
// asks u to initialize and reports whether the answer is the server's.
func answers(u *url.URL, port int, out *lockedBuffer) bool {
	line := fmt.Sprintf("listening on port %d", port)
	for deadline := time.Now().Add(wait); !strings.Contains(out.String(), line); time.Sleep(100 * time.Millisecond) {
		if strings.Contains(out.String(), "already in use") || time.Now().After(deadline) {
			return false
		}
	}
	req, err := http.NewRequest("POST", u.String(), strings.NewReader(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}`))
	if err != nil {
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode == http.StatusOK && strings.Contains(string(body), "serverInfo")
}

// lockedBuffer is a bytes.Buffer the server writes to while StartHTTP
// reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
