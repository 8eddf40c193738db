package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/serve"
)

func TestServe(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>the register</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	urls := make(chan string, 1)
	done := make(chan error, 1)
	var stdout, stderr strings.Builder
	go func() {
		done <- serve.Dir(&cli.Env{Stdout: &stdout, Stderr: &stderr}, dir, "127.0.0.1:0", stop, func(u string) { urls <- u })
	}()
	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatalf("serve ended: %v: %s", err, stderr.String())
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Errorf("URL %q", url)
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != "<p>the register</p>" {
		t.Errorf("GET %s: %d %q", url, resp.StatusCode, body)
	}
	close(stop)
	if err := <-done; err != nil {
		t.Errorf("serve ended: %v: %s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "Serving "+dir+" at "+url+" (Ctrl-C stops)") {
		t.Errorf("stdout %q", stdout.String())
	}
}

func TestServeUsage(t *testing.T) {
	tests := []struct {
		args []string
		err  string
	}{
		{[]string{"serve", filepath.Join(t.TempDir(), "nope")}, "is not a folder"},
		{[]string{"serve", "a", "b"}, "one DIR at most"},
		{[]string{"serve", t.TempDir(), "--addr", "256.0.0.1:x"}, "jrpcld serve:"},
	}
	for _, tt := range tests {
		code, _, errOut := jrpcld(t, "", tt.args...)
		if code != cli.ExitUsage || !strings.Contains(errOut, tt.err) {
			t.Errorf("%q: exit %d, stderr %q", tt.args, code, errOut)
		}
	}
}

// server is a serveDir running for a test.
type server struct {
	url            string
	stdout, stderr *strings.Builder
	stop           func() int // stops the server and returns its exit code
}

// startServe runs serveDir on dir and addr until the test stops it.
func startServe(t *testing.T, dir, addr string) *server {
	t.Helper()
	stop := make(chan struct{})
	urls := make(chan string, 1)
	done := make(chan int, 1)
	s := &server{stdout: &strings.Builder{}, stderr: &strings.Builder{}}
	e := &cli.Env{Stdout: s.stdout, Stderr: s.stderr}
	go func() {
		code := cli.ExitOK
		if err := serve.Dir(e, dir, addr, stop, func(u string) { urls <- u }); err != nil {
			cli.Errorf(e, "serve", "%v", err) // as jrpcld serve prints it
			code = cli.ExitUsage
		}
		done <- code
	}()
	select {
	case s.url = <-urls:
	case code := <-done:
		t.Fatalf("serve ended with %d: %s", code, s.stderr.String())
	}
	var once sync.Once
	code := 0
	s.stop = func() int {
		once.Do(func() { close(stop); code = <-done })
		return code
	}
	t.Cleanup(func() { s.stop() })
	return s
}

// request sends a request and returns the status, the Allow header and the body.
func request(t *testing.T, method, url string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Allow"), string(body)
}

// TestServeSymlinks: a symbolic link inside DIR that leads out of it (to a
// file, to a folder, to /etc) is answered 404 and left out of listings,
// whether the request names the link or a file below it; links that stay
// inside DIR are served and listed, a link to a folder as a folder.
func TestServeSymlinks(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	write(t, filepath.Join(outside, "secret.txt"), "secret")
	write(t, filepath.Join(dir, "index.html"), "<p>the register</p>")
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "sub", "page.html"), "<p>a page</p>")
	for link, to := range map[string]string{
		"etc":             "/etc",
		"secret.txt":      filepath.Join(outside, "secret.txt"),
		"outside":         outside,
		"inside.html":     "index.html",
		"insidedir":       "sub",
		"sub/up.html":     "../index.html",
		"sub/escape.txt":  "../../" + filepath.Base(outside) + "/secret.txt",
		"sub/outside":     outside,
		"sub/nowhere.txt": "no-such-file",
	} {
		if err := os.Symlink(to, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "sub", "escape.txt")); err != nil {
		t.Fatalf("the relative link out of DIR is broken: %v", err)
	}
	s := startServe(t, dir, "127.0.0.1:0")

	tests := []struct {
		path   string
		status int
		body   string // contained in the body
	}{
		{"etc/hostname", 404, ""},
		{"etc/passwd", 404, ""},
		{"etc/", 404, ""},
		{"secret.txt", 404, ""},
		{"outside/secret.txt", 404, ""},
		{"outside/", 404, ""},
		{"sub/escape.txt", 404, ""},
		{"sub/outside/secret.txt", 404, ""},
		{"sub/../secret.txt", 404, ""},
		{"inside.html", 200, "<p>the register</p>"},
		{"insidedir/page.html", 200, "<p>a page</p>"},
		{"sub/up.html", 200, "<p>the register</p>"},
		{"sub/page.html", 200, "<p>a page</p>"},
	}
	for _, tt := range tests {
		status, _, body := request(t, "GET", s.url+tt.path)
		if status != tt.status || !strings.Contains(body, tt.body) || strings.Contains(body, "secret") {
			t.Errorf("GET /%s: %d %q; want %d with %q", tt.path, status, body, tt.status, tt.body)
		}
	}

	// The listing of sub/ shows what is inside DIR, and nothing else.
	status, _, body := request(t, "GET", s.url+"sub/")
	if status != 200 {
		t.Fatalf("GET /sub/: %d", status)
	}
	for _, want := range []string{`href="page.html"`, `href="up.html"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the listing of /sub/ lacks %s:\n%s", want, body)
		}
	}
	for _, hidden := range []string{"escape.txt", "outside", "nowhere.txt"} {
		if strings.Contains(body, hidden) {
			t.Errorf("the listing of /sub/ shows %s:\n%s", hidden, body)
		}
	}
	// The root's listing, from a folder without index.html.
	os.Remove(filepath.Join(dir, "index.html"))
	status, _, body = request(t, "GET", s.url)
	if status != 200 {
		t.Fatalf("GET /: %d", status)
	}
	for _, want := range []string{`href="sub/"`, `href="insidedir/"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the listing of / lacks %s:\n%s", want, body)
		}
	}
	for _, hidden := range []string{"etc", "secret.txt", "outside", "inside.html"} {
		if strings.Contains(body, hidden) {
			t.Errorf("the listing of / shows %s:\n%s", hidden, body)
		}
	}
}

// TestServeMethods: GET and HEAD are answered; any other method gets 405
// Method Not Allowed with Allow: GET, HEAD, and changes nothing.
func TestServeMethods(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "index.html"), "<p>the register</p>")
	s := startServe(t, dir, "127.0.0.1:0")
	tests := []struct {
		method string
		status int
		allow  string
	}{
		{"GET", 200, ""},
		{"HEAD", 200, ""},
		{"POST", 405, "GET, HEAD"},
		{"PUT", 405, "GET, HEAD"},
		{"DELETE", 405, "GET, HEAD"},
		{"PATCH", 405, "GET, HEAD"},
		{"OPTIONS", 405, "GET, HEAD"},
	}
	for _, tt := range tests {
		status, allow, _ := request(t, tt.method, s.url+"index.html")
		if status != tt.status || allow != tt.allow {
			t.Errorf("%s: %d, Allow %q; want %d, %q", tt.method, status, allow, tt.status, tt.allow)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "index.html")); string(got) != "<p>the register</p>" {
		t.Errorf("index.html changed: %q", got)
	}
}

// TestServeAddr: the URL printed has the port actually bound; on a
// loopback address it keeps the host as given and nothing is warned; on an
// address open to the network the host is the one bound and a warning says
// the register is served to the network.
func TestServeAddr(t *testing.T) {
	const everywhere = "is not a loopback address: the register is served to the network, on every network interface"
	tests := []struct {
		addr    string
		host    string // of the URL; "*" for an unspecified address, :: or 0.0.0.0
		warning string // "" for none
	}{
		{"127.0.0.1:0", "127.0.0.1", ""},
		{"localhost:0", "localhost", ""},
		{"0.0.0.0:0", "0.0.0.0", everywhere},
		{":0", "*", everywhere},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "index.html"), "<p>the register</p>")
			s := startServe(t, dir, tt.addr)
			host, port, err := net.SplitHostPort(strings.TrimSuffix(strings.TrimPrefix(s.url, "http://"), "/"))
			if tt.host == "*" && net.ParseIP(host).IsUnspecified() {
				tt.host = host
			}
			if err != nil || host != tt.host || port == "0" || port == "" {
				t.Errorf("URL %q: host %q, port %q; want host %q and the bound port", s.url, host, port, tt.host)
			}
			if !strings.Contains(s.stdout.String(), "at "+s.url+" (Ctrl-C stops)") {
				t.Errorf("stdout %q", s.stdout.String())
			}
			if status, _, body := request(t, "GET", s.url); status != 200 || body != "<p>the register</p>" {
				t.Errorf("GET %s: %d %q", s.url, status, body)
			}
			s.stop()
			stderr := s.stderr.String()
			switch {
			case tt.warning == "" && stderr != "":
				t.Errorf("stderr %q, want nothing", stderr)
			case tt.warning != "":
				want := "jrpcld serve: warning: " + net.JoinHostPort(host, port) + " " + tt.warning
				if !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
					t.Errorf("stderr %q, want one line starting %q", stderr, want)
				}
			}
		})
	}
}

// TestServeHosts: the register is answered only under the names it is
// served at (localhost, 127.0.0.1, [::1], the --addr host, with or without
// a port): a request with any other Host header, as a web page reached
// through DNS rebinding sends, gets 403 and a body that says why, and
// none of the register.
func TestServeHosts(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "index.html"), "<p>the register</p>")
	s := startServe(t, dir, "127.0.0.1:0")
	_, port, _ := net.SplitHostPort(strings.TrimSuffix(strings.TrimPrefix(s.url, "http://"), "/"))
	tests := []struct {
		host string
		ok   bool
	}{
		{"127.0.0.1:" + port, true},
		{"127.0.0.1", true},
		{"localhost:" + port, true},
		{"localhost", true},
		{"LocalHost:" + port, true},
		{"localhost.:" + port, true},
		{"[::1]:" + port, true},
		{"[::1]", true},
		{"evil.example", false},
		{"evil.example:" + port, false},
		{"127.0.0.1.nip.io:" + port, false},
		{"localhost.evil.example:" + port, false},
		{"10.1.2.3:" + port, false},
		{"", false},
	}
	for _, tt := range tests {
		status, body := rawGet(t, s.url, tt.host)
		switch {
		case tt.ok && (status != 200 || body != "<p>the register</p>"):
			t.Errorf("Host %q: %d %q, want the register", tt.host, status, body)
		case !tt.ok && (status != http.StatusForbidden || strings.Contains(body, "register</p>") ||
			!strings.Contains(body, "is not a name this server answers to") || !strings.Contains(body, "--addr")):
			t.Errorf("Host %q: %d %q, want 403 saying why", tt.host, status, body)
		}
	}
}

// rawGet sends GET / to the server at url with the Host header host (none
// when ""), as HTTP/1.0, and returns the status and the body.
func rawGet(t *testing.T, url, host string) (int, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req := "GET / HTTP/1.0\r\n"
	if host != "" {
		req += "Host: " + host + "\r\n"
	}
	if _, err := io.WriteString(conn, req+"\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestBuildServeHosts: build --serve answers as serve does: the register
// under its own names, 403 under another.
func TestBuildServeHosts(t *testing.T) {
	if signal.Ignored(syscall.SIGINT) {
		t.Skip("SIGINT is ignored in this process, and so in the command it starts: it could not be stopped")
	}
	fixture := filepath.Join("..", "..", "register", "testdata", "fixture")
	cacheRegister(t, fixtureImport, map[string]string{"register.json": fixtureImportRegister})
	cmd := exec.Command(os.Args[0], "build", fixture, "--filter", "fx.labelled-point", "-o", t.TempDir(), "--serve", "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "JRPCLD_TEST_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stdout)
	url := ""
	for url == "" && lines.Scan() {
		if _, after, ok := strings.Cut(lines.Text(), " at http://"); ok {
			url = "http://" + strings.TrimSuffix(after, " (Ctrl-C stops)")
		}
	}
	if url == "" {
		cmd.Wait()
		t.Fatalf("build --serve printed no URL: %s", stderr.String())
	}
	go io.Copy(io.Discard, stdout)
	if status, body := rawGet(t, url, "evil.example"); status != http.StatusForbidden || !strings.Contains(body, "is not a name this server answers to") {
		t.Errorf("Host evil.example: %d %q", status, body)
	}
	if status, body := rawGet(t, url, strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")); status != 200 || !strings.Contains(body, "<html") {
		t.Errorf("Host of %s: %d %.80q", url, status, body)
	}
	cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err != nil {
		t.Errorf("build --serve, interrupted: %v: %s", err, stderr.String())
	}
}
