package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/jrpcld/jrpcld/internal/termsafe"
)

// defaultAddr is where serve and build --serve listen by default.
const defaultAddr = "localhost:8000"

func serveCommand() command {
	c := command{name: "serve", args: "[DIR] [--addr HOST:PORT]",
		summary: "serve a built register's HTML pages on localhost"}
	c.run = func(e *env, args []string) int { return runServe(e, &c, args) }
	return c
}

const serveHelp = `
Serves the folder DIR (default build-local, where "jrpcld build" writes) over
HTTP on localhost, so that its pages (index.html, bblock/ID.html) and files
can be browsed. It prints the URL and serves until interrupted (Ctrl-C).
Exit status: 0 when stopped, 2 when DIR or the address cannot be used.`

func runServe(e *env, c *command, args []string) int {
	fs := newFlags(e, c, serveHelp)
	addr := fs.String("addr", defaultAddr, "listen on `HOST:PORT` (port 0 picks a free one)")
	pos, code, ok := parse(fs, args)
	if !ok {
		return code
	}
	dir := "build-local"
	switch len(pos) {
	case 0:
	case 1:
		dir = pos[0]
	default:
		errorf(e, "serve", "one DIR at most, got %d arguments", len(pos))
		return exitUsage
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		errorf(e, "serve", "%s is not a folder; build one with \"jrpcld build SOURCES -o %s\"", dir, dir)
		return exitUsage
	}
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		errorf(e, "serve", "warning: %s has no index.html; is it a built register?", dir)
	}
	return serveDir(e, dir, *addr, nil, nil)
}

// serveDir serves the files of dir on addr until an interrupt arrives or
// stop is closed. ready, when set, receives the URL once the server listens.
func serveDir(e *env, dir, addr string, stop <-chan struct{}, ready func(url string)) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		errorf(e, "serve", "%v", err)
		return exitUsage
	}
	host, _, _ := net.SplitHostPort(addr)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	url := "http://" + net.JoinHostPort(host, port) + "/"
	srv := &http.Server{Handler: http.FileServer(http.Dir(dir)), ReadHeaderTimeout: 10 * time.Second}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	fmt.Fprintf(e.stdout, "Serving %s at %s (Ctrl-C stops)\n", termsafe.Escape(dir), url)
	if ready != nil {
		ready(url)
	}
	select {
	case <-sigs:
	case <-stop:
	case err := <-done:
		errorf(e, "serve", "%v", err)
		return exitUsage
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Shutdown(ctx)
	return exitOK
}
