package mcp

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"sync"

	"github.com/jrpcld/jrpcld/internal/jcs"
	"github.com/jrpcld/jrpcld/schema"
)

// Version is a released version of MCP and the sha256 of its schema.json
// at Commit: of its content (ContentSHA256), which downloads are checked
// against, and of the published file's bytes, for reference.
type Version struct {
	Name       string // the protocolVersion, YYYY-MM-DD
	SHA256     string // hex, of the canonical form
	FileSHA256 string // hex, of the bytes published at Commit
}

// ContentSHA256 returns the sha256 (hex) of the RFC 8785 canonical form of
// a JSON document: the hash of what the document says, whatever its layout
// (white space, the order of members). The pins are taken this way because
// the copies they were taken from (../shared/reference/mcp-schema) are
// laid out otherwise than the published files; a change of any name or
// value still changes the hash.
func ContentSHA256(data []byte) (string, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return "", fmt.Errorf("not JSON: %w", err)
	}
	if _, err := d.Token(); err != io.EOF {
		return "", errors.New("not JSON: something follows the document")
	}
	canon, _, err := jcs.Append(nil, v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:]), nil
}

// Commit is the commit of the specification's repository
// (github.com/modelcontextprotocol/modelcontextprotocol) the schemas are
// taken from, as ../shared/reference/mcp-schema/PINS.txt names it: the full
// id, which, unlike an abbreviation, no later commit can come to share.
const Commit = "b0f60ba5409db7a6582440a7b473cc0398890f15"

// SchemaURL is where the schema of a version is published at Commit; %s is
// the version.
const SchemaURL = "https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/" + Commit + "/schema/%s/schema.json"

// Released are the versions whose schema "jrpcld fetch mcp-schemas"
// downloads, oldest first, with the sha256 of the content of the files of
// ../shared/reference/mcp-schema, which PINS.txt there says equal, by
// value, the files published at Commit (checked against GitHub on
// 2026-12-07), and the sha256 of the published files' bytes it lists.
var Released = []Version{
	{"2024-11-05", "866041c5c4d3bbf0a03fef38ef5c6db46aad13467cb384c3eb1bdf9a2f197d9f", "61cea2392d4f284092d09bc84b9ac488c0d5618ac2b38a56942fc5b99fd960ce"},
	{"2025-03-26", "35e76331022d571aa8953d1d57c2bb1440f5bdbe98096ea705a7232d6c65eed7", "e720669548c8100a4282c49e580efd6ddf7f28899ea786fc8db251dbdb356131"},
	{"2025-06-18", "ebfe1f0186fe0528776c385357ce44cd37df8e00cde8cfa912315a0497f4ceb6", "af845e7e5b9d27107d1690f0936022546177a1403e63ffb11470135b296a2e01"},
	{"2025-11-25", "26d2b94116c7e84b74664ae8b6a5144e8f80c308630c84e73d117cbd16373ce6", "268a5f82ba70fd7e4b6dc4aa1e64f116f74b4d0edcb69dc046829c79dd4e97e7"},
	{"2026-07-28", "96e9f3815e58709015a2faec87131467d72020316652c0e7ad10e185bd2eaf81", "ef70b61f99b6d2e5e3b46863822eab08dff6a45bedc7a08914e0e5b133f40203"},
}

// Newest is the newest released version.
func Newest() string { return Released[len(Released)-1].Name }

// versionName matches the names of versions: a date.
var versionName = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)

// IsVersion reports whether s has the form of a version name (YYYY-MM-DD).
func IsVersion(s string) bool { return versionName.MatchString(s) }

// CacheDir returns the folder of the user's cache that "jrpcld fetch
// mcp-schemas" fills: jrpcld/mcp-schema under os.UserCacheDir().
func CacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder for the MCP schemas: %w", err)
	}
	return filepath.Join(dir, "jrpcld", "mcp-schema"), nil
}

// Set is the schemas of a folder laid out VERSION/schema.json, each
// compiled once, when first asked for. A Set is safe for concurrent use.
type Set struct {
	Dir      string
	Compiler *schema.Compiler // nil for the default

	once     sync.Once
	versions []string
	err      error
	mu       sync.Mutex
	compiled map[string]*compiled
}

type compiled struct {
	once sync.Once
	s    *schema.Schema
	err  error
}

// Versions returns the versions the folder has a schema for (folders named
// YYYY-MM-DD holding schema.json), oldest first. The error is the folder's.
func (s *Set) Versions() ([]string, error) {
	s.once.Do(func() {
		entries, err := os.ReadDir(s.Dir)
		if err != nil {
			s.err = err
			return
		}
		for _, e := range entries {
			if !IsVersion(e.Name()) {
				continue
			}
			if st, err := os.Stat(filepath.Join(s.Dir, e.Name(), "schema.json")); err == nil && st.Mode().IsRegular() {
				s.versions = append(s.versions, e.Name())
			}
		}
		sort.Strings(s.versions)
	})
	return s.versions, s.err
}

// Newest returns the newest version the folder has a schema for, or the
// newest released one when it has none.
func (s *Set) Newest() string {
	vs, _ := s.Versions()
	if len(vs) == 0 {
		return Newest()
	}
	return vs[len(vs)-1]
}

// Schema returns the compiled schema of version v. A version the folder
// has no schema for is an error wrapping ErrNoSchema; v is looked up among
// the folder's versions, never used as a path by itself.
func (s *Set) Schema(v string) (*schema.Schema, error) {
	vs, err := s.Versions()
	if err != nil {
		return nil, err
	}
	i := sort.SearchStrings(vs, v)
	if i == len(vs) || vs[i] != v {
		return nil, fmt.Errorf("MCP %q: %w in %s", v, ErrNoSchema, s.Dir)
	}
	s.mu.Lock()
	if s.compiled == nil {
		s.compiled = map[string]*compiled{}
	}
	c := s.compiled[v]
	if c == nil {
		c = &compiled{}
		s.compiled[v] = c
	}
	s.mu.Unlock()
	c.once.Do(func() {
		comp := s.Compiler
		if comp == nil {
			comp = &schema.Compiler{}
		}
		c.s, c.err = comp.CompileFile(filepath.Join(s.Dir, vs[i], "schema.json"))
	})
	return c.s, c.err
}
