package fetch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jrpcld/jrpcld/fetch/regcache"
	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/mcp"
)

// mirror serves files as a mirror does (BASE/HOST/PATH) from a map of URL
// to content, counting the requests; change may alter a response.
type mirror struct {
	mu       sync.Mutex
	files    map[string][]byte
	requests []string
}

func (m *mirror) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u := "https:/" + r.URL.Path
	m.requests = append(m.requests, u)
	data, ok := m.files[u]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Write(data)
}

func (m *mirror) set(u string, data []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.files[u] = data
}

// schemaMirror serves ../shared's MCP schemas where the specification
// publishes them.
func schemaMirror(t *testing.T) (*mirror, *Fetcher) {
	t.Helper()
	m := &mirror{files: map[string][]byte{}}
	dir := shared.Dir(t, "reference", "mcp-schema")
	for _, v := range mcp.Released {
		data, err := os.ReadFile(filepath.Join(dir, v.Name, "schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		m.files[mcpschemaURL(v.Name)] = data
	}
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	return m, &Fetcher{Mirror: srv.URL}
}

func mcpschemaURL(v string) string { return strings.ReplaceAll(mcp.SchemaURL, "%s", v) }

// TestMCPSchemas: each released schema is downloaded from the pinned
// commit's URL, checked and written to VERSION/schema.json.
func TestMCPSchemas(t *testing.T) {
	m, f := schemaMirror(t)
	dir := t.TempDir()
	vs, err := f.MCPSchemas(context.Background(), dir)
	if err != nil || len(vs) != len(mcp.Released) {
		t.Fatalf("%v, %v", vs, err)
	}
	for _, v := range mcp.Released {
		got, err := os.ReadFile(filepath.Join(dir, v.Name, "schema.json"))
		if err != nil || string(got) != string(m.files[mcpschemaURL(v.Name)]) {
			t.Errorf("%s: %v", v.Name, err)
		}
	}
	if len(m.requests) != len(mcp.Released) {
		t.Errorf("requests %q", m.requests)
	}
	// What the cache holds, validate --mcp reads.
	s := &mcp.Set{Dir: dir}
	if _, err := s.Schema("2025-06-18"); err != nil {
		t.Error(err)
	}
}

// TestMCPSchemasLayout: a schema laid out otherwise (here without white
// space, as the published file may be laid out otherwise than the copies
// the pins were taken from) is the same content, and is taken as served.
func TestMCPSchemasLayout(t *testing.T) {
	m, f := schemaMirror(t)
	for u, data := range m.files {
		var b bytes.Buffer
		if err := json.Compact(&b, data); err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(b.Bytes(), data) {
			t.Fatalf("%s: compacting changed nothing: the test would prove nothing", u)
		}
		m.set(u, b.Bytes())
	}
	dir := t.TempDir()
	vs, err := f.MCPSchemas(context.Background(), dir)
	if err != nil || len(vs) != len(mcp.Released) {
		t.Fatalf("%v, %v", vs, err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "2025-06-18", "schema.json"))
	if !bytes.Equal(got, m.files[mcpschemaURL("2025-06-18")]) {
		t.Error("the cache does not hold the file as served")
	}
}

// TestMCPSchemasRefused: a file whose content's sha256 is not the pin, or that cannot
// be downloaded, is refused, and then nothing is written: the cache keeps
// what it had, and no temporary file is left.
func TestMCPSchemasRefused(t *testing.T) {
	for _, c := range []struct {
		name  string
		alter func(m *mirror)
		want  string
	}{
		{"wrong hash", func(m *mirror) {
			u := mcpschemaURL("2025-06-18")
			m.set(u, bytes.Replace(m.files[u], []byte(`"type"`), []byte(`"typo"`), 1))
		}, "jrpcld pins ebfe1f01"},
		{"missing", func(m *mirror) { delete(m.files, mcpschemaURL("2026-07-28")) }, "404 Not Found"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, f := schemaMirror(t)
			c.alter(m)
			dir := t.TempDir()
			old := filepath.Join(dir, "2024-11-05", "schema.json")
			os.MkdirAll(filepath.Dir(old), 0o755)
			os.WriteFile(old, []byte("old"), 0o644)
			vs, err := f.MCPSchemas(context.Background(), dir)
			if err == nil || len(vs) != 0 || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "the cache is unchanged") {
				t.Fatalf("%v, %v", vs, err)
			}
			var he *HashError
			if c.name == "wrong hash" && (!errors.As(err, &he) || !strings.HasSuffix(he.URL, "/2025-06-18/schema.json")) {
				t.Errorf("%v is no HashError of 2025-06-18", err)
			}
			var files []string
			filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
				if err == nil && !info.IsDir() {
					files = append(files, p)
				}
				return err
			})
			if data, _ := os.ReadFile(old); string(data) != "old" || len(files) != 1 {
				t.Errorf("the cache changed: %q, files %q", data, files)
			}
		})
	}
}

const regURL = "https://ogcincubator.github.io/modelcontextprotocol/build/register.json"

// registerMirror serves a copy of the published MCP register
// (../shared/reference/ogc-published/mcp-bblocks-2025-09) where it is
// published, and sets the user's cache to a temporary folder.
func registerMirror(t *testing.T) (*mirror, *Fetcher) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	src := shared.Dir(t, "reference", "ogc-published", "mcp-bblocks-2025-09")
	m := &mirror{files: map[string][]byte{}}
	filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		m.files["https://ogcincubator.github.io/modelcontextprotocol/build/"+filepath.ToSlash(rel)] = data
		return err
	})
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	return m, &Fetcher{Mirror: srv.URL}
}

// TestRegister: a register is cached with its blocks' annotated schemas,
// contexts and ontologies, and nothing else: no URL outside the register
// is requested, even one a downloaded file names.
func TestRegister(t *testing.T) {
	m, f := registerMirror(t)
	// The mcp block's schema names a file of another site: not followed.
	schemaURL := "https://ogcincubator.github.io/modelcontextprotocol/build/annotated/mcp/schema.yaml"
	m.set(schemaURL, append(m.files[schemaURL], []byte("\nx-extra:\n  $ref: https://evil.example/steal.yaml\n")...))
	res, err := f.Register(context.Background(), regURL)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"build/annotated/json-rpc/context.jsonld", "build/annotated/json-rpc/ontology.ttl", "build/annotated/json-rpc/schema.json", "build/annotated/json-rpc/schema.yaml",
		"build/annotated/mcp/context.jsonld", "build/annotated/mcp/schema.json", "build/annotated/mcp/schema.yaml", "build/register.json",
	}
	if strings.Join(res.Files, " ") != strings.Join(want, " ") || res.Blocks != 2 {
		t.Errorf("files %q, want %q", res.Files, want)
	}
	for _, r := range m.requests {
		if !strings.HasPrefix(r, "https://ogcincubator.github.io/modelcontextprotocol/build/") {
			t.Errorf("requested %s, outside the register", r)
		}
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "https://evil.example/steal.yaml is outside the register") {
		t.Errorf("warnings %q", res.Warnings)
	}
	for _, p := range res.Files {
		got, err := os.ReadFile(filepath.Join(res.Dir, filepath.FromSlash(p)))
		if err != nil || string(got) != string(m.files["https://ogcincubator.github.io/modelcontextprotocol/"+p]) {
			t.Errorf("%s: %v", p, err)
		}
	}
	if dir, err := regcache.Dir(regURL); err != nil || dir != evalSymlinks(t, res.Dir) {
		t.Errorf("regcache.Dir: %s, %v; want where %s leads", dir, err, res.Dir)
	}
}

// TestRegisterAtomic: a fetch that fails leaves the cached copy as it was;
// one that succeeds replaces it whole; no temporary folder is left.
func TestRegisterAtomic(t *testing.T) {
	m, f := registerMirror(t)
	ctx := context.Background()
	first, err := f.Register(ctx, regURL)
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(first.Dir, "stale-file")
	os.WriteFile(marker, []byte("x"), 0o644)
	// The register is gone from the server: nothing changes.
	delete(m.files, regURL)
	if _, err := f.Register(ctx, regURL); err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("err %v", err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("a failed fetch changed the cache")
	}
	// A register.json that is not a register: nothing changes.
	m.set(regURL, []byte(`{"name":"not a register"}`))
	if _, err := f.Register(ctx, regURL); err == nil || !strings.Contains(err.Error(), "is not a building-block register") {
		t.Fatalf("err %v", err)
	}
	// Back: the new copy replaces the old whole.
	_, f2 := registerMirror(t)
	t.Setenv("XDG_CACHE_HOME", filepath.Dir(filepath.Dir(filepath.Dir(first.Dir))))
	second, err := f2.Register(ctx, regURL)
	if err != nil {
		t.Fatal(err)
	}
	if second.Dir != first.Dir {
		t.Fatalf("copied to %s, then %s", first.Dir, second.Dir)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the old copy's file is still there")
	}
	// The register's link, and the one copy it leads to.
	entries, _ := os.ReadDir(filepath.Dir(second.Dir))
	if len(entries) != 2 || filepath.Join(filepath.Dir(second.Dir), entries[0].Name()) != evalSymlinks(t, second.Dir) {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the cache holds %q", names)
	}
}

// evalSymlinks returns where path leads.
func evalSymlinks(t *testing.T, path string) string {
	t.Helper()
	p, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRedirects: a redirect to another host is not followed; one on the
// same host is.
func TestRedirects(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("elsewhere")) }))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, strings.Replace(other.URL, "127.0.0.1", "localhost", 1)+"/x", http.StatusFound)
		case "/here":
			http.Redirect(w, r, "/file", http.StatusFound)
		default:
			w.Write([]byte("file"))
		}
	}))
	defer srv.Close()
	f := &Fetcher{}
	if _, err := f.Get(context.Background(), srv.URL+"/away"); err == nil || !strings.Contains(err.Error(), "redirected to another host") {
		t.Errorf("away: %v", err)
	}
	if data, err := f.Get(context.Background(), srv.URL+"/here"); err != nil || string(data) != "file" {
		t.Errorf("here: %q %v", data, err)
	}
}
