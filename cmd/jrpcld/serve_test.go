package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestServe(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>the register</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	urls := make(chan string, 1)
	done := make(chan int, 1)
	var stdout, stderr strings.Builder
	go func() {
		done <- serveDir(&env{stdout: &stdout, stderr: &stderr}, dir, "127.0.0.1:0", stop, func(u string) { urls <- u })
	}()
	var url string
	select {
	case url = <-urls:
	case code := <-done:
		t.Fatalf("serve ended with %d: %s", code, stderr.String())
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
	if code := <-done; code != exitOK {
		t.Errorf("exit %d: %s", code, stderr.String())
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
		if code != exitUsage || !strings.Contains(errOut, tt.err) {
			t.Errorf("%q: exit %d, stderr %q", tt.args, code, errOut)
		}
	}
}
