package regcache

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestKeyAndRoot(t *testing.T) {
	const u = "https://ogcincubator.github.io/modelcontextprotocol/build/register.json"
	for _, c := range []struct{ in, want string }{
		{"default", "https://opengeospatial.github.io/bblocks/register.json"},
		{"https://h/r/", "https://h/r/register.json"},
		{u, u},
	} {
		if got := Normalize(c.in); got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	k := Key(u)
	if !strings.HasPrefix(k, "ogcincubator.github.io_modelcontextprotocol_build_register.json-") || Key("https://ogcincubator.github.io/modelcontextprotocol/build/") != k {
		t.Errorf("key %q", k)
	}
	if Key("https://h/a/register.json") == Key("https://h/a_register.json") {
		t.Error("two URLs, one key")
	}
	if strings.ContainsAny(Key("https://h/../../x?y=/z"), "/?") {
		t.Errorf("key %q is no file name", Key("https://h/../../x?y=/z"))
	}
	for _, c := range []struct{ reg, base, want string }{
		{u, "https://ogcincubator.github.io/modelcontextprotocol/", "https://ogcincubator.github.io/modelcontextprotocol/"},
		{u, "https://ogcincubator.github.io/modelcontextprotocol/build", "https://ogcincubator.github.io/modelcontextprotocol/build/"},
		{u, "https://evil.example/", "https://ogcincubator.github.io/modelcontextprotocol/build/"},
		{u, "", "https://ogcincubator.github.io/modelcontextprotocol/build/"},
		{"https://h/x/y/register.json", "https://h/", "https://h/x/y/"},
	} {
		if got := MirrorRoot(c.reg, c.base); got != c.want {
			t.Errorf("MirrorRoot(%q, %q) = %q, want %q", c.reg, c.base, got, c.want)
		}
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	if _, err := Dir(u); !errors.Is(err, ErrNotFetched) || !strings.Contains(err.Error(), "jrpcld fetch "+u) {
		t.Errorf("Dir of nothing: %v", err)
	}
	if _, _, err := Open(u, "mcp.mcp"); !errors.Is(err, ErrNotFetched) {
		t.Errorf("Open of nothing: %v", err)
	}
}

// TestDirRefusesIncomplete: a copy in the cache that a fetch did not mark
// complete (one an older jrpcld installed half, or a folder written by
// hand) is not read: Dir says to fetch the register again.
func TestDirRefusesIncomplete(t *testing.T) {
	const u = "https://h.test/r/register.json"
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, Key(u))
	if err := os.MkdirAll(filepath.Join(dir, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "register.json"), []byte(`{"bblocks":[]}`), 0o644)
	if got, err := Dir(u); !errors.Is(err, ErrNotFetched) || !strings.Contains(err.Error(), "not complete") || !strings.Contains(err.Error(), "jrpcld fetch "+u) {
		t.Errorf("Dir of a copy with no mark: %q, %v", got, err)
	}
	// Named by hand (--import URL=DIR), the copy or a folder of it.
	for _, d := range []string{dir, filepath.Join(dir, "a"), filepath.Join(dir, "a", "..")} {
		if err := CheckCopy(d); !errors.Is(err, ErrNotFetched) || !strings.Contains(err.Error(), "not complete") {
			t.Errorf("CheckCopy(%s): %v", d, err)
		}
	}
	// A complete copy, and a folder outside the cache, are read.
	s, err := Stage(u)
	if err != nil {
		t.Fatal(err)
	}
	link, err := s.Commit(u)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{link, s.Dir, t.TempDir(), root} {
		if err := CheckCopy(d); err != nil {
			t.Errorf("CheckCopy(%s): %v", d, err)
		}
	}
}
