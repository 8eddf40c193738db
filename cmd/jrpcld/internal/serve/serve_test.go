package serve

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServedHost: the names a server answers to, for the addresses it may
// listen on: on an address open to the network, any IP address (the
// machine's, as the network reaches it) too, and a name only when --addr
// gives it.
func TestServedHost(t *testing.T) {
	tests := []struct {
		addr, bound, host string
		ok                bool
	}{
		{"localhost:8000", "127.0.0.1", "localhost:8000", true},
		{"localhost:8000", "127.0.0.1", "127.0.0.1:9000", true},
		{"localhost:8000", "::1", "[::1]", true},
		{"localhost:8000", "127.0.0.1", "192.168.1.5:8000", false},
		{"register.lan:8000", "192.168.1.9", "register.lan:8000", true},
		{"register.lan:8000", "192.168.1.9", "REGISTER.LAN.", true},
		{"register.lan:8000", "192.168.1.9", "192.168.1.9:8000", true},
		{"register.lan:8000", "192.168.1.9", "other.lan:8000", false},
		{"0.0.0.0:8000", "0.0.0.0", "192.168.1.5:8000", true},
		{"0.0.0.0:8000", "0.0.0.0", "[fe80::1]:8000", true},
		{"0.0.0.0:8000", "0.0.0.0", "evil.example:8000", false},
		{":8000", "::", "192.168.1.5", true},
		{"[::1]:8000", "::1", "[::1]:8000", true},
		{"[::1]:8000", "::1", "evil.example", false},
		{"127.0.0.1:8000", "127.0.0.1", "", false},
		{"127.0.0.1:8000", "127.0.0.1", "[::1", false},
	}
	for _, tt := range tests {
		if got := servedHost(tt.addr, net.ParseIP(tt.bound), tt.host); got != tt.ok {
			t.Errorf("--addr %s bound to %s, Host %q: %v, want %v", tt.addr, tt.bound, tt.host, got, tt.ok)
		}
	}
}

// TestPagesNames: over 127.0.0.1, a name that is no file is answered with
// the page NAME.html when there is one, as GitHub Pages answers it (a
// block's ID with its dots included); a file, a name ending in .html or /,
// and a folder with index.html are served as before; nothing else is
// found, and no page outside the folder, through .. or a link, is served.
func TestPagesNames(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "site")
	files := map[string]string{
		"index.html":                       "<p>the register</p>",
		"bblock/ogc.bbr.template.mcp.html": "<p>block mcp</p>",
		"bblock/plain":                     "a file without extension",
		"bblock/plain.html":                "<p>not for plain</p>",
		"bblock/twice.html.html":           "<p>never</p>",
		"docs/index.html":                  "<p>docs index</p>",
		"both/index.html":                  "<p>both index</p>",
		"both.html":                        "<p>both page</p>",
		"bblock/folder.html/index.html":    "<p>folder.html index</p>",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(top, "secret.html"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(top, "secret.html"), filepath.Join(dir, "bblock", "link.html")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	srv := httptest.NewServer(registerHandler(root))
	defer srv.Close()

	tests := []struct {
		method, path string
		status       int
		body         string // the whole body; "" with HEAD
		location     string // of a redirect
	}{
		{"GET", "/bblock/ogc.bbr.template.mcp", 200, "<p>block mcp</p>", ""},
		{"HEAD", "/bblock/ogc.bbr.template.mcp", 200, "", ""},
		{"GET", "/bblock/ogc.bbr.template.mcp.html", 200, "<p>block mcp</p>", ""},
		{"GET", "/bblock/plain", 200, "a file without extension", ""},
		{"GET", "/bblock/twice.html", 404, "404 page not found\n", ""},
		{"GET", "/bblock/nope", 404, "404 page not found\n", ""},
		{"GET", "/bblock/ogc.bbr.template.mcp/", 404, "404 page not found\n", ""},
		{"GET", "/index", 200, "<p>the register</p>", ""},
		{"GET", "/", 200, "<p>the register</p>", ""},
		{"GET", "/docs/", 200, "<p>docs index</p>", ""},
		{"GET", "/docs", 301, "", "docs/"},
		{"GET", "/both", 200, "<p>both page</p>", ""},
		{"GET", "/both/", 200, "<p>both index</p>", ""},
		{"GET", "/bblock/folder", 404, "404 page not found\n", ""},
		{"GET", "/bblock/link", 404, "404 page not found\n", ""},
		{"GET", "/../secret", 404, "404 page not found\n", ""},
		{"GET", "/bblock/../../secret", 404, "404 page not found\n", ""},
		{"GET", "/bblock/%2e%2e/%2e%2e/secret", 404, "404 page not found\n", ""},
	}
	for _, tt := range tests {
		status, header, body := rawRequest(t, srv.Listener.Addr().String(), tt.method, tt.path)
		if status != tt.status || body != tt.body && tt.status != 301 || header.Get("Location") != tt.location {
			t.Errorf("%s %s: %d %q, Location %q; want %d %q, Location %q",
				tt.method, tt.path, status, body, header.Get("Location"), tt.status, tt.body, tt.location)
		}
		if tt.status == 200 && tt.method == "GET" && strings.HasSuffix(tt.body, "</p>") &&
			header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Errorf("%s %s: Content-Type %q", tt.method, tt.path, header.Get("Content-Type"))
		}
	}
}

// rawRequest sends method and target as they are (no client cleans the
// path) to the server at addr and returns the status, headers and body.
func rawRequest(t *testing.T, addr, method, target string) (int, http.Header, string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", method, target)
	req := &http.Request{Method: method}
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	return resp.StatusCode, resp.Header, string(body)
}
