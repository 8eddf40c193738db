package stats

import (
	"bytes"
	"context"
	"fmt"
	"html"
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
	var page bytes.Buffer
	if err := pairingReport(t).WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page.Bytes())
	}))
	defer srv.Close()
	run := func(extra ...string) []byte { return chromium(t, srv.URL, extra...) }
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

// chromium loads url in headless Chromium with the extra flags and returns
// what it prints; it skips t where Chromium is not installed (fails, with
// JRPCLD_SHARED set).
func chromium(t *testing.T, url string, extra ...string) []byte {
	t.Helper()
	const bin = "/usr/bin/chromium"
	if _, err := os.Stat(bin); err != nil {
		requireTool(t, "chromium is not installed: %v", err)
	}
	// The deadline only ends a browser that hangs, not a slow machine.
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir()}, extra...)
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", extra, err, stderr.String())
	}
	return out
}

// wideLog is a log whose report has long names and figures: a long method
// answered with an error after 76 s, and two problems, one without a line
// of JSON.
const wideLog = `{"dir":"c2s","ts":"2026-01-01T10:00:00.000Z","msg":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}}
{"dir":"s2c","ts":"2026-01-01T10:01:16.208123Z","msg":{"jsonrpc":"2.0","id":1,"result":{}}}
{"dir":"c2s","ts":"2026-01-01T10:02:00.000Z","msg":{"jsonrpc":"2.0","id":2,"method":"notifications/resources/a-method-with-a-name-far-longer-than-most-are"}}
{"dir":"s2c","ts":"2026-01-01T10:02:00.001Z","msg":{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"no"}}}
{"dir":"c2s","ts":"2026-01-01T10:03:00.000Z","msg":{"jsonrpc":"1.0","id":3,"method":"ping"}}
not json
`

// fitScript, in a page of iframes of the report, lists what does not fit
// each iframe's width: the page scrolling sideways, a chart or box ending
// past the window, a chart's text outside its drawing; then the rows of
// each iframe's problem tables.
const fitScript = `onload = () => {
  const out = [];
  for (const f of document.querySelectorAll("iframe")) {
    const d = f.contentDocument, de = d.documentElement, w = f.width;
    if (de.scrollWidth > de.clientWidth) out.push(w + ": the page is " + de.scrollWidth + " px wide");
    for (const el of d.querySelectorAll("svg.chart, .wide, .timeline")) {
      const r = el.getBoundingClientRect();
      if (r.right > de.clientWidth + 0.5) out.push(w + ": " + el.className.baseVal + el.className + " ends at " + r.right);
    }
    for (const svg of d.querySelectorAll("svg.chart")) {
      const vb = svg.viewBox.baseVal;
      for (const tx of svg.querySelectorAll("text")) {
        const b = tx.getBBox();
        if (b.x < -0.5 || b.x + b.width > vb.width + 0.5) out.push(w + ": " + JSON.stringify(tx.textContent) + " is cut");
      }
    }
    out.push(w + ": " + d.querySelectorAll("table.problems tr").length + " rows of problems");
  }
  document.getElementById("out").textContent = out.join("\n");
};`

// TestHTMLFitsWidths: the report of a log with long names, long figures
// and problems fits windows 360 to 1920 px wide in headless Chromium: no
// sideways scroll of the page, no chart or box past the window's edge, no
// text of a chart cut; and it lists the two problems (a header row and two).
func TestHTMLFitsWidths(t *testing.T) {
	file := filepath.Join(t.TempDir(), "wide.jsonl")
	if err := os.WriteFile(file, []byte(wideLog), 0o644); err != nil {
		t.Fatal(err)
	}
	r := NewReport()
	r.Add(readLogFile(t, file, Options{Timeline: 100, Problems: 100}))
	var page bytes.Buffer
	if err := r.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	widths := []int{360, 768, 1024, 1280, 1920}
	var frames strings.Builder
	for _, w := range widths {
		fmt.Fprintf(&frames, `<iframe width="%d" height="900" src="/report"></iframe>`, w)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/report" {
			w.Write(page.Bytes())
			return
		}
		fmt.Fprintf(w, "<!DOCTYPE html><html><body>%s<pre id=\"out\">not run</pre><script>%s</script></body></html>", frames.String(), fitScript)
	}))
	defer srv.Close()
	dom := string(chromium(t, srv.URL, "--dump-dom", "--virtual-time-budget=10000"))
	m := regexp.MustCompile(`(?s)<pre id="out">(.*?)</pre>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("no result in\n%s", dom)
	}
	var want []string
	for _, w := range widths {
		want = append(want, fmt.Sprintf("%d: 3 rows of problems", w))
	}
	if got := html.UnescapeString(m[1]); got != strings.Join(want, "\n") {
		t.Errorf("in Chromium:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	for _, w := range []string{"not JSON", `&#34;jsonrpc&#34; must be the string &#34;2.0&#34;`, "<td>5</td>", "<td>6</td>"} {
		if !strings.Contains(page.String(), w) {
			t.Errorf("the page lacks %q", w)
		}
	}
}
