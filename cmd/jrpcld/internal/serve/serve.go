// Package serve is "jrpcld serve": a built register's pages on a local
// HTTP server, guarded against DNS rebinding and links out of the folder.
// "jrpcld build --serve" serves with it too.
package serve

import (
	"context"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"

	"github.com/jrpcld/jrpcld/internal/termsafe"
	"github.com/spf13/pflag"
)

// DefaultAddr is where serve and build --serve listen by default.
const DefaultAddr = "localhost:8000"

// NewCmd returns the command "jrpcld serve".
func NewCmd() cli.Command {
	c := cli.Command{Name: "serve", Args: "[DIR] [--addr HOST:PORT]",
		Summary: "serve a built register's HTML pages on localhost"}
	c.Help = serveHelp
	c.Setup = runServe
	return c
}

const serveHelp = `
Serves the folder DIR (default build-local, where "jrpcld build" writes) over
HTTP on localhost, so that its pages (index.html, bblock/ID.html) and files
can be browsed. It prints the URL and serves until interrupted (Ctrl-C).
As GitHub Pages does, a request for a name that is no file (bblock/ID, the
viewer's link to a block's page) is answered with the page of that name
and .html (bblock/ID.html) when there is one; a name that is a file, or
ends in .html or /, is served as it is.

Only what is inside DIR is served: a symbolic link that leads out of DIR is
neither served (404) nor listed. Only GET and HEAD are answered (405 for the
other methods), and only under the names the server has: localhost,
127.0.0.1, [::1], the host --addr gives (and any IP address when it
listens on the network); a request naming another host, as a web page
that makes its name resolve to this machine (DNS rebinding) sends, gets
403. With --addr on an address that is not loopback (0.0.0.0:8000,
:8000, a network interface's address), the address actually bound is printed
with a warning: the register is then served to the network.
Exit status: 0 when stopped, 2 when DIR or the address cannot be used.`

// serveOptions are the flags of serve.
type serveOptions struct {
	addr string
}

func runServe(c *cli.Command, fs *pflag.FlagSet) cli.Runner {
	o := &serveOptions{}
	fs.StringVar(&o.addr, "addr", DefaultAddr, "listen on `HOST:PORT` (port 0 picks a free one)")
	return func(e *cli.Env, pos []string) error {
		dir := "build-local"
		switch len(pos) {
		case 0:
		case 1:
			dir = pos[0]
		default:
			return cli.Failf("one DIR at most, got %d arguments", len(pos))
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return cli.Failf("%s is not a folder; build one with \"jrpcld build SOURCES -o %s\"", dir, dir)
		}
		if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
			cli.Errorf(e, "serve", "warning: %s has no index.html; is it a built register?", dir)
		}
		if err := Dir(e, dir, o.addr, nil, nil); err != nil {
			return cli.Fail(err)
		}
		return nil
	}
}

// Dir serves the files of dir on addr until an interrupt arrives or
// stop is closed. ready, when set, receives the URL once the server listens.
// It returns why the register could not be served, or nil once stopped.
func Dir(e *cli.Env, dir, addr string, stop <-chan struct{}, ready func(url string)) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	ln, err := net.Listen(cli.Network(addr), addr)
	if err != nil {
		return err
	}
	bound := ln.Addr().(*net.TCPAddr)
	port := strconv.Itoa(bound.Port)
	var url string
	if bound.IP.IsLoopback() {
		host, _, _ := net.SplitHostPort(addr)
		if host == "" {
			host = bound.IP.String()
		}
		url = "http://" + net.JoinHostPort(host, port) + "/"
	} else {
		url = "http://" + net.JoinHostPort(bound.IP.String(), port) + "/"
		where := "on every network interface"
		if !bound.IP.IsUnspecified() {
			where = "on " + bound.IP.String()
		}
		cli.Errorf(e, "serve", "warning: %s is not a loopback address: the register is served to the network, %s; use --addr localhost:%s to keep it on this machine", bound, where, port)
	}
	srv := &http.Server{Handler: hostGuard(addr, bound.IP, url, registerHandler(root)), ReadHeaderTimeout: 10 * time.Second}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	fmt.Fprintf(e.Stdout, "Serving %s at %s (Ctrl-C stops)\n", termsafe.Escape(dir), url)
	if ready != nil {
		ready(url)
	}
	select {
	case <-sigs:
	case <-stop:
	case err := <-done:
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Shutdown(ctx)
	return nil
}

// hostGuard answers 403 Forbidden to a request whose Host header is not a
// name the server at addr (bound to the IP address bound) answers to, and
// passes the others to next. A web page that makes its own name resolve to
// 127.0.0.1 (DNS rebinding) could otherwise read the register from the
// browser of whoever runs serve; its requests carry its own name as Host.
func hostGuard(addr string, bound net.IP, url string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !servedHost(addr, bound, r.Host) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprintf(w, "403 forbidden: %q is not a name this server answers to, which keeps web pages "+
				"of other sites (reached through DNS rebinding) from reading it; open %s, or serve "+
				"under that name with --addr NAME:PORT\n", r.Host, url)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// servedHost reports whether host, a request's Host header (a name or an
// IP address, with or without a port), names the server at addr bound to
// the IP address bound: localhost, a loopback address, the host --addr
// gives, and, when bound is open to the network, any IP address (which no
// rebinding can name).
func servedHost(addr string, bound net.IP, host string) bool {
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	} else if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		name = host[1 : len(host)-1]
	}
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	if ip := net.ParseIP(name); ip != nil {
		return ip.IsLoopback() || ip.Equal(bound) || !bound.IsLoopback()
	}
	given, _, _ := net.SplitHostPort(addr)
	given = strings.TrimSuffix(strings.ToLower(given), ".")
	return name != "" && (name == "localhost" || name == given)
}

// registerHandler serves the files of root to GET and HEAD requests, and
// answers 405 Method Not Allowed to the others. A request for NAME that is
// no file is answered with NAME.html when root has that page (see
// pageFor), as GitHub Pages answers it.
func registerHandler(root *os.Root) http.Handler {
	fsys := rootFS{root}
	files := http.FileServer(fsys)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if page, info := pageFor(fsys, r.URL.Path); page != nil {
			defer page.Close()
			http.ServeContent(w, r, info.Name(), info.ModTime(), page)
			return
		}
		files.ServeHTTP(w, r)
	})
}

// pageFor returns the page NAME.html of fsys, opened, and its information,
// when upath, a request's path, names NAME: a path that does not end in "/"
// or ".html" and names no file (nothing, or a folder), as GitHub Pages
// serves a page under the name without ".html". The pages of a built
// register link a block's page as bblock/ID (the viewer's links), and a
// block's ID has dots, so that a dot in the last segment does not stop it.
// A page below a name that is also a folder wins over the folder's
// index.html, as register's link checker counts it. It returns nil when
// there is no such page; fsys confines the page to its root.
func pageFor(fsys rootFS, upath string) (http.File, fs.FileInfo) {
	if upath == "" || strings.HasSuffix(upath, "/") {
		return nil, nil
	}
	name := path.Clean("/" + upath)
	if name == "/" || strings.HasSuffix(name, ".html") {
		return nil, nil
	}
	if f, err := fsys.Open(name); err == nil {
		info, err := f.Stat()
		f.Close()
		if err == nil && !info.IsDir() {
			return nil, nil // NAME is a file: served as it is
		}
	}
	page, err := fsys.Open(name + ".html")
	if err != nil {
		return nil, nil
	}
	info, err := page.Stat()
	if err != nil || !info.Mode().IsRegular() {
		page.Close()
		return nil, nil
	}
	return page, info
}

// rootFS is an http.FileSystem of the files inside an os.Root: a symbolic
// link that leads out of the root (to /etc, say) cannot be opened, since
// os.Root refuses it whatever happens to the links meanwhile, and is left
// out of folder listings.
type rootFS struct{ root *os.Root }

// Open opens name, a slash-separated path from the root ("/bblock/x.html").
// A file that does not exist, or is outside the root, is fs.ErrNotExist,
// which http.FileServer answers with 404.
func (r rootFS) Open(name string) (http.File, error) {
	rel := strings.TrimPrefix(path.Clean("/"+name), "/")
	if rel == "" {
		rel = "."
	}
	f, err := r.root.Open(filepath.FromSlash(rel))
	if err != nil {
		return nil, fs.ErrNotExist
	}
	return rootFile{File: f, root: r.root, dir: rel}, nil
}

// rootFile is a file of a rootFS. Its Readdir leaves out the symbolic links
// that lead out of the root, or nowhere; a link inside the root is listed
// as what it leads to (a folder as a folder).
type rootFile struct {
	http.File // an *os.File; only the methods of http.File, not ReadDir
	root      *os.Root
	dir       string // the file's path from the root
}

// Readdir returns the entries of the folder as os.File.Readdir does, less
// the links that cannot be followed inside the root.
func (f rootFile) Readdir(count int) ([]fs.FileInfo, error) {
	var out []fs.FileInfo
	for {
		infos, err := f.File.Readdir(count)
		for _, info := range infos {
			if info.Mode()&fs.ModeSymlink != 0 {
				to, err := f.root.Stat(filepath.Join(filepath.FromSlash(f.dir), info.Name()))
				if err != nil {
					continue // leads out of the root, or nowhere
				}
				info = to
			}
			out = append(out, info)
		}
		if count <= 0 || len(out) > 0 || err != nil {
			return out, err
		}
		// Every entry of this batch was left out: read the next one, so
		// that an empty result means the end of the folder.
	}
}
