package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/jrpcld/jrpcld/internal/testkit/shared"
	"github.com/jrpcld/jrpcld/jsonrpc/rpclog"
)

func negotiated(t *testing.T, log string) Handshake {
	t.Helper()
	r, err := rpclog.NewReader(strings.NewReader(log), "log", rpclog.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := Negotiated(r)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestNegotiated(t *testing.T) {
	const (
		req    = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`
		answer = `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18"}}`
	)
	env := func(dir, msg string) string { return `{"dir":"` + dir + `","msg":` + msg + `}` }
	for _, c := range []struct {
		name, log string
		want      Handshake
	}{
		{"answered", req + "\n" + answer, Handshake{"2025-06-18", true, 2}},
		{"directions", env("c2s", req) + "\n" + env("s2c", `{"jsonrpc":"2.0","method":"notifications/message"}`) + "\n" + env("s2c", answer), Handshake{"2025-06-18", true, 3}},
		{"answer sent the same way", env("c2s", req) + "\n" + env("c2s", answer), Handshake{"2025-11-25", false, 1}},
		{"unanswered", req + "\n" + `{"jsonrpc":"2.0","id":1,"method":"ping"}`, Handshake{"2025-11-25", false, 1}},
		{"error answer", req + "\n" + `{"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"Unsupported protocol version"}}`, Handshake{"2025-11-25", false, 1}},
		{"another id", req + "\n" + `{"jsonrpc":"2.0","id":"0","result":{"protocolVersion":"2024-11-05"}}`, Handshake{"2025-11-25", false, 1}},
		{"answer before request", answer + "\n" + req, Handshake{"2025-11-25", false, 2}},
		{"server's initialize ignored", env("s2c", req), Handshake{}},
		{"batch", `[` + req + `]` + "\n" + `[` + answer + `]`, Handshake{"2025-06-18", true, 2}},
		{"none", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, Handshake{}},
		{"not a version string", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":5}}` + "\n" + `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":null}}`, Handshake{}},
		{"bad lines around", "nonsense\n" + req + "\n{\n" + answer, Handshake{"2025-06-18", true, 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := negotiated(t, c.log); got != c.want {
				t.Errorf("%+v, want %+v", got, c.want)
			}
		})
	}
	// Past the first HandshakeLimit messages, nothing is looked for.
	var b strings.Builder
	for i := 0; i < HandshakeLimit; i++ {
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","method":"n%d"}`+"\n", i)
	}
	if got := negotiated(t, b.String()+req+"\n"+answer); got != (Handshake{}) {
		t.Errorf("after the limit: %+v", got)
	}
}

// TestSet: the versions of a folder, its schemas compiled once, a version
// it lacks an ErrNoSchema, and a version that is a path never read.
func TestSet(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const sch = `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{}}`
	write("2025-06-18/schema.json", sch)
	write("2024-11-05/schema.json", sch)
	write("draft/schema.json", sch)
	write("2099-01-01/other.json", sch)
	write("secret/schema.json", sch)
	s := &Set{Dir: dir}
	vs, err := s.Versions()
	if err != nil || !reflect.DeepEqual(vs, []string{"2024-11-05", "2025-06-18"}) {
		t.Fatalf("versions %v, %v", vs, err)
	}
	if s.Newest() != "2025-06-18" {
		t.Errorf("newest %s, want the folder's newest, 2025-06-18", s.Newest())
	}
	if n := (&Set{Dir: t.TempDir()}).Newest(); n != Newest() {
		t.Errorf("newest of an empty folder %s, want the newest released, %s", n, Newest())
	}
	a, err := s.Schema("2025-06-18")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := s.Schema("2025-06-18"); a != b {
		t.Error("compiled twice")
	}
	for _, v := range []string{"2026-07-28", "draft", "../" + filepath.Base(dir) + "/secret", "2099-01-01"} {
		if _, err := s.Schema(v); !errors.Is(err, ErrNoSchema) {
			t.Errorf("%q: %v, want ErrNoSchema", v, err)
		}
	}
	write("2030-01-01/schema.json", sch)
	if n := (&Set{Dir: dir}).Newest(); n != "2030-01-01" {
		t.Errorf("newest %s, want the folder's 2030-01-01", n)
	}
	if _, err := (&Set{Dir: filepath.Join(dir, "none")}).Versions(); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing folder: %v", err)
	}
}

// TestPins: the pins are the sha256 of the content of
// ../shared/reference/mcp-schema's files, one for each of its versions, and
// each schema compiles. (The pins were also computed independently, with
// Python's json.dumps(sort_keys=True, separators=(',', ':'),
// ensure_ascii=False), the same canonical form for documents without
// fractions, as these are.)
func TestPins(t *testing.T) {
	dir := shared.Dir(t, "reference", "mcp-schema")
	s := &Set{Dir: dir}
	vs, err := s.Versions()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range Released {
		names = append(names, v.Name)
		data, err := os.ReadFile(filepath.Join(dir, v.Name, "schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := ContentSHA256(data)
		if err != nil || got != v.SHA256 {
			t.Errorf("%s: sha256 %s (%v), pinned %s", v.Name, got, err, v.SHA256)
		}
		if _, err := s.Schema(v.Name); err != nil {
			t.Errorf("%s: %v", v.Name, err)
		}
		if u := fmt.Sprintf(SchemaURL, v.Name); !strings.HasSuffix(u, "/"+v.Name+"/schema.json") {
			t.Errorf("URL %s", u)
		}
	}
	if !reflect.DeepEqual(vs, names) {
		t.Errorf("../shared has %v, pinned %v", vs, names)
	}
}

// TestContentSHA256: the hash is of what a document says: the layout (white
// space, the order of members, escapes) does not change it, a name or a
// value does; what is not one JSON document is an error.
func TestContentSHA256(t *testing.T) {
	base := `{"b":[1,2,{"x":"\u00e9"}],"a":true}`
	want, err := ContentSHA256([]byte(base))
	if err != nil {
		t.Fatal(err)
	}
	canon := sha256.Sum256([]byte(`{"a":true,"b":[1,2,{"x":"é"}]}`))
	if want != hex.EncodeToString(canon[:]) {
		t.Errorf("ContentSHA256(%s) = %s, not the sha256 of its RFC 8785 form", base, want)
	}
	for _, c := range []struct {
		doc  string
		same bool
	}{
		{"{\n  \"a\": true,\n  \"b\": [1, 2, {\"x\": \"é\"}]\n}\n\n", true},
		{`{"a":true,"b":[1,2,{"x":"e"}]}`, false},
		{`{"a":true,"b":[2,1,{"x":"é"}]}`, false},
		{`{"A":true,"b":[1,2,{"x":"é"}]}`, false},
	} {
		got, err := ContentSHA256([]byte(c.doc))
		if err != nil || (got == want) != c.same {
			t.Errorf("%s: %s (%v); same as the base: %v, want %v", c.doc, got, err, got == want, c.same)
		}
	}
	for _, bad := range []string{``, `{"a":`, `{} {}`, `{} }`, `[1e999]`} {
		if _, err := ContentSHA256([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestPinsFile: the commit and the two sha256 of each version are those
// ../shared/reference/mcp-schema/PINS.txt lists, read from its text: the
// sentence naming the commit, and one row per version (version, the
// published file's sha256, the canonical form's).
func TestPinsFile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(shared.Dir(t, "reference", "mcp-schema"), "PINS.txt"))
	if err != nil {
		t.Fatal(err)
	}
	commit := regexp.MustCompile(`at commit\s+([0-9a-f]{40})\b`).FindSubmatch(data)
	if commit == nil {
		t.Fatal("PINS.txt names no 40-hex commit")
	}
	if string(commit[1]) != Commit {
		t.Errorf("PINS.txt: commit %s, the code pins %s", commit[1], Commit)
	}
	if !strings.Contains(SchemaURL, "/"+string(commit[1])+"/") {
		t.Errorf("SchemaURL %s does not use the full commit", SchemaURL)
	}
	row := regexp.MustCompile(`(?m)^(\d{4}-\d{2}-\d{2})\s+([0-9a-f]{64})\s+([0-9a-f]{64})\s*$`)
	var listed []Version
	for _, m := range row.FindAllSubmatch(data, -1) {
		listed = append(listed, Version{Name: string(m[1]), FileSHA256: string(m[2]), SHA256: string(m[3])})
	}
	if !reflect.DeepEqual(listed, Released) {
		t.Errorf("PINS.txt lists\n%v\nthe code pins\n%v", listed, Released)
	}
}
