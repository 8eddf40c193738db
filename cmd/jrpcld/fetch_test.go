package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/cmd/jrpcld/internal/cli"
	"github.com/jrpcld/jrpcld/context/ctxtest"
	"github.com/jrpcld/jrpcld/fetch"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/mcp"
)

// mcpRegisterURL is where the OGC publishes its MCP register.
const mcpRegisterURL = "https://ogcincubator.github.io/modelcontextprotocol/build/register.json"

// serveMirror serves, as a mirror (BASE/HOST/PATH), a copy of the
// published MCP register (../shared/reference/ogc-published/
// mcp-bblocks-2025-09) and the MCP schemas of ../shared, where they are
// published; it points jrpcld fetch at it and the user's cache at a
// temporary folder, and returns the server.
func serveMirror(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	reg := shared.Dir(t, "reference", "ogc-published", "mcp-bblocks-2025-09")
	mux.Handle("/ogcincubator.github.io/modelcontextprotocol/build/", http.StripPrefix("/ogcincubator.github.io/modelcontextprotocol/build/", http.FileServer(http.Dir(reg))))
	schemas := shared.Dir(t, "reference", "mcp-schema")
	mux.Handle("/raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/b0f60ba5409db7a6582440a7b473cc0398890f15/schema/", http.StripPrefix("/raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/b0f60ba5409db7a6582440a7b473cc0398890f15/schema/", http.FileServer(http.Dir(schemas))))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	t.Setenv(fetch.MirrorEnv, srv.URL)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	return srv
}

// contextOf returns the JSON value jrpcld context prints for args.
func contextOf(t *testing.T, args ...string) any {
	t.Helper()
	code, out, errOut := jrpcld(t, "", append([]string{"context"}, args...)...)
	if code != cli.ExitOK {
		t.Fatalf("context %q: exit %d: %s", args, code, errOut)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	return v["@context"]
}

// TestFetch: jrpcld fetch caches the MCP schemas and a published register
// from a local server; then, with the server gone, --bblock URL, --import
// URL and validate --mcp read the cache: the block's context is the one a
// register importing the published copy gets.
func TestFetch(t *testing.T) {
	srv := serveMirror(t)
	code, out, errOut := jrpcld(t, "", "fetch", "-q", "mcp-schemas", mcpRegisterURL)
	if code != cli.ExitOK || !strings.Contains(out, "MCP schemas [2024-11-05 2025-03-26 2025-06-18 2025-11-25 2026-07-28] (commit b0f60ba5409db7a6582440a7b473cc0398890f15, sha256 checked)") ||
		!strings.Contains(out, "register "+mcpRegisterURL+": 2 blocks, 8 files") {
		t.Fatalf("fetch: exit %d\n%s%s", code, out, errOut)
	}
	srv.Close() // from here on, nothing can be fetched

	// A register that imports the published one, mapped to ../shared's
	// copy by hand, and to the cache.
	tree := t.TempDir()
	os.MkdirAll(filepath.Join(tree, "_sources", "use"), 0o755)
	os.WriteFile(filepath.Join(tree, "bblocks-config.yaml"), []byte("name: use\nidentifier-prefix: local.\nimports:\n  - "+mcpRegisterURL+"\n"), 0o644)
	os.WriteFile(filepath.Join(tree, "_sources", "use", "bblock.json"), []byte(`{"name":"use","itemClass":"schema","status":"stable","version":"1","dateTimeAddition":"2026-01-01T00:00:00Z","dependsOn":["mcp.mcp"]}`), 0o644)
	os.WriteFile(filepath.Join(tree, "_sources", "use", "schema.yaml"), []byte("$ref: https://ogcincubator.github.io/modelcontextprotocol/build/annotated/mcp/schema.yaml\n"), 0o644)
	copyDir := shared.Dir(t, "reference", "ogc-published", "mcp-bblocks-2025-09")
	byHand := contextOf(t, "--bblock", tree, "--id", "local.use", "--import", mcpRegisterURL+"="+copyDir)
	cached := contextOf(t, "--bblock", tree, "--id", "local.use", "--import", mcpRegisterURL)
	byURL := contextOf(t, "--bblock", mcpRegisterURL, "--id", "mcp.mcp")
	if d := ctxtest.DiffEffective(t, byHand, cached); len(d) > 0 {
		t.Errorf("--import URL differs from --import URL=DIR: %q", d)
	}
	if d := ctxtest.DiffEffective(t, byHand, byURL); len(d) > 0 {
		t.Errorf("--bblock URL differs from a register importing it: %q", d)
	}

	corpus := shared.Dir(t, "corpus", "mcp-sessions", "everything-stdio.dir.jsonl")
	code, out, errOut = jrpcld(t, "", "turtle", "-q", "--bblock", mcpRegisterURL, "--id", "mcp.mcp", corpus)
	if code != cli.ExitOK || !strings.Contains(out, "mcp:hasContent") {
		t.Errorf("turtle --bblock URL: exit %d %s", code, errOut)
	}
	// validate --mcp reads the schemas from the cache.
	schemas := shared.Dir(t, "reference", "mcp-schema")
	_, want, _ := jrpcld(t, "", "validate", "-q", "--mcp", "--mcp-schemas", schemas, corpus)
	code, got, errOut := jrpcld(t, "", "validate", "-q", "--mcp", corpus)
	cache, _ := mcp.CacheDir()
	if strings.ReplaceAll(got, cache, schemas) != want || errOut != "" {
		t.Errorf("validate --mcp from the cache: exit %d\n%s%s\nwant\n%s", code, got, errOut, want)
	}

	// What was not fetched says how to fetch it.
	code, _, errOut = jrpcld(t, "", "turtle", "--bblock", "https://example.com/other/register.json", "--id", "x", corpus)
	if code != cli.ExitUsage || !strings.Contains(errOut, `not in the cache: fetch it with "jrpcld fetch https://example.com/other/register.json"`) {
		t.Errorf("an unfetched register: exit %d %q", code, errOut)
	}
	code, _, errOut = jrpcld(t, "", "turtle", "--bblock", mcpRegisterURL, "--id", "mcp.nothing", corpus)
	if code != cli.ExitUsage || !strings.Contains(errOut, `"mcp.nothing"`) {
		t.Errorf("an unknown block: exit %d %q", code, errOut)
	}
	code, _, errOut = jrpcld(t, "", "fetch")
	if code != cli.ExitUsage || !strings.Contains(errOut, "give mcp-schemas or the URL") {
		t.Errorf("fetch without arguments: exit %d %q", code, errOut)
	}
}
