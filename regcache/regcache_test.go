package regcache

import (
	"errors"
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
