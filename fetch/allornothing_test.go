package fetch

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jrpcld/jrpcld/fetch/regcache"
	"github.com/jrpcld/jrpcld/internal/testkit/fixture"
)

// siteURL is the register of the synthetic sites below.
const siteURL = "https://reg.test/r/register.json"

// site serves, as a mirror does, a synthetic register below
// https://reg.test/r/: files maps a path below it to its content, and
// special, when set, may answer a request itself (returning true). The
// user's cache is a temporary folder.
type site struct {
	mu       sync.Mutex
	files    map[string]string
	special  func(w http.ResponseWriter, r *http.Request, name string) bool
	requests int
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, "/reg.test/r/")
	s.mu.Lock()
	s.requests++
	special := s.special
	data, found := s.files[name]
	s.mu.Unlock()
	if special != nil && special(w, r, name) {
		return
	}
	if !ok || !found {
		http.NotFound(w, r)
		return
	}
	w.Write([]byte(data))
}

// smallSite returns a register of two blocks, each with a JSON and a YAML
// schema and a context; a's schema refers to a file of its own, which
// refers to another: five levels in all.
func smallSite(t *testing.T) (*site, *Fetcher) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	s := &site{files: map[string]string{
		"register.json": `{"baseURL":"https://reg.test/r/","bblocks":[
 {"itemIdentifier":"t.a","schema":{"application/json":"https://reg.test/r/a/schema.json","application/yaml":"https://reg.test/r/a/schema.yaml"},"ldContext":"https://reg.test/r/a/context.jsonld"},
 {"itemIdentifier":"t.b","schema":{"application/json":"https://reg.test/r/b/schema.json"},"ldContext":"https://reg.test/r/b/context.jsonld"}]}`,
		"a/schema.json":        `{"type":"object","properties":{"x":{"$ref":"../common/x.json"}}}`,
		"a/schema.yaml":        "type: object\nproperties:\n  x:\n    $ref: ../common/x.json\n",
		"a/context.jsonld":     `{"@context":{"x":"https://example.com/x"}}`,
		"b/schema.json":        `{"$ref":"../a/schema.json"}`,
		"b/context.jsonld":     `{"@context":[{"y":"https://example.com/y"}]}`,
		"common/x.json":        `{"$ref":"deeper/y.json#/$defs/y"}`,
		"common/deeper/y.json": `{"$defs":{"y":{"type":"string"}}}`,
	}}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, &Fetcher{Mirror: srv.URL}
}

// snapshot returns every file below the cache's folder of registers.
func snapshot(t *testing.T) map[string]string {
	t.Helper()
	root, err := regcache.Root()
	if err != nil {
		t.Fatal(err)
	}
	return fixture.Tree(t, root)
}

// cachedFiles returns the files of the copy regcache.Dir gives for u, by
// path below it, or nil when it gives none.
func cachedFiles(t *testing.T, u string) map[string]string {
	t.Helper()
	dir, err := regcache.Dir(u)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	return out
}

// TestRegisterSmall: the synthetic register is cached whole, with the
// files its schemas refer to, level after level.
func TestRegisterSmall(t *testing.T) {
	s, f := smallSite(t)
	res, err := f.Register(context.Background(), siteURL)
	if err != nil {
		t.Fatal(err)
	}
	got := cachedFiles(t, siteURL)
	var names []string
	for p, data := range got {
		names = append(names, p)
		if data != s.files[p] {
			t.Errorf("%s: %q, served %q", p, data, s.files[p])
		}
	}
	sort.Strings(names)
	if len(names) != len(s.files) || strings.Join(names, " ") != strings.Join(res.Files, " ") {
		t.Errorf("cached %q, result %q; want the %d files served", names, res.Files, len(s.files))
	}
}

// TestRegisterAllOrNothing: a fetch that fails half way, whatever the
// reason, returns an error saying the cache is unchanged, and the cache
// holds exactly what it held: the earlier copy, still read, and no
// temporary folder.
func TestRegisterAllOrNothing(t *testing.T) {
	for _, c := range []struct {
		name  string
		alter func(s *site, f *Fetcher, cancel context.CancelFunc)
		want  string
	}{
		{"404 mid-way", func(s *site, f *Fetcher, cancel context.CancelFunc) {
			delete(s.files, "common/deeper/y.json")
		}, "common/deeper/y.json: 404 Not Found"},
		{"a server that hangs", func(s *site, f *Fetcher, cancel context.CancelFunc) {
			f.Timeout = 300 * time.Millisecond
			s.special = func(w http.ResponseWriter, r *http.Request, name string) bool {
				if name != "common/x.json" {
					return false
				}
				<-r.Context().Done() // until the client gives up
				return true
			}
		}, "https://reg.test/r/common/x.json: not downloaded within 300ms (raise the limit with --timeout)"},
		{"a body that stops", func(s *site, f *Fetcher, cancel context.CancelFunc) {
			f.Timeout = 300 * time.Millisecond
			s.special = func(w http.ResponseWriter, r *http.Request, name string) bool {
				if name != "b/schema.json" {
					return false
				}
				w.Header().Set("Content-Length", "1000")
				w.Write([]byte(`{"$ref":`))
				w.(http.Flusher).Flush()
				<-r.Context().Done()
				return true
			}
		}, "https://reg.test/r/b/schema.json: not downloaded within 300ms (raise the limit with --timeout)"},
		{"cancelled mid-way", func(s *site, f *Fetcher, cancel context.CancelFunc) {
			s.special = func(w http.ResponseWriter, r *http.Request, name string) bool {
				if name == "common/x.json" {
					cancel() // as a signal does
				}
				return false
			}
		}, "context canceled"},
		{"not a register", func(s *site, f *Fetcher, cancel context.CancelFunc) {
			s.files["register.json"] = `{"name":"not a register"}`
		}, "is not a building-block register"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, f := smallSite(t)
			if _, err := f.Register(context.Background(), siteURL); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t)
			first := cachedFiles(t, siteURL)
			// The new version of every file, so that a file installed by
			// the failed fetch would show.
			s.mu.Lock()
			for p, data := range s.files {
				if strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".jsonld") {
					s.files[p] = data + " "
				} else {
					s.files[p] = data + "\n"
				}
			}
			s.mu.Unlock()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c.alter(s, f, cancel)
			res, err := f.Register(ctx, siteURL)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "the cache is unchanged") {
				t.Fatalf("err %v (result %+v); want an error with %q, saying the cache is unchanged", err, res, c.want)
			}
			if after := snapshot(t); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("the cache changed:\n%q\nwas\n%q", after, before)
			}
			if got := cachedFiles(t, siteURL); fmt.Sprint(got) != fmt.Sprint(first) {
				t.Errorf("the copy read is\n%q\nwant the earlier\n%q", got, first)
			}
		})
	}
}

// endlessChain serves a register whose one block's schema refers to a new
// file, which refers to a new file, for ever; it counts the files served.
func endlessChain(t *testing.T) (*site, *Fetcher) {
	t.Helper()
	s, f := smallSite(t)
	s.files["register.json"] = `{"bblocks":[{"itemIdentifier":"t.a","schema":{"application/json":"https://reg.test/r/c/0.json"}}]}`
	s.special = func(w http.ResponseWriter, r *http.Request, name string) bool {
		var n int
		if _, err := fmt.Sscanf(name, "c/%d.json", &n); err != nil {
			return false
		}
		fmt.Fprintf(w, `{"allOf":[{"$ref":"%d.json"}]}`, n+1)
		return true
	}
	return s, f
}

// TestEndlessRefChain: a register whose schemas refer to a new file for
// ever ends, by default, with an error naming the limit on the depth of
// references, the file past it and the flag that raises it; nothing is
// installed.
func TestEndlessRefChain(t *testing.T) {
	s, f := endlessChain(t)
	// Without a limit the fetch would go on for ever: this deadline only
	// ends the test if it does.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	_, err := f.Register(ctx, siteURL)
	t.Logf("failed after %v and %d requests: %v", time.Since(start), s.requests, err)
	if err == nil || !strings.Contains(err.Error(), "--max-ref-depth") || !strings.Contains(err.Error(), "https://reg.test/r/c/") {
		t.Fatalf("err %v; want the limit on the depth of references, with the URL", err)
	}
	if got := snapshot(t); len(got) != 0 {
		t.Errorf("the cache holds %q", got)
	}
}
