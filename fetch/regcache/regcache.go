// Package regcache is the cache of published building-block registers that
// "jrpcld fetch URL" fills, under the user's cache folder: each register a
// folder laid out as the register publishes its files (register.json, the
// annotated schemas, contexts and ontologies of its blocks), which the
// commands read as a local copy of the register (bblock.ImportMap). Open
// gives a block of a cached register as the tool chain gives it to a
// register that imports it. The package uses no network.
package regcache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing/fstest"

	"github.com/jrpcld/jrpcld/bblock"
	"github.com/jrpcld/jrpcld/internal/suggest"
)

// Root returns the folder of the cache: jrpcld/registers under
// os.UserCacheDir().
func Root() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder for registers: %w", err)
	}
	return filepath.Join(dir, "jrpcld", "registers"), nil
}

// Normalize returns the URL a register is known by: its register.json (a
// URL ending in "/" gets it added); "default" is bblock.DefaultImport.
func Normalize(u string) string {
	if u == "default" {
		return bblock.DefaultImport
	}
	if strings.HasSuffix(u, "/") {
		return u + "register.json"
	}
	return u
}

// IsURL reports whether s is an http or https URL (rather than a folder).
func IsURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

var unsafe = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// Key returns the name of the folder of the register at u in the cache: its
// host and path made safe as a file name, and a part of their hash.
func Key(u string) string {
	u = Normalize(u)
	sum := sha256.Sum256([]byte(u))
	name := u
	if p, err := url.Parse(u); err == nil {
		name = p.Host + p.Path
	}
	name = strings.Trim(unsafe.ReplaceAllString(name, "_"), "._")
	if len(name) > 80 {
		name = name[len(name)-80:]
	}
	return name + "-" + hex.EncodeToString(sum[:6])
}

// Dir returns the folder of the cached copy of the register at u, or an
// error wrapping ErrNotFetched that says how to fetch it. Only a copy a
// fetch completed is given (see Stage): one cut short, or one an older
// jrpcld installed in place, is not read.
func Dir(u string) (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	link := filepath.Join(root, Key(u))
	dir, err := filepath.EvalSymlinks(link)
	if err != nil {
		return "", fmt.Errorf("register %s: %w: fetch it with \"jrpcld fetch %s\"", u, ErrNotFetched, u)
	}
	if _, err := os.Stat(filepath.Join(dir, CompleteMark)); err != nil {
		return "", fmt.Errorf("register %s: %w: the copy in %s is not complete (a fetch cut short, or an older jrpcld's): fetch it again with \"jrpcld fetch %s\"", u, ErrNotFetched, link, u)
	}
	return dir, nil
}

// CheckCopy returns an error wrapping ErrNotFetched when dir, a folder
// given by hand (--import URL=DIR), lies within a copy in the cache that
// is not complete: such a copy is never read, whichever way it is named.
// A folder outside the cache is not its concern.
func CheckCopy(dir string) error {
	root, err := Root()
	if err != nil {
		return nil
	}
	root, err = filepath.EvalSymlinks(root)
	if err != nil {
		return nil // no cache
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil // for the reader to report
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	top, _, _ := strings.Cut(rel, string(filepath.Separator))
	if _, err := os.Stat(filepath.Join(root, top, CompleteMark)); err != nil {
		return fmt.Errorf("%s: %w: it is a copy that is not complete (a fetch cut short, or an older jrpcld's): fetch the register again with \"jrpcld fetch URL\"", dir, ErrNotFetched)
	}
	return nil
}

// MirrorRoot returns the URL prefix the cached copy of a register mirrors, given
// the URL of its register.json and the baseURL it declares: the baseURL when
// it holds the register.json directly or in its build/ folder (as the tool
// chain publishes), the register.json's folder otherwise. Only files under
// it are fetched: a baseURL elsewhere is not the register's.
func MirrorRoot(registerURL, baseURL string) string {
	folder := registerURL[:strings.LastIndex(registerURL, "/")+1]
	if baseURL != "" && !strings.HasSuffix(baseURL, "/") {
		baseURL += "/"
	}
	if baseURL != "" && (folder == baseURL || folder == baseURL+"build/") {
		return baseURL
	}
	return folder
}

// Open returns the block id of the cached register at u as a register that
// imports it sees it: a block of its own that depends on id and whose
// schema is id's annotated schema (so that its context is built from that
// schema, and validation uses it, with the references into the register's
// other blocks read from the cache), and the register it belongs to, with
// the cached copy as its import. Nothing is read from the network.
func Open(u, id string) (*bblock.Block, *bblock.Register, error) {
	u = Normalize(u)
	dir, err := Dir(u)
	if err != nil {
		return nil, nil, err
	}
	im, err := bblock.LoadImports([]bblock.ImportMap{{URL: u, Dir: dir}})
	if err != nil {
		return nil, nil, err
	}
	if id == "" {
		return nil, nil, fmt.Errorf("register %s: choose a block with --id", u)
	}
	ib, ok := im.Block(id)
	if !ok {
		return nil, nil, fmt.Errorf("%w %q in the register %s (cached in %s)%s", bblock.ErrUnknownBlock, id, u, dir, suggest.Have(id, im.IDs(), 50))
	}
	if ib.Schema == "" {
		return nil, nil, fmt.Errorf("block %s of %s has no annotated schema", id, u)
	}
	meta, _ := json.Marshal(map[string]any{
		"name": ib.Name, "abstract": "Block " + id + " of " + u + ", as published", "status": "stable",
		"itemClass": "schema", "version": "1.0", "dateTimeAddition": "2000-01-01T00:00:00Z", "dependsOn": []string{id},
	})
	schemaDoc, _ := json.Marshal(map[string]any{"$ref": ib.Schema})
	config, _ := json.Marshal(map[string]any{"name": "jrpcld: " + id, "identifier-prefix": "published.", "imports": []string{u}})
	path := strings.ReplaceAll(id, ".", "-")
	tree := fstest.MapFS{
		bblock.ConfigFile: {Data: config},
		bblock.SourcesDir + "/" + path + "/bblock.json": {Data: meta},
		bblock.SourcesDir + "/" + path + "/schema.json": {Data: schemaDoc},
	}
	reg, err := bblock.LoadRegister(fs.FS(tree), &bblock.Options{Imports: im})
	if err != nil {
		return nil, nil, err
	}
	if len(reg.Blocks) != 1 {
		return nil, nil, fmt.Errorf("register %s: block %s: %v", u, id, reg.Problems)
	}
	return reg.Blocks[0], reg, nil
}
