package stats

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// pairingReport is the report of testdata/pairing.jsonl with a timeline.
func pairingReport(t *testing.T) *Report {
	r := NewReport()
	r.Add(readLogFile(t, filepath.Join("testdata", "pairing.jsonl"), Options{Timeline: 100}))
	return r
}

// TestHTMLSelfContained: the page needs nothing from elsewhere.
func TestHTMLSelfContained(t *testing.T) {
	var b bytes.Buffer
	if err := pairingReport(t).WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := strings.ReplaceAll(b.String(), `xmlns="http://www.w3.org/2000/svg"`, "")
	for _, bad := range []string{"<script", "<link", "<img", "<iframe", "@import", "url(http", "src=", "http://", "https://"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
}

// TestHTMLInChromium loads the report of testdata/pairing.jsonl in headless
// Chromium and checks that the rendered charts hold the figures counted by
// hand in TestPairingLog; it keeps a screenshot in testdata/artifacts.
func TestHTMLInChromium(t *testing.T) {
	chromium := "/usr/bin/chromium"
	if _, err := os.Stat(chromium); err != nil {
		requireTool(t, "chromium is not installed: %v", err)
	}
	var page bytes.Buffer
	if err := pairingReport(t).WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page.Bytes())
	}))
	defer srv.Close()

	// The deadline only ends a browser that hangs, not a slow machine.
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	run := func(extra ...string) []byte {
		args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--user-data-dir=" + t.TempDir()}, extra...)
		cmd := exec.CommandContext(ctx, chromium, append(args, srv.URL)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("chromium %v: %v\n%s", extra, err, stderr.String())
		}
		return out
	}
	dom := string(run("--dump-dom"))
	if !strings.Contains(dom, "<h1>jrpcld stats</h1>") || strings.Count(dom, "<svg") != 3 {
		t.Fatalf("the page did not render: %d bytes of DOM, %d svg", len(dom), strings.Count(dom, "<svg"))
	}
	group := func(class, method string) string {
		re := regexp.MustCompile(`<g class="` + class + `" data-method="` + regexp.QuoteMeta(method) + `">(.*?)</g>`)
		m := re.FindStringSubmatch(dom)
		if m == nil {
			t.Errorf("no %s chart entry for %s", class, method)
			return ""
		}
		return regexp.MustCompile(`<[^>]*>`).ReplaceAllString(m[1], " ")
	}
	tests := []struct{ class, method, want string }{
		{"latency", "tools/call", "count 3, p50 30 ms, p90 40 ms, p99 40 ms, max 40 ms"},
		{"latency", "a", "count 2, p50 20 ms, p90 50 ms, p99 50 ms, max 50 ms"},
		{"latency", "initialize", "count 1, p50 100 ms"},
		{"error", "b", "code -32601: 1"},
		{"error", "tools/call", "code -32602: 1"},
		{"error", "(no request)", "code -32700: 1"},
		{"error", "tools/call t1", "isError: 1"},
	}
	for _, tt := range tests {
		if got := group(tt.class, tt.method); !strings.Contains(got, tt.want) {
			t.Errorf("%s chart, %s: %q, want %q", tt.class, tt.method, got, tt.want)
		}
	}
	if strings.Contains(dom, `data-method="ping"`) {
		t.Errorf("ping has no timed response but is in the latency chart")
	}
	// The timeline: one arrow per message, scrollable.
	if n := strings.Count(dom, `<g class="message">`); n != 27 {
		t.Errorf("%d messages in the timeline, want 27", n)
	}
	for _, want := range []string{`class="timeline"`, "result (isError) to tools/call  id 20  (answers #13)", "#11  10:00:02.000", "batch of 3"} {
		if !strings.Contains(dom, want) {
			t.Errorf("timeline lacks %q", want)
		}
	}

	dir, err := filepath.Abs(filepath.Join("testdata", "artifacts"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "stats-report.png")
	os.Remove(shot)
	run("--screenshot="+shot, "--window-size=1200,1800", "--hide-scrollbars")
	if st, err := os.Stat(shot); err != nil || st.Size() < 10000 {
		t.Fatalf("screenshot %s: %v", shot, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "stats-report.html"), page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot of the report: %s (page: stats-report.html beside it)", shot)
}
