package register

import (
	"context"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
)

// chromiumBin is the browser the page test runs: Debian's chromium, which
// .ci/run installs.
const chromiumBin = "/usr/bin/chromium"

// chromium runs headless Chromium with args and the given page URL and
// returns its standard output.
func chromium(t *testing.T, url string, args ...string) []byte {
	t.Helper()
	// The deadline only ends a browser that hangs: on a busy machine (a
	// load of 40 on 2 cores) one page took more than 90 seconds.
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	all := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir()}, args...)
	cmd := exec.CommandContext(ctx, chromiumBin, append(all, url)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Errorf("chromium %s: %v\n%s", url, err, stderr.String())
	}
	return out
}

var (
	rowRE   = regexp.MustCompile(`(?s)<tr(?:\s[^>]*)?>(.*?)</tr>`)
	tagRE   = regexp.MustCompile(`(?s)<[^>]*>`)
	spaceRE = regexp.MustCompile(`\s+`)
)

// text returns the text of an HTML fragment, as a reader sees it.
func text(fragment string) string {
	return strings.TrimSpace(spaceRE.ReplaceAllString(html.UnescapeString(tagRE.ReplaceAllString(fragment, " ")), " "))
}

// row returns the text of the first table row of dom whose text contains
// cell.
func row(dom, cell string) string {
	for _, m := range rowRE.FindAllStringSubmatch(dom, -1) {
		if r := text(m[1]); strings.Contains(r, cell) {
			return r
		}
	}
	return ""
}

// TestPagesInChromium builds the OGC register and the fixture, serves them
// on localhost, and loads pages in headless Chromium: the rendered text
// shows the block names, a Turtle example, and test resources that fail
// shown as failing. The pages load nothing but themselves. Screenshots go
// to testdata/artifacts.
func TestPagesInChromium(t *testing.T) {
	if _, err := os.Stat(chromiumBin); err != nil {
		if os.Getenv("JRPCLD_SHARED") != "" {
			t.Fatalf("%s is required when JRPCLD_SHARED is set: %v", chromiumBin, err)
		}
		t.Skipf("%s not found: %v", chromiumBin, err)
	}
	ogc := shared.Dir(t, "reference", "ogc-mcp-bblocks")
	root := t.TempDir()
	for name, src := range map[string]string{"ogc": ogc, "fixture": fixtureDir} {
		reg, err := bblock.LoadRegisterDir(src, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Build(reg, filepath.Join(root, name), Options{}); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var requested []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requested = append(requested, r.URL.Path)
		mu.Unlock()
		http.FileServer(http.Dir(root)).ServeHTTP(w, r)
	}))
	defer srv.Close()

	// The index is at /ogc/: FileServer redirects /ogc/index.html there.
	// "#q=json-rpc" fills the index's filter box, which hides the MCP row.
	pages := []string{"/ogc/", "/ogc/bblock/mcp.mcp.html", "/fixture/bblock/fx.point.html", "/ogc/#q=JSON-rpc"}
	doms := make([]string, len(pages))
	artifacts, err := filepath.Abs(filepath.Join("testdata", "artifacts"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i, p := range pages {
		wg.Add(2)
		go func() {
			defer wg.Done()
			doms[i] = string(chromium(t, srv.URL+p, "--dump-dom"))
		}()
		go func() {
			defer wg.Done()
			shot := filepath.Join(artifacts, strings.Trim(strings.NewReplacer("/", "_", "#", "_", "=", "_").Replace(strings.TrimPrefix(p, "/")), "_")+".png")
			chromium(t, srv.URL+p, "--screenshot="+shot, "--window-size=1280,2000")
			if st, err := os.Stat(shot); err != nil || st.Size() == 0 {
				t.Errorf("no screenshot of %s: %v", p, err)
				return
			}
			t.Logf("screenshot of %s: %s", p, shot)
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	index, mcp, point, filtered := doms[0], doms[1], doms[2], doms[3]

	// The index: both blocks, their identifiers and results, the
	// dependency as a link to the page of the block depended on.
	checks := []struct {
		page, name, got, want string
	}{
		{"index", "JSON-RPC row", row(index, "mcp.json-rpc"), "JSON-RPC mcp.json-rpc under-development 2.0.0 — passed 3 of 3 example snippets as expected"},
		{"index", "MCP row", row(index, "mcp.mcp"), "MCP mcp.mcp stable 1.0.0 mcp.json-rpc passed 20 of 20 example snippets as expected"},
		{"fx.point", "failing example", text(between(point, `id="example-2"`, "</section>")), "Snippet 1, checked against #Point : FAILED"},
		{"fx.point", "test that must pass", row(point, "good.json pass validation"), "good.json pass validation passed"},
		{"fx.point", "test that fails as it must", row(point, "missing-y-fail.json fail validation"), "missing-y-fail.json fail validation passed"},
		{"fx.point", "test that wrongly passes", row(point, "wrongly-valid-fail.json fail validation"), "wrongly-valid-fail.json fail validation FAILED"},
		{"fx.point", "test that wrongly fails", row(point, "wrongly-invalid.json pass validation"), "wrongly-invalid.json pass validation FAILED"},
	}
	for _, c := range checks {
		if !strings.Contains(c.got, c.want) {
			t.Errorf("%s, %s: %q does not contain %q", c.page, c.name, c.got, c.want)
		}
	}
	if !regexp.MustCompile(`<a href="bblock/mcp\.json-rpc\.html">mcp\.json-rpc</a>`).MatchString(index) {
		t.Errorf("index: the dependency is not a link to its page")
	}
	// The filter box, shown by its script, filled from the address.
	if !strings.Contains(index, `<input type="search" id="filter" placeholder=`) {
		t.Errorf("index: the filter box is not shown")
	}
	for _, c := range []struct {
		id     string
		hidden bool
	}{{"mcp.json-rpc", false}, {"mcp.mcp", true}} {
		tr := regexp.MustCompile(`<tr data-search="[^"]* ` + regexp.QuoteMeta(c.id) + `"[^>]*>`).FindString(filtered)
		if tr == "" || strings.Contains(tr, `hidden=""`) != c.hidden {
			t.Errorf("filtered index: the row of %s is %q, want it hidden %v", c.id, tr, c.hidden)
		}
	}
	if !strings.Contains(filtered, `>1 of 2 shown</output>`) {
		t.Errorf("filtered index: the count of rows shown is not 1 of 2")
	}
	// The dependency graphs: on the index, each block a link to its page;
	// on a block's page, the block itself is no link.
	if !strings.Contains(index, `<svg class="graph"`) || !strings.Contains(index, `<a href="bblock/mcp.json-rpc.html"><g class="node">`) {
		t.Errorf("index: no dependency graph linking mcp.json-rpc's page")
	}
	if !strings.Contains(mcp, `<a href="mcp.json-rpc.html"><g class="node">`) || !strings.Contains(mcp, `<g class="node current">`) {
		t.Errorf("mcp.mcp: the dependency graph does not link mcp.json-rpc's page, or does not mark mcp.mcp")
	}
	mcpText := text(mcp)
	for _, want := range []string{
		"MCP", "mcp.mcp", "Depends on mcp.json-rpc",
		"1. initialize", "checked against #definitions/InitializeRequest : passed",
		// The Turtle of the first example, as rendered.
		`Turtle — example_1_1.ttl @prefix jrpc:`, `jrpc:hasMethod "initialize" ;`, `mcp:hasClientInfo [ mcp:hasName "example-client" ;`,
		"Validation report", "passed 20 of 20 example snippets as expected",
	} {
		if !strings.Contains(mcpText, want) {
			t.Errorf("mcp.mcp page lacks %q", want)
		}
	}
	pointText := text(point)
	for _, want := range []string{"Point fx.point", "Validation FAILED 1 of 2 example snippets, 2 of 4 tests as expected",
		`<script>alert("not run")</script>`, "A point has two coordinates, x and y :"} {
		if !strings.Contains(pointText, want) {
			t.Errorf("fx.point page lacks %q", want)
		}
	}

	// Nothing but the pages themselves was asked for: no script file,
	// style sheet, font or image; the index's one script is inline.
	for i, dom := range doms {
		for _, bad := range []string{"<script src", "<link", "<img", "@import"} {
			if strings.Contains(dom, bad) {
				t.Errorf("%s holds %q", pages[i], bad)
			}
		}
		if regexp.MustCompile(`url\([^#]`).MatchString(dom) {
			t.Errorf("%s refers to a url() other than a fragment of itself", pages[i])
		}
		if n := strings.Count(dom, "<script"); n > 1 || n == 1 && !strings.HasPrefix(pages[i], "/ogc/") {
			t.Errorf("%s holds %d scripts", pages[i], n)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range requested {
		if !slices.ContainsFunc(pages, func(page string) bool { return strings.Split(page, "#")[0] == p }) && p != "/favicon.ico" {
			t.Errorf("the browser asked for %s", p)
		}
	}
}

// between returns the part of s from the first from to the next to after it.
func between(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	s = s[i:]
	if j := strings.Index(s, to); j >= 0 {
		return s[:j]
	}
	return s
}
