package netrc

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	text := "# not a comment in .netrc, but curl takes none either\n"
	_, err := Parse(strings.NewReader(text))
	if err == nil {
		t.Error("an unknown keyword parsed")
	}
	text = `machine a.example login alice password "s3cret pw" account x
machine b.example
  login bob
  password "q\"uo\\te"
macdef init
cd /pub
binary

default login anonymous password guest
machine c.example	login carol password tab
`
	got, err := Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	want := []Login{
		{"a.example", "alice", "s3cret pw"},
		{"b.example", "bob", `q"uo\te`},
		{"", "anonymous", "guest"},
		{"c.example", "carol", "tab"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	// A word where a keyword should be: an error with its line, no password.
	if _, err := Parse(strings.NewReader("machine m login u password secret oops\n")); err == nil || strings.Contains(err.Error(), "secret") || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("error %v", err)
	}
	for _, bad := range []string{"login u\n", "machine\n", `machine m password "open`} {
		if _, err := Parse(strings.NewReader(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestLookup(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "netrc")
	if err := os.WriteFile(path, []byte("machine Store.Example login a password 1\ndefault login d password 2\nmachine store.example login late password 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		host string
		want Login
		ok   bool
	}{
		{"store.example", Login{"Store.Example", "a", "1"}, true},
		{"other.example", Login{"", "d", "2"}, true},
	} {
		got, ok, err := Lookup(path, c.host)
		if err != nil || ok != c.ok || got != c.want {
			t.Errorf("%s: %+v %v %v", c.host, got, ok, err)
		}
	}
	if _, ok, err := Lookup(filepath.Join(dir, "none"), "x"); ok || err != nil {
		t.Errorf("a missing file: %v %v", ok, err)
	}
	if err := os.WriteFile(path, []byte("machine a login b\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := Lookup(path, "z"); ok || err != nil {
		t.Errorf("no entry for the host: %v %v", ok, err)
	}
	t.Setenv("NETRC", path)
	if p, err := Path(); p != path || err != nil {
		t.Errorf("Path() = %q, %v with NETRC set", p, err)
	}
}
